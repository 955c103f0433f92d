// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// C ABI tests: semaphores and fences.
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace iree_rt_test {
namespace {

using SemaphoreTest = ApiTest;

TEST_F(SemaphoreTest, SignalsQueriesAndWaits) {
  iree_rt_semaphore_t semaphore = CreateSemaphore(device_, 5);
  uint64_t value = 0;
  ASSERT_TRUE(IsOk(iree_rt_semaphore_query(semaphore, &value)));
  EXPECT_EQ(value, 5u);
  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(semaphore, 6)));
  EXPECT_TRUE(HasCode(iree_rt_semaphore_signal(semaphore, 6), IREE_RT_STATUS_OUT_OF_RANGE));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_wait(semaphore, 6, 0)));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_wait(semaphore, 3, IREE_RT_INFINITE_TIMEOUT)));
  EXPECT_TRUE(HasCode(iree_rt_semaphore_wait(semaphore, 7, 0), IREE_RT_STATUS_DEADLINE_EXCEEDED));
  EXPECT_TRUE(HasCode(iree_rt_semaphore_wait(semaphore, 7, -5), IREE_RT_STATUS_DEADLINE_EXCEEDED));
  EXPECT_TRUE(
      HasCode(iree_rt_semaphore_wait(semaphore, 7, 1000000), IREE_RT_STATUS_DEADLINE_EXCEEDED));
}

TEST_F(SemaphoreTest, WakesAWaiterOnAnotherThread) {
  iree_rt_semaphore_t semaphore = CreateSemaphore(device_);
  iree_rt_status_t result = nullptr;
  std::thread waiter(
      [&] { result = iree_rt_semaphore_wait(semaphore, 10, IREE_RT_INFINITE_TIMEOUT); });
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(semaphore, 10)));
  waiter.join();
  EXPECT_TRUE(IsOk(result));
}

TEST_F(SemaphoreTest, FailureReachesWaitersWithCodeAndMessage) {
  iree_rt_semaphore_t semaphore = CreateSemaphore(device_);
  iree_rt_status_t result = nullptr;
  std::thread waiter(
      [&] { result = iree_rt_semaphore_wait(semaphore, 1, IREE_RT_INFINITE_TIMEOUT); });
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_fail(semaphore, IREE_RT_STATUS_ABORTED, "the sky fell")));
  waiter.join();
  EXPECT_TRUE(HasCode(result, IREE_RT_STATUS_ABORTED, "the sky fell"));

  uint64_t value = 123;
  EXPECT_TRUE(
      HasCode(iree_rt_semaphore_query(semaphore, &value), IREE_RT_STATUS_ABORTED, "the sky fell"));
  EXPECT_EQ(value, 123u);
  EXPECT_TRUE(HasCode(iree_rt_semaphore_wait(semaphore, 0, 0), IREE_RT_STATUS_ABORTED));
  EXPECT_TRUE(HasCode(iree_rt_semaphore_signal(semaphore, 2), IREE_RT_STATUS_FAILED_PRECONDITION));
  // The first failure sticks.
  ASSERT_TRUE(IsOk(iree_rt_semaphore_fail(semaphore, IREE_RT_STATUS_DATA_LOSS, nullptr)));
  EXPECT_TRUE(HasCode(iree_rt_semaphore_query(semaphore, &value), IREE_RT_STATUS_ABORTED));
}

TEST_F(SemaphoreTest, FailNeedsAnErrorCode) {
  iree_rt_semaphore_t semaphore = CreateSemaphore(device_);
  EXPECT_TRUE(IsInvalidArgument(iree_rt_semaphore_fail(semaphore, IREE_RT_STATUS_OK, "x"), "code"));
  EXPECT_TRUE(IsInvalidArgument(
      iree_rt_semaphore_fail(semaphore, static_cast<iree_rt_status_code_t>(19), "x"), "code"));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(semaphore, 1)));  // not failed by the bad calls
}

TEST_F(SemaphoreTest, WaitsOnMany) {
  iree_rt_semaphore_t a = CreateSemaphore(device_);
  iree_rt_semaphore_t b = CreateSemaphore(device_);
  const iree_rt_semaphore_t semaphores[] = {a, b};
  const uint64_t values[] = {1, 1};
  EXPECT_TRUE(IsOk(iree_rt_semaphore_wait_many(nullptr, nullptr, 0, IREE_RT_WAIT_MODE_ALL, 0)));
  EXPECT_TRUE(HasCode(iree_rt_semaphore_wait_many(semaphores, values, 2, IREE_RT_WAIT_MODE_ANY, 0),
                      IREE_RT_STATUS_DEADLINE_EXCEEDED));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(b, 1)));
  EXPECT_TRUE(IsOk(iree_rt_semaphore_wait_many(semaphores, values, 2, IREE_RT_WAIT_MODE_ANY, 0)));
  EXPECT_TRUE(
      HasCode(iree_rt_semaphore_wait_many(semaphores, values, 2, IREE_RT_WAIT_MODE_ALL, 1000),
              IREE_RT_STATUS_DEADLINE_EXCEEDED));
  std::thread signaler([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_TRUE(IsOk(iree_rt_semaphore_signal(a, 1)));
  });
  EXPECT_TRUE(IsOk(iree_rt_semaphore_wait_many(semaphores, values, 2, IREE_RT_WAIT_MODE_ALL,
                                               IREE_RT_INFINITE_TIMEOUT)));
  signaler.join();

  const uint64_t later[] = {2, 2};
  ASSERT_TRUE(IsOk(iree_rt_semaphore_fail(a, IREE_RT_STATUS_CANCELLED, "stop")));
  EXPECT_TRUE(HasCode(iree_rt_semaphore_wait_many(semaphores, later, 2, IREE_RT_WAIT_MODE_ALL,
                                                  IREE_RT_INFINITE_TIMEOUT),
                      IREE_RT_STATUS_CANCELLED, "stop"));
  EXPECT_TRUE(IsInvalidArgument(
      iree_rt_semaphore_wait_many(semaphores, values, 2, static_cast<iree_rt_wait_mode_t>(7), 0),
      "mode"));
  const iree_rt_semaphore_t with_null[] = {a, nullptr};
  EXPECT_TRUE(
      IsInvalidArgument(iree_rt_semaphore_wait_many(with_null, values, 2, IREE_RT_WAIT_MODE_ALL, 0),
                        "semaphores[1]"));
}

using FenceTest = ApiTest;

size_t FenceSize(iree_rt_fence_t fence) {
  size_t size = 0;
  EXPECT_TRUE(IsOk(iree_rt_fence_size(fence, &size)));
  return size;
}

TEST_F(FenceTest, EmptyFenceIsReached) {
  iree_rt_fence_t fence = CreateFence();
  EXPECT_EQ(FenceSize(fence), 0u);
  EXPECT_TRUE(IsOk(iree_rt_fence_query(fence)));
  EXPECT_TRUE(IsOk(iree_rt_fence_wait(fence, 0)));
  EXPECT_TRUE(IsOk(iree_rt_fence_wait_any(fence, 0)));
  EXPECT_TRUE(IsOk(iree_rt_fence_signal(fence)));
}

TEST_F(FenceTest, InsertsQueriesAndWaits) {
  iree_rt_semaphore_t a = CreateSemaphore(device_);
  iree_rt_semaphore_t b = CreateSemaphore(device_);
  iree_rt_fence_t fence = CreateFence(a, 1);
  ASSERT_TRUE(IsOk(iree_rt_fence_insert(fence, a, 3)));
  ASSERT_TRUE(IsOk(iree_rt_fence_insert(fence, a, 2)));  // the larger value is kept
  ASSERT_TRUE(IsOk(iree_rt_fence_insert(fence, b, 1)));
  EXPECT_EQ(FenceSize(fence), 2u);
  EXPECT_TRUE(HasCode(iree_rt_fence_query(fence), IREE_RT_STATUS_DEFERRED));
  EXPECT_TRUE(HasCode(iree_rt_fence_wait(fence, 0), IREE_RT_STATUS_DEADLINE_EXCEEDED));
  EXPECT_TRUE(HasCode(iree_rt_fence_wait_any(fence, 0), IREE_RT_STATUS_DEADLINE_EXCEEDED));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(b, 1)));
  EXPECT_TRUE(IsOk(iree_rt_fence_wait_any(fence, 0)));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(a, 2)));
  EXPECT_TRUE(HasCode(iree_rt_fence_query(fence), IREE_RT_STATUS_DEFERRED));  // a must reach 3
  std::thread signaler([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_TRUE(IsOk(iree_rt_semaphore_signal(a, 3)));
  });
  EXPECT_TRUE(IsOk(iree_rt_fence_wait(fence, IREE_RT_INFINITE_TIMEOUT)));
  signaler.join();
  EXPECT_TRUE(IsOk(iree_rt_fence_query(fence)));
}

TEST_F(FenceTest, JoinsFences) {
  iree_rt_semaphore_t a = CreateSemaphore(device_);
  iree_rt_semaphore_t b = CreateSemaphore(device_);
  iree_rt_fence_t first = CreateFence(a, 1);
  iree_rt_fence_t second = CreateFence(a, 4);
  ASSERT_TRUE(IsOk(iree_rt_fence_insert(second, b, 2)));
  const iree_rt_fence_t parts[] = {first, nullptr, second};
  iree_rt_fence_t joined = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_fence_join(parts, 3, &joined)));
  Keep(joined, iree_rt_fence_release);
  EXPECT_EQ(FenceSize(joined), 2u);
  ASSERT_TRUE(IsOk(iree_rt_fence_signal(joined)));  // a -> 4, b -> 2
  uint64_t value = 0;
  ASSERT_TRUE(IsOk(iree_rt_semaphore_query(a, &value)));
  EXPECT_EQ(value, 4u);
  ASSERT_TRUE(IsOk(iree_rt_semaphore_query(b, &value)));
  EXPECT_EQ(value, 2u);
  EXPECT_TRUE(IsOk(iree_rt_fence_query(first)));
  EXPECT_TRUE(IsOk(iree_rt_fence_signal(first)));  // already past: skipped
  iree_rt_fence_t empty = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_fence_join(nullptr, 0, &empty)));
  EXPECT_EQ(FenceSize(empty), 0u);
  iree_rt_fence_release(empty);
}

TEST_F(FenceTest, FailsItsSemaphores) {
  iree_rt_semaphore_t a = CreateSemaphore(device_);
  iree_rt_semaphore_t b = CreateSemaphore(device_);
  iree_rt_fence_t fence = CreateFence(a, 1);
  ASSERT_TRUE(IsOk(iree_rt_fence_insert(fence, b, 1)));
  EXPECT_TRUE(IsInvalidArgument(iree_rt_fence_fail(fence, IREE_RT_STATUS_OK, "no"), "code"));
  ASSERT_TRUE(IsOk(iree_rt_fence_fail(fence, IREE_RT_STATUS_DATA_LOSS, "disk on fire")));
  EXPECT_TRUE(HasCode(iree_rt_fence_query(fence), IREE_RT_STATUS_DATA_LOSS, "disk on fire"));
  EXPECT_TRUE(HasCode(iree_rt_fence_wait(fence, IREE_RT_INFINITE_TIMEOUT), IREE_RT_STATUS_DATA_LOSS,
                      "disk on fire"));
  uint64_t value = 0;
  EXPECT_TRUE(
      HasCode(iree_rt_semaphore_query(b, &value), IREE_RT_STATUS_DATA_LOSS, "disk on fire"));
  EXPECT_TRUE(HasCode(iree_rt_fence_signal(fence), IREE_RT_STATUS_DATA_LOSS));
}

TEST_F(FenceTest, ConcurrentInsertsAndWaitsAreSafe) {
  constexpr int kSemaphores = 8;
  std::vector<iree_rt_semaphore_t> semaphores;
  for (int i = 0; i < kSemaphores; ++i) semaphores.push_back(CreateSemaphore(device_));
  iree_rt_fence_t fence = CreateFence();
  std::vector<std::thread> threads;
  for (int i = 0; i < kSemaphores; ++i) {
    threads.emplace_back([&, i] {
      for (uint64_t value = 1; value <= 50; ++value) {
        EXPECT_TRUE(IsOk(iree_rt_fence_insert(fence, semaphores[i], value)));
        iree_rt_status_free(iree_rt_fence_query(fence));
        size_t size = 0;
        EXPECT_TRUE(IsOk(iree_rt_fence_size(fence, &size)));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(FenceSize(fence), static_cast<size_t>(kSemaphores));
  ASSERT_TRUE(IsOk(iree_rt_fence_signal(fence)));
  uint64_t value = 0;
  ASSERT_TRUE(IsOk(iree_rt_semaphore_query(semaphores[3], &value)));
  EXPECT_EQ(value, 50u);
}

// What iree_rt_fence_notify delivered: how often, with what, on which thread.
struct Notification {
  std::atomic<int> calls{0};
  std::mutex mutex;
  iree_rt_status_code_t code = IREE_RT_STATUS_UNKNOWN;
  std::string message;
  std::thread::id thread;

  static void Callback(void* user_data, iree_rt_status_code_t code, const char* message) {
    auto* self = static_cast<Notification*>(user_data);
    {
      std::lock_guard<std::mutex> lock(self->mutex);
      self->code = code;
      self->message = message;
      self->thread = std::this_thread::get_id();
    }
    self->calls.fetch_add(1);
  }
  iree_rt_status_code_t Code() {
    std::lock_guard<std::mutex> lock(mutex);
    return code;
  }
};

TEST_F(FenceTest, NotifyOnAnEmptyFenceRunsAtOnce) {
  Notification n;
  ASSERT_TRUE(IsOk(iree_rt_fence_notify(CreateFence(), Notification::Callback, &n)));
  EXPECT_EQ(n.calls.load(), 1);
  EXPECT_EQ(n.Code(), IREE_RT_STATUS_OK);
  EXPECT_EQ(n.message, "");
  EXPECT_EQ(n.thread, std::this_thread::get_id());
}

TEST_F(FenceTest, NotifyReachedBeforeRegistrationRunsAtOnce) {
  iree_rt_semaphore_t a = CreateSemaphore(device_);
  iree_rt_fence_t fence = CreateFence(a, 2);
  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(a, 3)));
  Notification n;
  ASSERT_TRUE(IsOk(iree_rt_fence_notify(fence, Notification::Callback, &n)));
  EXPECT_EQ(n.calls.load(), 1);
  EXPECT_EQ(n.Code(), IREE_RT_STATUS_OK);
}

TEST_F(FenceTest, NotifyWaitsForEveryTimepointAndRunsOnce) {
  iree_rt_semaphore_t a = CreateSemaphore(device_);
  iree_rt_semaphore_t b = CreateSemaphore(device_);
  iree_rt_fence_t fence = CreateFence(a, 2);
  ASSERT_TRUE(IsOk(iree_rt_fence_insert(fence, b, 1)));
  Notification n;
  ASSERT_TRUE(IsOk(iree_rt_fence_notify(fence, Notification::Callback, &n)));
  EXPECT_EQ(n.calls.load(), 0);
  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(a, 1)));  // below the timepoint
  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(b, 1)));
  EXPECT_EQ(n.calls.load(), 0);
  // The deciding signal comes from another thread, and the callback runs there.
  std::thread::id signaller;
  std::thread thread([&] {
    signaller = std::this_thread::get_id();
    EXPECT_TRUE(IsOk(iree_rt_semaphore_signal(a, 2)));
  });
  thread.join();
  EXPECT_EQ(n.calls.load(), 1);
  EXPECT_EQ(n.Code(), IREE_RT_STATUS_OK);
  EXPECT_EQ(n.thread, signaller);
  // Later signals and failures do not call it again.
  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(a, 5)));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_fail(b, IREE_RT_STATUS_ABORTED, "late")));
  EXPECT_EQ(n.calls.load(), 1);
  EXPECT_EQ(n.Code(), IREE_RT_STATUS_OK);
}

TEST_F(FenceTest, NotifyDeliversTheFirstFailureOnce) {
  iree_rt_semaphore_t a = CreateSemaphore(device_);
  iree_rt_semaphore_t b = CreateSemaphore(device_);
  iree_rt_fence_t fence = CreateFence(a, 1);
  ASSERT_TRUE(IsOk(iree_rt_fence_insert(fence, b, 1)));
  Notification n;
  ASSERT_TRUE(IsOk(iree_rt_fence_notify(fence, Notification::Callback, &n)));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_fail(b, IREE_RT_STATUS_DATA_LOSS, "disk on fire")));
  EXPECT_EQ(n.calls.load(), 1);
  EXPECT_EQ(n.Code(), IREE_RT_STATUS_DATA_LOSS);
  EXPECT_NE(n.message.find("disk on fire"), std::string::npos) << n.message;
  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(a, 1)));  // the other timepoint is reached later
  EXPECT_EQ(n.calls.load(), 1);

  // Registered after the failure: at once, with the failure.
  Notification late;
  ASSERT_TRUE(IsOk(iree_rt_fence_notify(fence, Notification::Callback, &late)));
  EXPECT_EQ(late.calls.load(), 1);
  EXPECT_EQ(late.Code(), IREE_RT_STATUS_DATA_LOSS);

  ASSERT_TRUE(IsOk(iree_rt_semaphore_fail(a, IREE_RT_STATUS_ABORTED, "again")));
  EXPECT_EQ(n.calls.load(), 1);
  EXPECT_EQ(n.Code(), IREE_RT_STATUS_DATA_LOSS);
  EXPECT_EQ(late.calls.load(), 1);
}

TEST_F(FenceTest, NotifyGetsCancelledWhenTheSemaphoreDies) {
  iree_rt_semaphore_t a = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_semaphore_create(device_, 0, &a)));
  iree_rt_fence_t fence = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_fence_create(&fence)));
  ASSERT_TRUE(IsOk(iree_rt_fence_insert(fence, a, 1)));
  Notification n;
  ASSERT_TRUE(IsOk(iree_rt_fence_notify(fence, Notification::Callback, &n)));
  iree_rt_semaphore_release(a);
  EXPECT_EQ(n.calls.load(), 0);  // the fence still holds it
  iree_rt_fence_release(fence);
  EXPECT_EQ(n.calls.load(), 1);
  EXPECT_EQ(n.Code(), IREE_RT_STATUS_CANCELLED);
}

TEST_F(FenceTest, NotifyManyFencesWhileSignalling) {
  // 1,000 fences on 4 semaphores at rising values, registered by 4 threads while a fifth signals
  // step by step: each callback runs exactly once, and only once its fence is reached.
  constexpr int kThreads = 4;
  constexpr int kPerThread = 250;
  std::vector<iree_rt_semaphore_t> semaphores;
  for (int i = 0; i < kThreads; ++i) semaphores.push_back(CreateSemaphore(device_));
  std::vector<Notification> notifications(kThreads * kPerThread);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        iree_rt_fence_t fence = nullptr;
        EXPECT_TRUE(IsOk(iree_rt_fence_create(&fence)));
        EXPECT_TRUE(IsOk(iree_rt_fence_insert(fence, semaphores[t], i + 1)));
        EXPECT_TRUE(IsOk(iree_rt_fence_insert(fence, semaphores[(t + 1) % kThreads], i + 1)));
        EXPECT_TRUE(IsOk(iree_rt_fence_notify(fence, Notification::Callback,
                                              &notifications[t * kPerThread + i])));
        iree_rt_fence_release(fence);  // the semaphores live on (Keep)
      }
    });
  }
  threads.emplace_back([&] {
    for (int value = 1; value <= kPerThread; ++value) {
      for (iree_rt_semaphore_t s : semaphores) EXPECT_TRUE(IsOk(iree_rt_semaphore_signal(s, value)));
    }
  });
  for (std::thread& thread : threads) thread.join();
  for (size_t i = 0; i < notifications.size(); ++i) {
    ASSERT_EQ(notifications[i].calls.load(), 1) << "fence " << i;
    ASSERT_EQ(notifications[i].Code(), IREE_RT_STATUS_OK) << "fence " << i;
  }
}

}  // namespace
}  // namespace iree_rt_test
