// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// SemaphoreTest: timeline semaphores made by the device, on one thread (IREE core/semaphore_test),
// plus timepoint callbacks and fences over device semaphores (waits and Fence::Notify).
#include <atomic>

#include "cts_test.h"
#include "hal/fence.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using hal::SemaphorePoint;
using hal::WaitMode;

class SemaphoreTest : public CtsTest {};

TEST_P(SemaphoreTest, NoOp) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(123);
  ASSERT_TRUE(semaphore);
  EXPECT_EQ(ValueOf(*semaphore), 123u);
}

TEST_P(SemaphoreTest, NormalSignaling) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(2);
  ASSERT_TRUE(semaphore);
  EXPECT_EQ(ValueOf(*semaphore), 2u);
  ASSERT_TRUE(IsOk(semaphore->Signal(3)));
  EXPECT_EQ(ValueOf(*semaphore), 3u);
  ASSERT_TRUE(IsOk(semaphore->Signal(40)));
  EXPECT_EQ(ValueOf(*semaphore), 40u);
}

TEST_P(SemaphoreTest, SignalMustIncrease) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(5);
  ASSERT_TRUE(semaphore);
  EXPECT_TRUE(IsError(semaphore->Signal(5), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(semaphore->Signal(4), StatusCode::kOutOfRange));
  EXPECT_EQ(ValueOf(*semaphore), 5u);
  ASSERT_TRUE(IsOk(semaphore->Signal(UINT64_MAX - 1)));
  EXPECT_EQ(ValueOf(*semaphore), UINT64_MAX - 1);
}

TEST_P(SemaphoreTest, Failure) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(2);
  ASSERT_TRUE(semaphore);
  ASSERT_TRUE(IsOk(semaphore->Signal(3)));
  semaphore->Fail(Status());  // a bare failure is stored as UNKNOWN
  EXPECT_TRUE(IsError(semaphore->Query().status(), StatusCode::kUnknown));
  EXPECT_TRUE(IsError(semaphore->Wait(1, 0), StatusCode::kUnknown)) << "waits on a failed semaphore fail";
  EXPECT_TRUE(IsError(semaphore->Signal(4), StatusCode::kFailedPrecondition));
}

TEST_P(SemaphoreTest, EmptyWait) {
  for (WaitMode mode : {WaitMode::kAll, WaitMode::kAny}) {
    EXPECT_TRUE(IsOk(hal::WaitSemaphores(mode, {}, hal::kInfiniteTimeout)));
    EXPECT_TRUE(IsOk(hal::WaitSemaphores(mode, {}, 0)));
  }
}

TEST_P(SemaphoreTest, WaitAlreadySignaled) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(2);
  ASSERT_TRUE(semaphore);
  EXPECT_TRUE(IsOk(semaphore->Wait(1, 0)));
  EXPECT_TRUE(IsOk(semaphore->Wait(2, 0)));
  EXPECT_TRUE(IsOk(semaphore->Wait(1, hal::kInfiniteTimeout)));
  EXPECT_TRUE(IsOk(semaphore->Wait(2, hal::kInfiniteTimeout)));
}

TEST_P(SemaphoreTest, WaitUnsignaled) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(2);
  ASSERT_TRUE(semaphore);
  EXPECT_TRUE(IsError(semaphore->Wait(3, 0), StatusCode::kDeadlineExceeded));
  EXPECT_TRUE(IsError(semaphore->Wait(3, 1'000'000), StatusCode::kDeadlineExceeded));
  EXPECT_EQ(ValueOf(*semaphore), 2u) << "a timed-out wait must not change the value";
}

TEST_P(SemaphoreTest, WaitAllButNotAllSignaled) {
  Ref<hal::Semaphore> a = CreateSemaphore(0), b = CreateSemaphore(1);
  ASSERT_TRUE(a && b);
  const SemaphorePoint points[2] = {{a.get(), 1}, {b.get(), 1}};
  EXPECT_TRUE(IsError(hal::WaitSemaphores(WaitMode::kAll, points, 0), StatusCode::kDeadlineExceeded));
  EXPECT_TRUE(IsError(hal::WaitSemaphores(WaitMode::kAll, points, 1'000'000), StatusCode::kDeadlineExceeded));
}

TEST_P(SemaphoreTest, WaitAllAndAllSignaled) {
  Ref<hal::Semaphore> a = CreateSemaphore(1), b = CreateSemaphore(1);
  ASSERT_TRUE(a && b);
  const SemaphorePoint points[2] = {{a.get(), 1}, {b.get(), 1}};
  EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAll, points, 0)));
  EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAll, points, hal::kInfiniteTimeout)));
}

TEST_P(SemaphoreTest, WaitAnyAlreadySignaled) {
  Ref<hal::Semaphore> a = CreateSemaphore(0), b = CreateSemaphore(1);
  ASSERT_TRUE(a && b);
  const SemaphorePoint points[2] = {{a.get(), 1}, {b.get(), 1}};
  EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAny, points, 0)));
  EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAny, points, hal::kInfiniteTimeout)));
  const SemaphorePoint neither[2] = {{a.get(), 1}, {b.get(), 2}};
  EXPECT_TRUE(IsError(hal::WaitSemaphores(WaitMode::kAny, neither, 0), StatusCode::kDeadlineExceeded));
}

TEST_P(SemaphoreTest, FailThenWait) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  semaphore->Fail(Status(StatusCode::kCancelled, "cancelled by the test"));
  EXPECT_TRUE(IsError(semaphore->Wait(1, hal::kInfiniteTimeout), StatusCode::kCancelled, "cancelled by the test"));
  EXPECT_TRUE(IsError(semaphore->Wait(0, 0), StatusCode::kCancelled));
}

TEST_P(SemaphoreTest, FailurePreservesStatusCode) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  semaphore->Fail(Status(StatusCode::kDataLoss, "lost"));
  EXPECT_TRUE(IsError(semaphore->Query().status(), StatusCode::kDataLoss, "lost"));
  EXPECT_TRUE(IsError(semaphore->Wait(1, 0), StatusCode::kDataLoss));
  const SemaphorePoint point{semaphore.get(), 1};
  EXPECT_TRUE(IsError(hal::WaitSemaphores(WaitMode::kAll, {&point, 1}, 0), StatusCode::kDataLoss));
}

TEST_P(SemaphoreTest, DoubleFailurePreservesFirst) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  semaphore->Fail(Status(StatusCode::kDataLoss, "first"));
  semaphore->Fail(Status(StatusCode::kAborted, "second"));
  EXPECT_TRUE(IsError(semaphore->Query().status(), StatusCode::kDataLoss, "first"));
}

TEST_P(SemaphoreTest, WaitAllFailsIfAnyFailed) {
  Ref<hal::Semaphore> a = CreateSemaphore(1), b = CreateSemaphore(0);
  ASSERT_TRUE(a && b);
  b->Fail(Status(StatusCode::kAborted, "b failed"));
  const SemaphorePoint points[2] = {{a.get(), 1}, {b.get(), 1}};
  EXPECT_TRUE(IsError(hal::WaitSemaphores(WaitMode::kAll, points, hal::kInfiniteTimeout), StatusCode::kAborted));
}

TEST_P(SemaphoreTest, NotifyAtRunsOnceWhenReached) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  int calls = 0;
  Status seen(StatusCode::kInternal, "not called");
  semaphore->NotifyAt(5, [&](Status status) { ++calls, seen = std::move(status); });
  ASSERT_TRUE(IsOk(semaphore->Signal(4)));
  EXPECT_EQ(calls, 0) << "fired below the value";
  ASSERT_TRUE(IsOk(semaphore->Signal(6)));
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(IsOk(seen));
  ASSERT_TRUE(IsOk(semaphore->Signal(7)));
  semaphore->Fail(Status(StatusCode::kAborted, "late"));
  EXPECT_EQ(calls, 1) << "a timepoint fires exactly once";
}

TEST_P(SemaphoreTest, NotifyAtReachedValueRunsBeforeReturning) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(3);
  ASSERT_TRUE(semaphore);
  int calls = 0;
  semaphore->NotifyAt(3, [&](Status status) {
    EXPECT_TRUE(IsOk(status));
    ++calls;
  });
  EXPECT_EQ(calls, 1);
}

TEST_P(SemaphoreTest, NotifyAtReceivesFailure) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  std::vector<StatusCode> codes;
  semaphore->NotifyAt(1, [&](Status status) { codes.push_back(status.code()); });
  semaphore->NotifyAt(100, [&](Status status) { codes.push_back(status.code()); });
  semaphore->Fail(Status(StatusCode::kResourceExhausted, "oom"));
  EXPECT_EQ(codes, (std::vector<StatusCode>{StatusCode::kResourceExhausted, StatusCode::kResourceExhausted}));
  semaphore->NotifyAt(1, [&](Status status) { codes.push_back(status.code()); });
  EXPECT_EQ(codes.size(), 3u) << "a timepoint on a failed semaphore runs at once";
  EXPECT_EQ(codes.back(), StatusCode::kResourceExhausted);
}

TEST_P(SemaphoreTest, CancelNotify) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  int calls = 0;
  hal::Semaphore::TimepointId id = semaphore->NotifyAt(1, [&](Status) { ++calls; });
  EXPECT_TRUE(semaphore->CancelNotify(id));
  EXPECT_FALSE(semaphore->CancelNotify(id)) << "cancelling twice";
  ASSERT_TRUE(IsOk(semaphore->Signal(1)));
  EXPECT_EQ(calls, 0);
  hal::Semaphore::TimepointId fired = semaphore->NotifyAt(2, [&](Status) { ++calls; });
  ASSERT_TRUE(IsOk(semaphore->Signal(2)));
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(semaphore->CancelNotify(fired)) << "cancelling a timepoint that already ran";
}

TEST_P(SemaphoreTest, CallbackMaySignalTheSameSemaphore) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  hal::Semaphore* raw = semaphore.get();
  semaphore->NotifyAt(1, [raw](Status status) { EXPECT_TRUE(IsOk(raw->Signal(2))); });
  ASSERT_TRUE(IsOk(semaphore->Signal(1)));
  EXPECT_EQ(ValueOf(*semaphore), 2u);
}

TEST_P(SemaphoreTest, FenceOverDeviceSemaphores) {
  Ref<hal::Semaphore> a = CreateSemaphore(0), b = CreateSemaphore(0);
  ASSERT_TRUE(a && b);
  Ref<hal::Fence> fence = hal::Fence::Create();
  ASSERT_TRUE(IsOk(fence->Insert(a, 2)));
  ASSERT_TRUE(IsOk(fence->Insert(b, 1)));
  ASSERT_TRUE(IsOk(fence->Insert(a, 1)));  // keeps the larger value
  EXPECT_EQ(fence->size(), 2u);
  EXPECT_TRUE(IsError(fence->Query(), StatusCode::kDeferred));
  EXPECT_TRUE(IsError(fence->Wait(WaitMode::kAll, 0), StatusCode::kDeadlineExceeded));
  ASSERT_TRUE(IsOk(a->Signal(1)));
  EXPECT_TRUE(IsError(fence->Query(), StatusCode::kDeferred));
  ASSERT_TRUE(IsOk(fence->Signal()));
  EXPECT_EQ(ValueOf(*a), 2u);
  EXPECT_EQ(ValueOf(*b), 1u);
  EXPECT_TRUE(IsOk(fence->Query()));
  EXPECT_TRUE(IsOk(fence->Wait(WaitMode::kAll, 0)));
  fence->Fail(Status(StatusCode::kAborted, "fence failed"));
  EXPECT_TRUE(IsError(fence->Query(), StatusCode::kAborted));
  EXPECT_TRUE(IsError(b->Query().status(), StatusCode::kAborted));
}

TEST_P(SemaphoreTest, FenceNotifyRunsOnceEveryTimepointIsReached) {
  Ref<hal::Semaphore> a = CreateSemaphore(0), b = CreateSemaphore(0);
  ASSERT_TRUE(a && b);
  Ref<hal::Fence> fence = hal::Fence::Create();
  ASSERT_TRUE(IsOk(fence->Insert(a, 2)));
  ASSERT_TRUE(IsOk(fence->Insert(b, 1)));
  int calls = 0;
  Status seen(StatusCode::kInternal, "not called");
  fence->Notify([&](Status status) { ++calls, seen = std::move(status); });
  ASSERT_TRUE(IsOk(a->Signal(2)));
  EXPECT_EQ(calls, 0) << "fired with a timepoint left";
  ASSERT_TRUE(IsOk(b->Signal(1)));
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(IsOk(seen));
  // Decided already: before Notify returns. An empty fence is reached.
  int now = 0;
  fence->Notify([&](Status status) { now += IsOk(status) ? 1 : 100; });
  hal::Fence::Create()->Notify([&](Status status) { now += IsOk(status) ? 1 : 100; });
  EXPECT_EQ(now, 2);
  b->Fail(Status(StatusCode::kAborted, "late"));
  EXPECT_EQ(calls, 1) << "a fence notification runs exactly once";
  fence->Notify([&](Status status) { now += IsOk(status) ? 1 : 100; });
  EXPECT_EQ(now, 102) << "a failed fence notifies its failure at once";
}

TEST_P(SemaphoreTest, FenceNotifyReceivesTheFirstFailure) {
  Ref<hal::Semaphore> a = CreateSemaphore(0), b = CreateSemaphore(0);
  ASSERT_TRUE(a && b);
  Ref<hal::Fence> fence = hal::Fence::Create();
  ASSERT_TRUE(IsOk(fence->Insert(a, 1)));
  ASSERT_TRUE(IsOk(fence->Insert(b, 1)));
  std::vector<StatusCode> codes;
  fence->Notify([&](Status status) { codes.push_back(status.code()); });
  a->Fail(Status(StatusCode::kDataLoss, "first"));
  b->Fail(Status(StatusCode::kAborted, "second"));
  EXPECT_EQ(codes, (std::vector<StatusCode>{StatusCode::kDataLoss}));
}

INSTANTIATE_TEST_SUITE_P(Cts, SemaphoreTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
