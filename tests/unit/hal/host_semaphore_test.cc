// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// utils::HostSemaphore and hal::WaitSemaphores: values, failure, waits and timepoint callbacks.
#include "hal/utils/host_semaphore.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

#include "base/cpu_relax.h"
#include "test_util.h"

namespace iree_rt::hal {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using testing::IsError;
using testing::IsOk;

constexpr int64_t kTimeoutNs = 30'000'000'000;

Ref<Semaphore> MakeSemaphore(uint64_t value = 0) { return base::MakeRef<utils::HostSemaphore>(value); }

TEST(HostSemaphoreTest, SignalAndQuery) {
  Ref<Semaphore> semaphore = MakeSemaphore(7);
  EXPECT_EQ(semaphore->Query().value(), 7u);
  EXPECT_TRUE(IsOk(semaphore->Signal(8)));
  EXPECT_EQ(semaphore->Query().value(), 8u);
  EXPECT_TRUE(IsError(semaphore->Signal(8), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(semaphore->Signal(2), StatusCode::kOutOfRange));
  EXPECT_EQ(semaphore->Query().value(), 8u);
}

TEST(HostSemaphoreTest, FirstFailureSticks) {
  Ref<Semaphore> semaphore = MakeSemaphore();
  semaphore->Fail(Status(StatusCode::kDataLoss, "first"));
  semaphore->Fail(Status(StatusCode::kAborted, "second"));
  EXPECT_TRUE(IsError(semaphore->Query().status(), StatusCode::kDataLoss, "first"));
  EXPECT_TRUE(IsError(semaphore->Signal(1), StatusCode::kFailedPrecondition, "first"));
  EXPECT_TRUE(IsError(semaphore->Wait(0, 0), StatusCode::kDataLoss));
}

TEST(HostSemaphoreTest, FailWithOkStatusIsUnknown) {
  Ref<Semaphore> semaphore = MakeSemaphore();
  semaphore->Fail(Status());
  EXPECT_TRUE(IsError(semaphore->Query().status(), StatusCode::kUnknown));
}

TEST(HostSemaphoreTest, WaitTimesOutWithoutChangingTheValue) {
  Ref<Semaphore> semaphore = MakeSemaphore(1);
  EXPECT_TRUE(IsOk(semaphore->Wait(1, 0)));
  EXPECT_TRUE(IsError(semaphore->Wait(2, 0), StatusCode::kDeadlineExceeded));
  EXPECT_TRUE(IsError(semaphore->Wait(2, -5), StatusCode::kDeadlineExceeded));
  EXPECT_TRUE(IsError(semaphore->Wait(2, 1'000'000), StatusCode::kDeadlineExceeded));
  EXPECT_EQ(semaphore->Query().value(), 1u);
}

TEST(HostSemaphoreTest, WaitWakesOnSignalAndOnFailure) {
  Ref<Semaphore> signaled = MakeSemaphore(), failed = MakeSemaphore();
  std::thread a([&] { EXPECT_TRUE(IsOk(signaled->Wait(3, kTimeoutNs))); });
  std::thread b([&] { EXPECT_TRUE(IsError(failed->Wait(3, hal::kInfiniteTimeout), StatusCode::kAborted)); });
  ASSERT_TRUE(IsOk(signaled->Signal(2)));
  ASSERT_TRUE(IsOk(signaled->Signal(5)));
  failed->Fail(Status(StatusCode::kAborted, "abort"));
  a.join();
  b.join();
}

TEST(HostSemaphoreTest, TimepointsFireOnceWhenReached) {
  Ref<Semaphore> semaphore = MakeSemaphore();
  std::vector<int> fired;
  for (int value : {3, 1, 2, 5}) {
    semaphore->NotifyAt(value, [&fired, value](Status status) {
      EXPECT_TRUE(IsOk(status));
      fired.push_back(value);
    });
  }
  EXPECT_TRUE(fired.empty());
  ASSERT_TRUE(IsOk(semaphore->Signal(1)));
  EXPECT_EQ(fired, (std::vector<int>{1}));
  ASSERT_TRUE(IsOk(semaphore->Signal(4)));  // releases 2 and 3 together, not 5
  std::vector<int> sorted = fired;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<int>{1, 2, 3}));
  ASSERT_TRUE(IsOk(semaphore->Signal(10)));
  ASSERT_TRUE(IsOk(semaphore->Signal(11)));
  semaphore->Fail(Status(StatusCode::kAborted, "after"));
  sorted = fired;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<int>{1, 2, 3, 5})) << "every timepoint fires exactly once";
}

TEST(HostSemaphoreTest, NotifyAtAnAlreadyDecidedValueRunsInline) {
  Ref<Semaphore> semaphore = MakeSemaphore(4);
  int calls = 0;
  EXPECT_EQ(semaphore->NotifyAt(4, [&](Status status) { ++calls; }), 0u);
  EXPECT_EQ(calls, 1);
  semaphore->Fail(Status(StatusCode::kAborted, "x"));
  Status seen;
  EXPECT_EQ(semaphore->NotifyAt(100, [&](Status status) { seen = status; }), 0u);
  EXPECT_TRUE(IsError(seen, StatusCode::kAborted));
}

TEST(HostSemaphoreTest, CancelNotify) {
  Ref<Semaphore> semaphore = MakeSemaphore();
  int calls = 0;
  Semaphore::TimepointId id = semaphore->NotifyAt(1, [&](Status) { ++calls; });
  ASSERT_NE(id, 0u);
  EXPECT_TRUE(semaphore->CancelNotify(id));
  EXPECT_FALSE(semaphore->CancelNotify(id));
  EXPECT_FALSE(semaphore->CancelNotify(12345));
  ASSERT_TRUE(IsOk(semaphore->Signal(1)));
  EXPECT_EQ(calls, 0);
}

TEST(HostSemaphoreTest, DestroyWithPendingTimepointsCancelsThem) {
  std::vector<Status> seen;
  int cancelled_calls = 0;
  {
    Ref<Semaphore> semaphore = MakeSemaphore();
    semaphore->NotifyAt(1, [&](Status status) { seen.push_back(status); });
    semaphore->NotifyAt(2, [&](Status status) { seen.push_back(status); });
    Semaphore::TimepointId dropped = semaphore->NotifyAt(3, [&](Status) { ++cancelled_calls; });
    EXPECT_TRUE(semaphore->CancelNotify(dropped));
  }
  ASSERT_EQ(seen.size(), 2u);
  for (const Status& status : seen) EXPECT_TRUE(IsError(status, StatusCode::kCancelled));
  EXPECT_EQ(cancelled_calls, 0);
}

TEST(HostSemaphoreTest, FailDeliversTheStatusToEveryTimepoint) {
  Ref<Semaphore> semaphore = MakeSemaphore();
  std::vector<StatusCode> codes;
  for (int i = 1; i <= 3; ++i) semaphore->NotifyAt(i, [&](Status status) { codes.push_back(status.code()); });
  semaphore->Fail(Status(StatusCode::kResourceExhausted, "oom"));
  EXPECT_EQ(codes, std::vector<StatusCode>(3, StatusCode::kResourceExhausted));
}

TEST(HostSemaphoreTest, CallbacksMayReenterTheSemaphore) {
  Ref<Semaphore> semaphore = MakeSemaphore();
  Semaphore* raw = semaphore.get();
  std::vector<int> order;
  Semaphore::TimepointId victim = 0;
  semaphore->NotifyAt(1, [&, raw](Status) {
    order.push_back(1);
    EXPECT_TRUE(raw->CancelNotify(victim));  // cancel another pending timepoint
    raw->NotifyAt(1, [&](Status) { order.push_back(11); });  // already reached: inline
    raw->NotifyAt(2, [&](Status) { order.push_back(2); });
    EXPECT_TRUE(IsOk(raw->Signal(2)));  // signal again from inside a callback
  });
  victim = semaphore->NotifyAt(50, [&](Status) { order.push_back(50); });
  ASSERT_TRUE(IsOk(semaphore->Signal(1)));
  EXPECT_EQ(order, (std::vector<int>{1, 11, 2}));
  EXPECT_EQ(semaphore->Query().value(), 2u);
}

TEST(HostSemaphoreTest, ConcurrentTimepointsAndSignals) {
  Ref<Semaphore> semaphore = MakeSemaphore();
  constexpr int kThreads = 8, kEach = 200;
  constexpr uint64_t kFinal = 50;
  std::atomic<int> fired{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        semaphore->NotifyAt(uint64_t(i * 7 + t) % kFinal + 1, [&](Status status) {
          EXPECT_TRUE(IsOk(status));
          fired.fetch_add(1);
        });
      }
    });
  }
  for (uint64_t value = 1; value <= kFinal; ++value) ASSERT_TRUE(IsOk(semaphore->Signal(value)));
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(fired.load(), kThreads * kEach);
}

// Drives |kPingPongSteps| rounds through two semaphores: this thread signals |ping| to i and
// waits for |pong| to reach i, while a second thread runs |answer|(i), which must bring |pong|
// to i. Each round is a fresh wait on a value the other side is about to signal, so a lost
// wake-up or callback stalls the chain until a wait times out. Returns the failed rounds.
constexpr uint64_t kPingPongSteps = 20000;
constexpr int64_t kStallNs = 5'000'000'000;

int PingPong(Semaphore& ping, Semaphore& pong, const std::function<bool(uint64_t)>& answer) {
  std::atomic<int> failures{0};
  std::thread other([&] {
    for (uint64_t i = 1; i <= kPingPongSteps; ++i) {
      if (!answer(i)) {
        failures.fetch_add(1);
        return;
      }
    }
  });
  for (uint64_t i = 1; i <= kPingPongSteps; ++i) {
    // A varying delay of a few microseconds, so the signal lands anywhere in the window where
    // the other thread, just woken, registers its wait or callback.
    for (uint64_t spin = i % 512; spin > 0; --spin) base::CpuRelax();
    if (!IsOk(ping.Signal(i)) || !IsOk(pong.Wait(i, kStallNs))) {
      failures.fetch_add(1);
      break;
    }
  }
  if (failures.load() != 0) {  // frees |other| wherever it stalled
    ping.Fail(Status(StatusCode::kCancelled, "stalled"));
    pong.Fail(Status(StatusCode::kCancelled, "stalled"));
  }
  other.join();
  return failures.load();
}

// Signals take no lock when nobody watches, so a waiter that blocks just as the value moves
// must still be woken.
TEST(HostSemaphoreTest, UnlockedSignalsNeverLoseAWakeUp) {
  Ref<Semaphore> ping = MakeSemaphore(), pong = MakeSemaphore();
  ASSERT_EQ(PingPong(*ping, *pong, [&](uint64_t i) {
              return IsOk(ping->Wait(i, kStallNs)) && IsOk(pong->Signal(i));
            }),
            0);
  EXPECT_EQ(pong->Query().value(), kPingPongSteps);
}

// Polls |semaphore| until it reaches |value| (true), fails or kStallNs pass: a thread that never
// sleeps comes back in nanoseconds, so its next registration races the other side's signal.
bool SpinUntil(Semaphore& semaphore, uint64_t value) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(kStallNs);
  while (std::chrono::steady_clock::now() < deadline) {
    base::StatusOr<uint64_t> current = semaphore.Query();
    if (!current.ok()) return false;
    if (*current >= value) return true;
    base::CpuRelax();
  }
  return false;
}

// As above, for a timepoint callback registered as the value it awaits is signaled: the callback
// signals the round's reply, so one lost by a signal that saw no watcher stalls the chain.
TEST(HostSemaphoreTest, UnlockedSignalsNeverLoseATimepoint) {
  Ref<Semaphore> ping = MakeSemaphore(), pong = MakeSemaphore();
  ASSERT_EQ(PingPong(*ping, *pong, [&](uint64_t i) {
              ping->NotifyAt(i, [&, i](Status status) {
                if (status.ok()) pong->Signal(i).IgnoreError();  // a failure stalls the chain
              });
              return SpinUntil(*pong, i);
            }),
            0);
  EXPECT_EQ(pong->Query().value(), kPingPongSteps);
}

// Concurrent signals to increasing values: each succeeds at most once per value, none goes
// backwards, and the timeline ends at the highest.
TEST(HostSemaphoreTest, ConcurrentSignalsStayMonotonic) {
  Ref<Semaphore> semaphore = MakeSemaphore();
  constexpr int kThreads = 4;
  constexpr uint64_t kFinal = 5000;
  std::atomic<int> accepted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      uint64_t last = 0;
      for (uint64_t value = 1; value <= kFinal; ++value) {
        Status status = semaphore->Signal(value);
        if (status.ok()) {
          accepted.fetch_add(1);
        } else {
          EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
        }
        const uint64_t now = semaphore->Query().value();
        EXPECT_GE(now, last);
        last = now;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(semaphore->Query().value(), kFinal);
  EXPECT_GE(accepted.load(), 1);
  EXPECT_LE(accepted.load(), static_cast<int>(kFinal));
}

TEST(HostSemaphoreTest, SignalAfterFailureNamesTheFailure) {
  Ref<Semaphore> semaphore = MakeSemaphore();
  semaphore->Fail(base::InternalError("kernel fault"));
  Status status = semaphore->Signal(1);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(status.ToString().find("kernel fault"), std::string::npos) << status.ToString();
}

TEST(WaitSemaphoresTest, AllAnyAndTimeouts) {
  Ref<Semaphore> a = MakeSemaphore(), b = MakeSemaphore(2);
  const SemaphorePoint points[2] = {{a.get(), 1}, {b.get(), 1}};
  EXPECT_TRUE(IsOk(WaitSemaphores(WaitMode::kAny, points, 0)));
  EXPECT_TRUE(IsError(WaitSemaphores(WaitMode::kAll, points, 0), StatusCode::kDeadlineExceeded));
  EXPECT_TRUE(IsError(WaitSemaphores(WaitMode::kAll, points, 1'000'000), StatusCode::kDeadlineExceeded));
  std::thread signaler([&] { EXPECT_TRUE(IsOk(a->Signal(1))); });
  EXPECT_TRUE(IsOk(WaitSemaphores(WaitMode::kAll, points, kTimeoutNs)));
  signaler.join();
  EXPECT_TRUE(IsOk(WaitSemaphores(WaitMode::kAll, {}, 0)));
  const SemaphorePoint null_point{nullptr, 1};
  EXPECT_TRUE(IsError(WaitSemaphores(WaitMode::kAll, {&null_point, 1}, 0), StatusCode::kInvalidArgument));
}

TEST(WaitSemaphoresTest, RepeatedTimedOutWaitsThenSuccess) {
  // Timed-out multi-waits unregister their timepoints; later waits and signals are unaffected.
  Ref<Semaphore> a = MakeSemaphore(), b = MakeSemaphore();
  const SemaphorePoint points[2] = {{a.get(), 1}, {b.get(), 1}};
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(IsError(WaitSemaphores(i % 2 ? WaitMode::kAll : WaitMode::kAny, points, 1000),
                        StatusCode::kDeadlineExceeded));
  }
  int fired = 0;
  a->NotifyAt(1, [&](Status) { ++fired; });
  EXPECT_TRUE(IsOk(a->Signal(1)));
  EXPECT_EQ(fired, 1);
  EXPECT_TRUE(IsError(WaitSemaphores(WaitMode::kAll, points, 1000), StatusCode::kDeadlineExceeded));
  EXPECT_TRUE(IsOk(b->Signal(1)));
  EXPECT_TRUE(IsOk(WaitSemaphores(WaitMode::kAll, points, 0)));
}

TEST(WaitSemaphoresTest, FailureDecidesTheWait) {
  Ref<Semaphore> a = MakeSemaphore(), b = MakeSemaphore();
  const SemaphorePoint points[2] = {{a.get(), 1}, {b.get(), 1}};
  std::thread failer([&] { b->Fail(Status(StatusCode::kInternal, "broken")); });
  EXPECT_TRUE(IsError(WaitSemaphores(WaitMode::kAny, points, kTimeoutNs), StatusCode::kInternal));
  failer.join();
  EXPECT_TRUE(IsError(WaitSemaphores(WaitMode::kAll, points, 0), StatusCode::kInternal));
}

}  // namespace
}  // namespace iree_rt::hal
