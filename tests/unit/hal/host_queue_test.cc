// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// utils::HostQueue: ordering by semaphores without blocking the submitter, failure propagation,
// destruction with waiting and running work, and RunInline's loop for deep chains. Every case runs
// with the inline executor (local-sync) and with a small thread pool (local-task style).
#include "hal/utils/host_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "hal/utils/host_semaphore.h"
#include "test_util.h"

namespace iree_rt::hal::utils {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using testing::IsError;
using testing::IsOk;

constexpr int64_t kTimeoutNs = 30'000'000'000;

Ref<Semaphore> MakeSemaphore(uint64_t value = 0) { return base::MakeRef<HostSemaphore>(value); }

// A fixed pool of workers draining a FIFO; joins them (after draining) on destruction.
class ThreadPool {
 public:
  explicit ThreadPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { Work(); });
  }
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }
  void Post(std::function<void()> closure) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(closure));
    }
    cv_.notify_one();
  }

 private:
  void Work() {
    for (;;) {
      std::function<void()> closure;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        closure = std::move(queue_.front());
        queue_.pop_front();
      }
      closure();
    }
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

enum class ExecutorKind { kInline, kThreads };
void PrintTo(ExecutorKind kind, std::ostream* os) { *os << (kind == ExecutorKind::kInline ? "inline" : "threads"); }

class HostQueueTest : public ::testing::TestWithParam<ExecutorKind> {
 protected:
  void SetUp() override {
    if (GetParam() == ExecutorKind::kThreads) pool_ = std::make_unique<ThreadPool>(3);
    queue_ = std::make_unique<HostQueue>(MakeExecutor());
  }
  void TearDown() override {
    queue_.reset();  // before the pool it runs on
    pool_.reset();
  }

  HostQueue::Executor MakeExecutor() {
    if (pool_) return [pool = pool_.get()](std::function<void()> closure) { pool->Post(std::move(closure)); };
    return [](std::function<void()> closure) { HostQueue::RunInline(std::move(closure)); };
  }

  void Submit(std::vector<SemaphorePoint> wait, std::vector<SemaphorePoint> signal, HostQueue::Work work) {
    queue_->Submit(wait, signal, std::move(work));
  }

  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<HostQueue> queue_;
};

TEST_P(HostQueueTest, RunsAtOnceWithoutWaits) {
  Ref<Semaphore> done = MakeSemaphore();
  std::atomic<int> ran{0};
  Submit({}, {{done.get(), 1}}, [&] {
    ran.fetch_add(1);
    return Status();
  });
  ASSERT_TRUE(IsOk(done->Wait(1, kTimeoutNs)));
  EXPECT_EQ(ran.load(), 1);
  if (GetParam() == ExecutorKind::kInline) {
    EXPECT_EQ(done->Query().value(), 1u) << "inline work runs in Submit";
  }
}

TEST_P(HostQueueTest, SubmitDoesNotBlockOnAnUnmetWait) {
  Ref<Semaphore> gate = MakeSemaphore(), done = MakeSemaphore();
  std::atomic<int> ran{0};
  Submit({{gate.get(), 1}}, {{done.get(), 1}}, [&] {
    ran.fetch_add(1);
    return Status();
  });
  EXPECT_EQ(ran.load(), 0);
  EXPECT_EQ(done->Query().value(), 0u);
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  ASSERT_TRUE(IsOk(done->Wait(1, kTimeoutNs)));
  EXPECT_EQ(ran.load(), 1);
}

TEST_P(HostQueueTest, OrderedBySemaphores) {
  // Submitted in reverse; each link waits for the previous one's value.
  Ref<Semaphore> timeline = MakeSemaphore();
  std::mutex mutex;
  std::vector<int> order;
  constexpr int kLinks = 50;
  for (int i = kLinks; i >= 1; --i) {
    Submit({{timeline.get(), uint64_t(i) - 1}}, {{timeline.get(), uint64_t(i)}}, [&, i] {
      std::lock_guard<std::mutex> lock(mutex);
      order.push_back(i);
      return Status();
    });
  }
  ASSERT_TRUE(IsOk(timeline->Wait(kLinks, kTimeoutNs)));
  std::vector<int> expected(kLinks);
  for (int i = 0; i < kLinks; ++i) expected[i] = i + 1;
  std::lock_guard<std::mutex> lock(mutex);
  EXPECT_EQ(order, expected);
}

TEST_P(HostQueueTest, WaitsForEveryWait) {
  Ref<Semaphore> a = MakeSemaphore(), b = MakeSemaphore(), done = MakeSemaphore();
  std::atomic<int> ran{0};
  Submit({{a.get(), 1}, {b.get(), 2}}, {{done.get(), 1}}, [&] {
    ran.fetch_add(1);
    return Status();
  });
  ASSERT_TRUE(IsOk(a->Signal(1)));
  ASSERT_TRUE(IsOk(b->Signal(1)));
  EXPECT_EQ(ran.load(), 0);
  ASSERT_TRUE(IsOk(b->Signal(2)));
  ASSERT_TRUE(IsOk(done->Wait(1, kTimeoutNs)));
  EXPECT_EQ(ran.load(), 1);
}

TEST_P(HostQueueTest, WorkErrorFailsEverySignal) {
  Ref<Semaphore> a = MakeSemaphore(), b = MakeSemaphore(5);
  Submit({}, {{a.get(), 1}, {b.get(), 6}}, [] { return Status(StatusCode::kDataLoss, "work failed"); });
  EXPECT_TRUE(IsError(a->Wait(1, kTimeoutNs), StatusCode::kDataLoss, "work failed"));
  EXPECT_TRUE(IsError(b->Wait(6, kTimeoutNs), StatusCode::kDataLoss));
}

TEST_P(HostQueueTest, FailedWaitFailsSignalsWithItsStatusAndSkipsTheWork) {
  Ref<Semaphore> ok_wait = MakeSemaphore(), bad_wait = MakeSemaphore(), done = MakeSemaphore();
  std::atomic<int> ran{0};
  Submit({{ok_wait.get(), 1}, {bad_wait.get(), 1}}, {{done.get(), 1}}, [&] {
    ran.fetch_add(1);
    return Status();
  });
  bad_wait->Fail(Status(StatusCode::kPermissionDenied, "upstream"));
  EXPECT_TRUE(IsError(done->Wait(1, kTimeoutNs), StatusCode::kPermissionDenied, "upstream"));
  ASSERT_TRUE(IsOk(ok_wait->Signal(1)));  // the remaining wait is met later: nothing more happens
  EXPECT_EQ(ran.load(), 0);
  EXPECT_TRUE(IsError(done->Query().status(), StatusCode::kPermissionDenied));
}

TEST_P(HostQueueTest, AlreadyFailedWaitFailsAtSubmission) {
  Ref<Semaphore> wait = MakeSemaphore(), done = MakeSemaphore();
  wait->Fail(Status(StatusCode::kAborted, "failed before"));
  std::atomic<int> ran{0};
  Submit({{wait.get(), 1}}, {{done.get(), 1}}, [&] {
    ran.fetch_add(1);
    return Status();
  });
  EXPECT_TRUE(IsError(done->Wait(1, kTimeoutNs), StatusCode::kAborted));
  EXPECT_EQ(ran.load(), 0);
}

TEST_P(HostQueueTest, SignalsAlreadyPassedOrFailedAreLeftAlone) {
  Ref<Semaphore> passed = MakeSemaphore(10), failed = MakeSemaphore(), fresh = MakeSemaphore();
  failed->Fail(Status(StatusCode::kUnavailable, "someone else's failure"));
  Submit({}, {{passed.get(), 3}, {failed.get(), 1}, {fresh.get(), 1}}, [] { return Status(); });
  ASSERT_TRUE(IsOk(fresh->Wait(1, kTimeoutNs)));
  EXPECT_EQ(passed->Query().value(), 10u);
  EXPECT_TRUE(IsError(failed->Query().status(), StatusCode::kUnavailable, "someone else's"));
}

TEST_P(HostQueueTest, WorkIsReleasedBeforeSignaling) {
  Ref<Semaphore> done = MakeSemaphore();
  auto token = std::make_shared<int>(1);
  std::weak_ptr<int> watch = token;
  Submit({}, {{done.get(), 1}}, [token = std::move(token)] { return Status(); });
  ASSERT_TRUE(IsOk(done->Wait(1, kTimeoutNs)));
  EXPECT_TRUE(watch.expired()) << "resources captured by the work outlived its signal";
}

TEST_P(HostQueueTest, DestructionCancelsWaitingWork) {
  Ref<Semaphore> gate = MakeSemaphore(), done = MakeSemaphore();
  std::atomic<int> ran{0};
  auto token = std::make_shared<int>(1);
  std::weak_ptr<int> watch = token;
  Submit({{gate.get(), 1}}, {{done.get(), 1}}, [&, token = std::move(token)] {
    ran.fetch_add(1);
    return Status();
  });
  queue_.reset();
  EXPECT_TRUE(IsError(done->Query().status(), StatusCode::kCancelled));
  EXPECT_TRUE(watch.expired()) << "cancelled work must be released";
  ASSERT_TRUE(IsOk(gate->Signal(1)));  // must not run (or touch the destroyed queue)
  EXPECT_EQ(ran.load(), 0);
}

TEST_P(HostQueueTest, DestructionCancelsChainsOfWaitingWork) {
  Ref<Semaphore> gate = MakeSemaphore(), middle = MakeSemaphore(), last = MakeSemaphore();
  Submit({{gate.get(), 1}}, {{middle.get(), 1}}, [] { return Status(); });
  Submit({{middle.get(), 1}}, {{last.get(), 1}}, [] { return Status(); });
  queue_.reset();
  EXPECT_TRUE(IsError(middle->Query().status(), StatusCode::kCancelled));
  EXPECT_TRUE(IsError(last->Query().status(), StatusCode::kCancelled));
}

TEST_P(HostQueueTest, DestructionRacingWithSignals) {
  // The last wait of an operation is met on another thread while the queue is destroyed: the
  // operation either runs or is cancelled, exactly once, and nothing touches the dead queue.
  for (int round = 0; round < 200; ++round) {
    if (!queue_) queue_ = std::make_unique<HostQueue>(MakeExecutor());
    Ref<Semaphore> gate = MakeSemaphore(), done = MakeSemaphore();
    std::atomic<int> ran{0};
    Submit({{gate.get(), 1}}, {{done.get(), 1}}, [&] {
      ran.fetch_add(1);
      return Status();
    });
    std::thread signaler([&] { EXPECT_TRUE(IsOk(gate->Signal(1))); });
    queue_.reset();
    signaler.join();
    base::Status outcome = done->Wait(1, kTimeoutNs);
    if (outcome.ok()) {
      EXPECT_EQ(ran.load(), 1);
    } else {
      EXPECT_TRUE(IsError(outcome, StatusCode::kCancelled));
      EXPECT_EQ(ran.load(), 0);
    }
  }
}

TEST_P(HostQueueTest, ConcurrentSubmitters) {
  constexpr int kThreads = 6, kEach = 100;
  std::vector<Ref<Semaphore>> timelines;
  for (int t = 0; t < kThreads; ++t) timelines.push_back(MakeSemaphore());
  std::atomic<int> ran{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Semaphore* timeline = timelines[t].get();
      for (int i = 0; i < kEach; ++i) {
        // Also wait on the neighbour's timeline: cross-thread dependencies.
        Semaphore* other = timelines[(t + 1) % kThreads].get();
        const SemaphorePoint wait[2] = {{timeline, uint64_t(i)}, {other, uint64_t(i / 2)}};
        const SemaphorePoint signal[1] = {{timeline, uint64_t(i) + 1}};
        queue_->Submit(wait, signal, [&] {
          ran.fetch_add(1);
          return Status();
        });
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const Ref<Semaphore>& timeline : timelines) ASSERT_TRUE(IsOk(timeline->Wait(kEach, kTimeoutNs)));
  EXPECT_EQ(ran.load(), kThreads * kEach);
}

INSTANTIATE_TEST_SUITE_P(Executors, HostQueueTest, ::testing::Values(ExecutorKind::kInline, ExecutorKind::kThreads),
                         [](const ::testing::TestParamInfo<ExecutorKind>& info) {
                           return info.param == ExecutorKind::kInline ? "Inline" : "Threads";
                         });

TEST(HostQueueThreadsTest, DestructionWaitsForRunningWork) {
  ThreadPool pool(2);
  auto queue = std::make_unique<HostQueue>([&pool](std::function<void()> closure) { pool.Post(std::move(closure)); });
  Ref<Semaphore> started = MakeSemaphore(), release = MakeSemaphore(), done = MakeSemaphore();
  std::atomic<bool> finished{false};
  const SemaphorePoint signal{done.get(), 1};
  queue->Submit({}, {&signal, 1}, [&] {
    EXPECT_TRUE(IsOk(started->Signal(1)));
    EXPECT_TRUE(IsOk(release->Wait(1, kTimeoutNs)));
    finished = true;
    return Status();
  });
  ASSERT_TRUE(IsOk(started->Wait(1, kTimeoutNs)));
  std::thread destroyer([&] {
    queue.reset();
    EXPECT_TRUE(finished) << "the queue was destroyed while its work was still running";
  });
  ASSERT_TRUE(IsOk(release->Signal(1)));
  destroyer.join();
  EXPECT_TRUE(IsOk(done->Query()));
}

// ---------------------------------------------------------------------------------------------
// RunInline

TEST(RunInlineTest, NestedClosuresRunAfterTheCurrentOneInFifoOrder) {
  std::vector<int> order;
  HostQueue::RunInline([&] {
    order.push_back(1);
    HostQueue::RunInline([&] {
      order.push_back(3);
      HostQueue::RunInline([&] { order.push_back(5); });
      order.push_back(4);
    });
    HostQueue::RunInline([&] { order.push_back(6); });
    order.push_back(2);
  });
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 4, 6, 5}));
  // Outside any RunInline, a closure runs at once.
  HostQueue::RunInline([&] { order.push_back(7); });
  EXPECT_EQ(order.back(), 7);
}

TEST(RunInlineTest, DeepChainOfWaitsRunsWithoutRecursion) {
  // 100k operations each waiting for the previous one's signal. Recursing per link (signal →
  // callback → run → signal ...) would need ~100k nested frames and overflow the stack.
  constexpr uint64_t kLinks = 100'000;
  HostQueue queue([](std::function<void()> closure) { HostQueue::RunInline(std::move(closure)); });
  Ref<Semaphore> timeline = MakeSemaphore();
  uint64_t ran = 0;
  for (uint64_t i = 1; i <= kLinks; ++i) {
    const SemaphorePoint wait{timeline.get(), i}, signal{timeline.get(), i + 1};
    queue.Submit({&wait, 1}, {&signal, 1}, [&ran] {
      ++ran;
      return Status();
    });
  }
  EXPECT_EQ(ran, 0u);
  ASSERT_TRUE(IsOk(timeline->Signal(1)));  // the whole chain runs inside this call
  EXPECT_EQ(ran, kLinks);
  EXPECT_EQ(timeline->Query().value(), kLinks + 1);
}

TEST(RunInlineTest, DeepChainOfSubmissionsFromWorkRunsWithoutRecursion) {
  // Work that submits the next operation (already satisfied) from inside itself.
  constexpr uint64_t kLinks = 100'000;
  HostQueue queue([](std::function<void()> closure) { HostQueue::RunInline(std::move(closure)); });
  Ref<Semaphore> timeline = MakeSemaphore();
  uint64_t ran = 0;
  std::function<Status()> link = [&]() -> Status {
    ++ran;
    if (ran < kLinks) {
      const SemaphorePoint signal{timeline.get(), ran + 1};
      queue.Submit({}, {&signal, 1}, link);
    }
    return Status();
  };
  const SemaphorePoint first{timeline.get(), 1};
  queue.Submit({}, {&first, 1}, link);
  EXPECT_EQ(ran, kLinks);
  EXPECT_EQ(timeline->Query().value(), kLinks);
}

}  // namespace
}  // namespace iree_rt::hal::utils
