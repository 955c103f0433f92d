// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::Fence over host semaphores: insertion keeps the maximum per semaphore, joins, and the
// reached/pending/failed states.
#include "hal/fence.h"

#include <gtest/gtest.h>

#include "hal/utils/host_semaphore.h"
#include "test_util.h"

namespace iree_rt::hal {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using testing::IsError;
using testing::IsOk;

Ref<Semaphore> MakeSemaphore(uint64_t value = 0) { return base::MakeRef<utils::HostSemaphore>(value); }

uint64_t ValueOf(Semaphore& semaphore) {
  base::StatusOr<uint64_t> value = semaphore.Query();
  EXPECT_TRUE(IsOk(value));
  return value.ok() ? *value : UINT64_MAX;
}

TEST(FenceTest, EmptyFenceIsAlwaysReached) {
  Ref<Fence> fence = Fence::Create();
  EXPECT_EQ(fence->size(), 0u);
  EXPECT_TRUE(fence->points().empty());
  EXPECT_TRUE(IsOk(fence->Query()));
  EXPECT_TRUE(IsOk(fence->Wait(WaitMode::kAll, 0)));
  EXPECT_TRUE(IsOk(fence->Wait(WaitMode::kAny, 0)));
  EXPECT_TRUE(IsOk(fence->Signal()));
  fence->Fail(Status(StatusCode::kAborted, "nothing to fail"));
  EXPECT_TRUE(IsOk(fence->Query()));
}

TEST(FenceTest, InsertKeepsTheMaximum) {
  Ref<Semaphore> a = MakeSemaphore(), b = MakeSemaphore();
  Ref<Fence> fence = Fence::Create();
  ASSERT_TRUE(IsOk(fence->Insert(a, 5)));
  ASSERT_TRUE(IsOk(fence->Insert(a, 3)));
  ASSERT_TRUE(IsOk(fence->Insert(b, 1)));
  ASSERT_TRUE(IsOk(fence->Insert(a, 7)));
  ASSERT_EQ(fence->size(), 2u);
  PointList points = fence->points();
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].semaphore, a.get());
  EXPECT_EQ(points[0].value, 7u);
  EXPECT_EQ(points[1].semaphore, b.get());
  EXPECT_EQ(points[1].value, 1u);
  EXPECT_TRUE(IsError(fence->Insert(nullptr, 1), StatusCode::kInvalidArgument));
  EXPECT_EQ(fence->size(), 2u);
}

TEST(FenceTest, FenceRetainsItsSemaphores) {
  Ref<Semaphore> semaphore = MakeSemaphore();
  Semaphore* raw = semaphore.get();
  Ref<Fence> fence = Fence::Create();
  ASSERT_TRUE(IsOk(fence->Insert(semaphore, 1)));
  semaphore = nullptr;
  EXPECT_EQ(raw->ref_count_for_testing(), 1);
  EXPECT_TRUE(IsOk(fence->Signal()));
  EXPECT_TRUE(IsOk(fence->Query()));
}

TEST(FenceTest, Join) {
  Ref<Semaphore> s1 = MakeSemaphore(), s2 = MakeSemaphore(), s3 = MakeSemaphore();
  Ref<Fence> a = Fence::Create(), b = Fence::Create();
  ASSERT_TRUE(IsOk(a->Insert(s1, 2)));
  ASSERT_TRUE(IsOk(a->Insert(s2, 1)));
  ASSERT_TRUE(IsOk(b->Insert(s1, 5)));
  ASSERT_TRUE(IsOk(b->Insert(s3, 4)));
  Fence* const fences[3] = {a.get(), nullptr, b.get()};
  Ref<Fence> joined = Fence::Join(fences);
  ASSERT_EQ(joined->size(), 3u);
  PointList points = joined->points();
  auto value_of = [&](Semaphore* semaphore) {
    for (const SemaphorePoint& point : points) {
      if (point.semaphore == semaphore) return point.value;
    }
    return uint64_t{0};
  };
  EXPECT_EQ(value_of(s1.get()), 5u);
  EXPECT_EQ(value_of(s2.get()), 1u);
  EXPECT_EQ(value_of(s3.get()), 4u);
  EXPECT_EQ(a->points()[0].value, 2u) << "joining must not modify the inputs";
  EXPECT_EQ(Fence::Join({})->size(), 0u);
}

TEST(FenceTest, QueryStates) {
  Ref<Semaphore> a = MakeSemaphore(), b = MakeSemaphore();
  Ref<Fence> fence = Fence::Create();
  ASSERT_TRUE(IsOk(fence->Insert(a, 2)));
  ASSERT_TRUE(IsOk(fence->Insert(b, 1)));
  EXPECT_TRUE(IsError(fence->Query(), StatusCode::kDeferred));
  ASSERT_TRUE(IsOk(a->Signal(2)));
  EXPECT_TRUE(IsError(fence->Query(), StatusCode::kDeferred));
  ASSERT_TRUE(IsOk(b->Signal(3)));
  EXPECT_TRUE(IsOk(fence->Query()));
  EXPECT_TRUE(IsOk(fence->Wait(WaitMode::kAll, 0)));
  // A failure wins over "reached".
  b->Fail(Status(StatusCode::kDataLoss, "b failed"));
  EXPECT_TRUE(IsError(fence->Query(), StatusCode::kDataLoss, "b failed"));
  EXPECT_TRUE(IsError(fence->Wait(WaitMode::kAll, 0), StatusCode::kDataLoss));
}

TEST(FenceTest, FailureWinsOverPending) {
  Ref<Semaphore> pending = MakeSemaphore(), failed = MakeSemaphore();
  Ref<Fence> fence = Fence::Create();
  ASSERT_TRUE(IsOk(fence->Insert(pending, 1)));
  ASSERT_TRUE(IsOk(fence->Insert(failed, 1)));
  failed->Fail(Status(StatusCode::kCancelled, "cancelled"));
  EXPECT_TRUE(IsError(fence->Query(), StatusCode::kCancelled));
  EXPECT_TRUE(IsError(fence->Wait(WaitMode::kAll, 1'000'000'000), StatusCode::kCancelled));
}

TEST(FenceTest, SignalAdvancesOnlyWhatIsBehind) {
  Ref<Semaphore> behind = MakeSemaphore(1), ahead = MakeSemaphore(10);
  Ref<Fence> fence = Fence::Create();
  ASSERT_TRUE(IsOk(fence->Insert(behind, 4)));
  ASSERT_TRUE(IsOk(fence->Insert(ahead, 5)));
  ASSERT_TRUE(IsOk(fence->Signal()));
  EXPECT_EQ(ValueOf(*behind), 4u);
  EXPECT_EQ(ValueOf(*ahead), 10u) << "signaling must never move a timeline backwards";
  ahead->Fail(Status(StatusCode::kAborted, "failed"));
  EXPECT_TRUE(IsError(fence->Signal(), StatusCode::kAborted));
}

TEST(FenceTest, FailFailsEverySemaphore) {
  Ref<Semaphore> a = MakeSemaphore(), b = MakeSemaphore(3);
  Ref<Fence> fence = Fence::Create();
  ASSERT_TRUE(IsOk(fence->Insert(a, 1)));
  ASSERT_TRUE(IsOk(fence->Insert(b, 1)));
  fence->Fail(Status(StatusCode::kUnavailable, "device lost"));
  EXPECT_TRUE(IsError(a->Query().status(), StatusCode::kUnavailable));
  EXPECT_TRUE(IsError(b->Query().status(), StatusCode::kUnavailable));
}

TEST(FenceTest, WaitModes) {
  Ref<Semaphore> a = MakeSemaphore(), b = MakeSemaphore();
  Ref<Fence> fence = Fence::Create();
  ASSERT_TRUE(IsOk(fence->Insert(a, 1)));
  ASSERT_TRUE(IsOk(fence->Insert(b, 1)));
  EXPECT_TRUE(IsError(fence->Wait(WaitMode::kAny, 0), StatusCode::kDeadlineExceeded));
  ASSERT_TRUE(IsOk(a->Signal(1)));
  EXPECT_TRUE(IsOk(fence->Wait(WaitMode::kAny, 0)));
  EXPECT_TRUE(IsError(fence->Wait(WaitMode::kAll, 1'000'000), StatusCode::kDeadlineExceeded));
}

}  // namespace
}  // namespace iree_rt::hal
