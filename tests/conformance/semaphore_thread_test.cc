// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// SemaphoreThreadTest: semaphores shared between threads (IREE core/semaphore_thread_test), and
// many threads waiting, signaling, failing and registering timepoints at once.
//
// Waits are bounded (kWaitTimeoutNs): a lost wake-up fails the case instead of hanging it.
#include <atomic>
#include <thread>
#include <vector>

#include "cts_test.h"
#include "hal/fence.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using hal::SemaphorePoint;
using hal::WaitMode;

class SemaphoreThreadTest : public CtsTest {};

TEST_P(SemaphoreThreadTest, WaitLaterSignaledBeyond) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  std::atomic<bool> woke{false};
  std::thread waiter([&] {
    EXPECT_TRUE(IsOk(WaitFor(*semaphore, 5)));
    EXPECT_GE(ValueOf(*semaphore), 5u);
    woke = true;
  });
  EXPECT_FALSE(woke) << "the waiter returned before the semaphore reached its value";
  ASSERT_TRUE(IsOk(semaphore->Signal(4)));
  ASSERT_TRUE(IsOk(semaphore->Signal(10)));
  waiter.join();
  EXPECT_TRUE(woke);
}

TEST_P(SemaphoreThreadTest, WaitAnyLaterSignaled) {
  Ref<hal::Semaphore> a = CreateSemaphore(0), b = CreateSemaphore(0);
  ASSERT_TRUE(a && b);
  std::thread waiter([&] {
    const SemaphorePoint points[2] = {{a.get(), 1}, {b.get(), 1}};
    EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAny, points, kWaitTimeoutNs)));
    EXPECT_EQ(ValueOf(*b), 1u);
  });
  ASSERT_TRUE(IsOk(b->Signal(1)));
  waiter.join();
  EXPECT_EQ(ValueOf(*a), 0u);
}

TEST_P(SemaphoreThreadTest, PingPong) {
  Ref<hal::Semaphore> ping = CreateSemaphore(0), pong = CreateSemaphore(0);
  ASSERT_TRUE(ping && pong);
  constexpr uint64_t kRounds = 200;
  std::thread partner([&] {
    for (uint64_t i = 1; i <= kRounds; ++i) {
      if (!IsOk(WaitFor(*ping, i))) return;
      EXPECT_TRUE(IsOk(pong->Signal(i)));
    }
  });
  for (uint64_t i = 1; i <= kRounds; ++i) {
    ASSERT_TRUE(IsOk(ping->Signal(i)));
    ASSERT_TRUE(IsOk(WaitFor(*pong, i)));
    EXPECT_EQ(ValueOf(*pong), i) << "pong ran ahead of ping";
  }
  partner.join();
}

TEST_P(SemaphoreThreadTest, WaitOnTheSameValueMultipleTimes) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  std::thread signaler([&] { EXPECT_TRUE(IsOk(semaphore->Signal(1))); });
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(IsOk(WaitFor(*semaphore, 1)));
  signaler.join();
  EXPECT_TRUE(IsOk(semaphore->Wait(1, 0)));
}

TEST_P(SemaphoreThreadTest, WaitForFiniteTime) {
  Ref<hal::Semaphore> a = CreateSemaphore(0), b = CreateSemaphore(0);
  ASSERT_TRUE(a && b);
  const SemaphorePoint points[2] = {{a.get(), 1}, {b.get(), 1}};
  // Timeouts leave values alone and report DEADLINE_EXCEEDED through every wait entry point.
  EXPECT_TRUE(IsError(a->Wait(1, 2'000'000), StatusCode::kDeadlineExceeded));
  EXPECT_TRUE(IsError(hal::WaitSemaphores(WaitMode::kAll, points, 2'000'000), StatusCode::kDeadlineExceeded));
  EXPECT_TRUE(IsError(hal::WaitSemaphores(WaitMode::kAny, points, 2'000'000), StatusCode::kDeadlineExceeded));
  EXPECT_EQ(ValueOf(*a), 0u);
  EXPECT_EQ(ValueOf(*b), 0u);
  std::thread signaler([&] {
    EXPECT_TRUE(IsOk(a->Signal(1)));
    EXPECT_TRUE(IsOk(b->Signal(1)));
  });
  EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAll, points, kWaitTimeoutNs)));
  EXPECT_TRUE(IsOk(a->Wait(1, 1'000'000)));
  signaler.join();
}

TEST_P(SemaphoreThreadTest, SimultaneousMultiWaitAll) {
  Ref<hal::Semaphore> a = CreateSemaphore(0), b = CreateSemaphore(0);
  ASSERT_TRUE(a && b);
  constexpr int kWaiters = 16;
  std::atomic<int> woke{0};
  std::vector<std::thread> waiters;
  for (int i = 0; i < kWaiters; ++i) {
    waiters.emplace_back([&] {
      const SemaphorePoint points[2] = {{a.get(), 1}, {b.get(), 1}};
      EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAll, points, kWaitTimeoutNs)));
      EXPECT_GE(ValueOf(*a), 1u);
      EXPECT_GE(ValueOf(*b), 1u);
      woke.fetch_add(1);
    });
  }
  ASSERT_TRUE(IsOk(a->Signal(1)));
  EXPECT_TRUE(IsOk(b->Signal(1)));
  for (std::thread& waiter : waiters) waiter.join();
  EXPECT_EQ(woke.load(), kWaiters);
}

TEST_P(SemaphoreThreadTest, WaitThenFail) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  std::thread waiter([&] {
    EXPECT_TRUE(IsError(WaitFor(*semaphore, 1), StatusCode::kCancelled, "stop"));
  });
  semaphore->Fail(Status(StatusCode::kCancelled, "stop"));
  waiter.join();
}

TEST_P(SemaphoreThreadTest, MultiWaitThenFail) {
  Ref<hal::Semaphore> a = CreateSemaphore(0), b = CreateSemaphore(0);
  ASSERT_TRUE(a && b);
  std::thread waiter([&] {
    const SemaphorePoint points[2] = {{a.get(), 1}, {b.get(), 1}};
    EXPECT_TRUE(IsError(hal::WaitSemaphores(WaitMode::kAll, points, kWaitTimeoutNs), StatusCode::kDataLoss));
  });
  b->Fail(Status(StatusCode::kDataLoss, "b lost"));
  waiter.join();
}

TEST_P(SemaphoreThreadTest, DeviceMultiWaitThenFail) {
  // The same through a fence over semaphores a device queue is about to signal.
  Ref<hal::Semaphore> a = CreateSemaphore(0), b = CreateSemaphore(0), gate = CreateSemaphore(0);
  ASSERT_TRUE(a && b && gate);
  SemaphorePoint wait{gate.get(), 1}, signal_a{a.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueBarrier(hal::kQueueAffinityAny, {&wait, 1}, {&signal_a, 1})));
  Ref<hal::Fence> fence = hal::Fence::Create();
  ASSERT_TRUE(IsOk(fence->Insert(a, 1)));
  ASSERT_TRUE(IsOk(fence->Insert(b, 1)));
  std::thread waiter([&] {
    EXPECT_TRUE(IsError(fence->Wait(WaitMode::kAll, kWaitTimeoutNs), StatusCode::kAborted));
  });
  gate->Fail(Status(StatusCode::kAborted, "gate failed"));
  waiter.join();
  EXPECT_TRUE(IsError(a->Query().status(), StatusCode::kAborted)) << "the queue propagates the failure";
}

TEST_P(SemaphoreThreadTest, ManyWaitersOneSignaler) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  constexpr int kWaiters = 32;
  std::vector<std::thread> waiters;
  for (int i = 0; i < kWaiters; ++i) {
    waiters.emplace_back([&, target = uint64_t(i % 8) + 1] {
      for (int repeat = 0; repeat < 3; ++repeat) {
        EXPECT_TRUE(IsOk(WaitFor(*semaphore, target)));
        EXPECT_GE(ValueOf(*semaphore), target);
      }
    });
  }
  for (uint64_t value = 1; value <= 8; ++value) ASSERT_TRUE(IsOk(semaphore->Signal(value)));
  for (std::thread& waiter : waiters) waiter.join();
}

TEST_P(SemaphoreThreadTest, ConcurrentSignalsStayMonotonic) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  constexpr int kSignalers = 8;
  constexpr uint64_t kSteps = 500;
  std::atomic<bool> stop{false};
  std::thread observer([&] {
    uint64_t last = 0;
    while (!stop.load()) {
      const uint64_t now = ValueOf(*semaphore);
      EXPECT_GE(now, last) << "the timeline moved backwards";
      last = now;
    }
  });
  std::vector<std::thread> signalers;
  for (int t = 0; t < kSignalers; ++t) {
    signalers.emplace_back([&, t] {
      for (uint64_t step = 1; step <= kSteps; ++step) {
        const Status status = semaphore->Signal(step * kSignalers + t);
        // Racing signalers may lose: only "not increasing" is an acceptable error.
        if (!status.ok()) {
          EXPECT_TRUE(IsError(status, StatusCode::kOutOfRange));
        }
      }
    });
  }
  for (std::thread& signaler : signalers) signaler.join();
  stop = true;
  observer.join();
  EXPECT_GE(ValueOf(*semaphore), kSteps * kSignalers);
  EXPECT_LE(ValueOf(*semaphore), kSteps * kSignalers + kSignalers - 1);
}

TEST_P(SemaphoreThreadTest, ConcurrentNotifyCancelAndSignal) {
  // Timepoints registered and cancelled from several threads while another signals: every
  // timepoint runs exactly once unless it was successfully cancelled, never both.
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  constexpr int kThreads = 8;
  constexpr int kPerThread = 300;
  constexpr uint64_t kFinal = 64;
  std::atomic<int> ran{0}, cancelled{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const uint64_t value = uint64_t(i + t) % kFinal + 1;
        hal::Semaphore::TimepointId id = semaphore->NotifyAt(value, [&](Status status) {
          EXPECT_TRUE(IsOk(status));
          ran.fetch_add(1);
        });
        if (i % 3 == 0 && id != 0 && semaphore->CancelNotify(id)) cancelled.fetch_add(1);
      }
    });
  }
  for (uint64_t value = 1; value <= kFinal; ++value) ASSERT_TRUE(IsOk(semaphore->Signal(value)));
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(ran.load() + cancelled.load(), kThreads * kPerThread);
}

TEST_P(SemaphoreThreadTest, FailWakesEveryKindOfWaiter) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0), other = CreateSemaphore(0);
  ASSERT_TRUE(semaphore && other);
  constexpr int kEach = 8;
  std::atomic<int> callbacks{0};
  for (int i = 0; i < kEach; ++i) {
    semaphore->NotifyAt(uint64_t(i) + 1, [&](Status status) {
      EXPECT_TRUE(IsError(status, StatusCode::kUnavailable));
      callbacks.fetch_add(1);
    });
  }
  std::vector<std::thread> threads;
  for (int i = 0; i < kEach; ++i) {
    threads.emplace_back([&] { EXPECT_TRUE(IsError(WaitFor(*semaphore, 1), StatusCode::kUnavailable)); });
    threads.emplace_back([&] {
      const SemaphorePoint points[2] = {{other.get(), 1}, {semaphore.get(), 1}};
      EXPECT_TRUE(IsError(hal::WaitSemaphores(WaitMode::kAny, points, kWaitTimeoutNs), StatusCode::kUnavailable));
    });
  }
  semaphore->Fail(Status(StatusCode::kUnavailable, "gone"));
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(callbacks.load(), kEach);
}

INSTANTIATE_TEST_SUITE_P(Cts, SemaphoreThreadTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
