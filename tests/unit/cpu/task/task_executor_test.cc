// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TaskExecutor lifecycle, options and Post. ParallelFor is covered in parallel_for_test.cc.
#include "drivers/cpu/task/task_executor.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <latch>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "drivers/cpu/task/flush_denormals.h"

namespace iree_rt::drivers::cpu {
namespace {

using base::Ref;

Ref<TaskExecutor> MakeExecutor(uint32_t worker_count, size_t stack_size = 256 * 1024,
                               bool flush_denormals = true) {
  TaskExecutor::Options options;
  options.worker_count = worker_count;
  options.worker_stack_size = stack_size;
  options.flush_denormals = flush_denormals;
  auto executor = TaskExecutor::Create(options);
  EXPECT_TRUE(executor.ok()) << executor.status().ToString();
  return executor.ok() ? std::move(executor).value() : nullptr;
}

// Runs |fn| on a worker of |executor| and waits for it.
template <typename Fn>
void RunOnWorker(TaskExecutor* executor, Fn fn) {
  std::latch done(1);
  executor->Post([&] {
    fn();
    done.count_down();
  });
  done.wait();
}

float DenormalProduct() {
  volatile float a = 1e-30f;
  volatile float b = 1e-10f;
  return a * b;  // 1e-40: denormal unless flushed
}

// Fills and sums |kBytes| of locals so the frame really occupies that much stack.
template <size_t kBytes>
__attribute__((noinline)) uint32_t TouchStack() {
  volatile uint8_t buffer[kBytes];
  for (size_t i = 0; i < kBytes; ++i) buffer[i] = static_cast<uint8_t>(i);
  uint32_t sum = 0;
  for (size_t i = 0; i < kBytes; i += 4096) sum += buffer[i];
  return sum + buffer[kBytes - 1];
}

TEST(TaskExecutorTest, HonoursWorkerCount) {
  for (uint32_t count : {1u, 3u, 8u}) {
    // Post one closure per worker that waits for all the others: only |count| distinct
    // threads can get through, which proves the pool has that many workers. The latch outlives
    // the executor (declared first, destroyed after its workers are joined): a worker may still
    // be inside arrive_and_wait, reading the latch, when this thread's wait returns.
    std::latch all_running(count);
    std::mutex mu;
    std::set<uint32_t> indices;
    Ref<TaskExecutor> executor = MakeExecutor(count);
    ASSERT_TRUE(executor);
    EXPECT_EQ(executor->worker_count(), count);
    for (uint32_t i = 0; i < count; ++i) {
      executor->Post([&] {
        std::optional<uint32_t> index = executor->CurrentWorkerIndex();
        {
          std::lock_guard<std::mutex> lock(mu);
          if (index) indices.insert(*index);
        }
        all_running.arrive_and_wait();
      });
    }
    all_running.wait();
    std::lock_guard<std::mutex> lock(mu);
    EXPECT_EQ(indices.size(), count);
    EXPECT_LT(*indices.rbegin(), count);
  }
}

TEST(TaskExecutorTest, ZeroWorkersMeansOnePerCore) {
  Ref<TaskExecutor> executor = MakeExecutor(0);
  ASSERT_TRUE(executor);
  EXPECT_EQ(executor->worker_count(), std::max(1u, std::thread::hardware_concurrency()));
}

TEST(TaskExecutorTest, RejectsAbsurdWorkerCount) {
  TaskExecutor::Options options;
  options.worker_count = TaskExecutor::kMaxWorkerCount + 1;
  auto executor = TaskExecutor::Create(options);
  EXPECT_EQ(executor.status().code(), base::StatusCode::kInvalidArgument);
}

TEST(TaskExecutorTest, CurrentWorkerIndexIsEmptyOffTheWorkers) {
  Ref<TaskExecutor> a = MakeExecutor(2);
  Ref<TaskExecutor> b = MakeExecutor(2);
  EXPECT_FALSE(a->CurrentWorkerIndex().has_value());
  std::optional<uint32_t> on_own, on_other;
  RunOnWorker(a.get(), [&] {
    on_own = a->CurrentWorkerIndex();
    on_other = b->CurrentWorkerIndex();
  });
  ASSERT_TRUE(on_own.has_value());
  EXPECT_LT(*on_own, 2u);
  EXPECT_FALSE(on_other.has_value());
}

TEST(TaskExecutorTest, WorkersAreNamed) {
  Ref<TaskExecutor> executor = MakeExecutor(2);
  std::string name;
  uint32_t index = 0;
  RunOnWorker(executor.get(), [&] {
    char buffer[16] = {};
    pthread_getname_np(pthread_self(), buffer, sizeof(buffer));
    name = buffer;
    index = *executor->CurrentWorkerIndex();
  });
  EXPECT_EQ(name, "iree-rt-w" + std::to_string(index));
}

TEST(TaskExecutorTest, PostRunsOnAWorkerNeverInline) {
  Ref<TaskExecutor> executor = MakeExecutor(2);
  std::thread::id poster = std::this_thread::get_id();
  std::thread::id runner;
  RunOnWorker(executor.get(), [&] { runner = std::this_thread::get_id(); });
  EXPECT_NE(runner, poster);

  // From a worker too: the inner closure must not run inside the outer one.
  static thread_local bool inside_outer = false;
  std::atomic<bool> ran_inline{true};
  std::latch inner_done(1);
  RunOnWorker(executor.get(), [&] {
    inside_outer = true;
    executor->Post([&] {
      ran_inline.store(inside_outer);
      inner_done.count_down();
    });
    inside_outer = false;
  });
  inner_done.wait();
  EXPECT_FALSE(ran_inline.load());
}

TEST(TaskExecutorTest, PostFromManyThreadsAtOnce) {
  constexpr int kThreads = 8;
  constexpr int kPostsPerThread = 500;
  Ref<TaskExecutor> executor = MakeExecutor(4);
  std::atomic<int> ran{0};
  std::latch all_ran(kThreads * kPostsPerThread);
  std::vector<std::thread> posters;
  for (int t = 0; t < kThreads; ++t) {
    posters.emplace_back([&] {
      for (int i = 0; i < kPostsPerThread; ++i) {
        executor->Post([&] {
          ran.fetch_add(1, std::memory_order_relaxed);
          all_ran.count_down();
        });
      }
    });
  }
  for (std::thread& thread : posters) thread.join();
  all_ran.wait();
  EXPECT_EQ(ran.load(), kThreads * kPostsPerThread);
}

TEST(TaskExecutorTest, DestructionRunsAllPendingWork) {
  std::atomic<int> ran{0};
  std::function<void(int)> chain;  // declared first: it must outlive the draining executor
  {
    Ref<TaskExecutor> executor = MakeExecutor(1);
    // Hold the only worker so the rest queues up behind it.
    executor->Post([] { std::this_thread::sleep_for(std::chrono::milliseconds(30)); });
    for (int i = 0; i < 1000; ++i) executor->Post([&] { ran.fetch_add(1); });
    // Work posted while draining (a chain of 100) runs as well.
    TaskExecutor* raw = executor.get();
    chain = [&ran, &chain, raw](int left) {
      ran.fetch_add(1);
      if (left > 1) raw->Post([&chain, left] { chain(left - 1); });
    };
    executor->Post([&chain] { chain(100); });
  }
  EXPECT_EQ(ran.load(), 1100);
}

TEST(TaskExecutorTest, FlushesDenormalsOnWorkers) {
  if (!ScopedFlushDenormals::Supported()) GTEST_SKIP() << "no denormal control on this arch";
  float plain_thread = 0.0f;
  std::thread([&] { plain_thread = DenormalProduct(); }).join();
  EXPECT_NE(plain_thread, 0.0f);

  Ref<TaskExecutor> flushing = MakeExecutor(2);
  float on_worker = 1.0f;
  RunOnWorker(flushing.get(), [&] { on_worker = DenormalProduct(); });
  EXPECT_EQ(on_worker, 0.0f);

  Ref<TaskExecutor> keeping = MakeExecutor(2, 256 * 1024, /*flush_denormals=*/false);
  float on_plain_worker = 0.0f;
  RunOnWorker(keeping.get(), [&] { on_plain_worker = DenormalProduct(); });
  EXPECT_NE(on_plain_worker, 0.0f);
}

TEST(TaskExecutorTest, ClosureCanUse100KiBOfStack) {
  Ref<TaskExecutor> executor = MakeExecutor(2);
  uint32_t sum = 0;
  RunOnWorker(executor.get(), [&] { sum = TouchStack<100 * 1024>(); });
  EXPECT_EQ(sum, TouchStack<100 * 1024>());
}

TEST(TaskExecutorTest, SmallStackRequestsAreRaisedTo128KiB) {
  Ref<TaskExecutor> executor = MakeExecutor(1, /*stack_size=*/16 * 1024);
  size_t stack_size = 0;
  uint32_t sum = 0;
  RunOnWorker(executor.get(), [&] {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstacksize(&attr, &stack_size);
      pthread_attr_destroy(&attr);
    }
    sum = TouchStack<96 * 1024>();  // would overflow a 16 KiB stack
  });
  EXPECT_GE(stack_size, TaskExecutor::kMinWorkerStackSize);
  EXPECT_EQ(sum, TouchStack<96 * 1024>());
}

TEST(TaskExecutorTest, LargeStackRequestIsHonoured) {
  Ref<TaskExecutor> executor = MakeExecutor(1, /*stack_size=*/2 * 1024 * 1024);
  size_t stack_size = 0;
  RunOnWorker(executor.get(), [&] {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstacksize(&attr, &stack_size);
      pthread_attr_destroy(&attr);
    }
  });
  EXPECT_GE(stack_size, size_t{2 * 1024 * 1024});
}

double ProcessCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

TEST(TaskExecutorTest, IdleWorkersSleep) {
  Ref<TaskExecutor> executor = MakeExecutor(4);
  RunOnWorker(executor.get(), [] {});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let spinning end
  double before = ProcessCpuSeconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  double used = ProcessCpuSeconds() - before;
  // Four spinning workers would burn up to 800 ms of CPU time here.
  EXPECT_LT(used, 0.1) << "workers seem to spin while idle";
  // And they still wake up for new work.
  std::atomic<int> ran{0};
  std::latch done(16);
  for (int i = 0; i < 16; ++i) {
    executor->Post([&] {
      ran.fetch_add(1);
      done.count_down();
    });
  }
  done.wait();
  EXPECT_EQ(ran.load(), 16);
}

}  // namespace
}  // namespace iree_rt::drivers::cpu
