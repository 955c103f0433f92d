// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Many threads calling compiled programs through the C ABI at once: one shared context (calls are
// serialized, so its globals lose no update), a context per thread (calls run in parallel and
// each context keeps its own state), asynchronous calls whose fences other threads signal or
// fail (observed by waiting and by iree_rt_fence_notify), and semaphores waited on and signalled from many threads. scripts/test.sh runs these
// again under ThreadSanitizer (label "tsan").
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "stress_fixture.h"

namespace iree_rt_stress {
namespace {

constexpr int kThreads = 8;
constexpr int kIterations = 100;

class ConcurrencyTest : public StressFixture, public ::testing::WithParamInterface<const char*> {
 protected:
  void SetUp() override { Open(GetParam()); }
};

TEST_P(ConcurrencyTest, ManyThreadsShareOneContext) {
  WorkloadContext shared;
  ASSERT_EQ(shared.Create(instance(), hal(), program()), "");
  std::vector<std::vector<int32_t>> counts(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kIterations && errors[t].empty(); ++i) {
        int32_t count = 0;
        float sum = 0;
        errors[t] = shared.MatmulAdd(device(), t * 1000 + i);
        if (errors[t].empty()) errors[t] = shared.Increment(&count);
        if (errors[t].empty()) errors[t] = shared.Accumulate(device(), float(t + 1), &sum);
        counts[t].push_back(count);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) ASSERT_EQ(errors[t], "") << "thread " << t;

  // Every call of increment saw a distinct count: no update of the global was lost.
  std::vector<int32_t> all;
  for (const auto& c : counts) all.insert(all.end(), c.begin(), c.end());
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), size_t{kThreads * kIterations});
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], int32_t(i + 1));
  // The tensor global holds every thread's contributions: Σ_t kIterations·(t + 1).
  float sum = 0;
  ASSERT_EQ(shared.Accumulate(device(), 0.0f, &sum), "");
  EXPECT_EQ(sum, float(kIterations * kThreads * (kThreads + 1) / 2));
}

TEST_P(ConcurrencyTest, EachThreadHasItsOwnContext) {
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      WorkloadContext own;
      errors[t] = own.Create(instance(), hal(), program());
      for (int i = 0; i < kIterations && errors[t].empty(); ++i) {
        int32_t count = 0;
        float sum = 0;
        errors[t] = own.MatmulAdd(device(), t * 1000 + i);
        if (errors[t].empty()) errors[t] = own.Increment(&count);
        if (errors[t].empty() && count != i + 1) {
          errors[t] = "count " + std::to_string(count) + " at call " + std::to_string(i + 1);
        }
        if (errors[t].empty()) errors[t] = own.Accumulate(device(), float(t + 1), &sum);
        if (errors[t].empty() && sum != float((i + 1) * (t + 1))) {
          errors[t] = "sum " + std::to_string(sum) + " at call " + std::to_string(i + 1);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[t], "") << "thread " << t;
}

// Asynchronous calls (async-external) from several threads, each waiting on a semaphore that a
// separate thread signals, or fails, later; the results are read once the signal fence is reached.
TEST_P(ConcurrencyTest, AsyncCallsReleasedAndFailedByOtherThreads) {
  WorkloadContext context;
  ASSERT_EQ(context.Create(instance(), hal(), async_program()), "");
  constexpr int kCallers = 4;
  constexpr int kCalls = 10;
  struct Call {
    Semaphore wait, signal;
    Fence wait_fence, signal_fence;
    MatmulCase inputs;
    ValueList results;
    bool fail = false;
    // iree_rt_fence_notify on the signal fence, registered by the caller right after the call.
    std::atomic<int> notified{0};
    std::atomic<int> notified_code{-1};
  };
  auto on_signal = [](void* user_data, iree_rt_status_code_t code, const char*) {
    auto* call = static_cast<Call*>(user_data);
    call->notified_code.store(code);
    call->notified.fetch_add(1);
  };
  std::vector<Call> calls(kCallers * kCalls);
  for (size_t i = 0; i < calls.size(); ++i) {
    Call& call = calls[i];
    call.fail = i % 7 == 3;
    ASSERT_EQ(Describe(iree_rt_semaphore_create(device(), 0, call.wait.out())), "");
    ASSERT_EQ(Describe(iree_rt_semaphore_create(device(), 0, call.signal.out())), "");
    ASSERT_EQ(Describe(iree_rt_fence_create(call.wait_fence.out())), "");
    ASSERT_EQ(Describe(iree_rt_fence_insert(call.wait_fence.get(), call.wait.get(), 1)), "");
    ASSERT_EQ(Describe(iree_rt_fence_create(call.signal_fence.out())), "");
    ASSERT_EQ(Describe(iree_rt_fence_insert(call.signal_fence.get(), call.signal.get(), 1)), "");
    ASSERT_EQ(call.inputs.Make(device(), int(i)), "");
    ASSERT_EQ(Describe(iree_rt_value_list_create(1, call.results.out())), "");
  }
  std::atomic<int> issued{0};
  std::vector<std::string> errors(kCallers);
  std::vector<std::thread> threads;
  for (int t = 0; t < kCallers; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < int(calls.size()) && errors[t].empty(); i += kCallers) {
        Call& call = calls[i];
        ValueList args;
        errors[t] = Describe(iree_rt_value_list_create(5, args.out()));
        for (iree_rt_buffer_view_t view : {call.inputs.a.get(), call.inputs.b.get(), call.inputs.c.get()}) {
          if (errors[t].empty()) errors[t] = Describe(iree_rt_value_list_push_buffer_view(args.get(), view));
        }
        if (errors[t].empty()) errors[t] = Describe(iree_rt_value_list_push_fence(args.get(), call.wait_fence.get()));
        if (errors[t].empty()) errors[t] = Describe(iree_rt_value_list_push_fence(args.get(), call.signal_fence.get()));
        if (errors[t].empty()) {
          errors[t] = Describe(iree_rt_function_call(context.matmul_add(), args.get(), call.results.get()));
        }
        if (errors[t].empty()) {
          errors[t] = Describe(iree_rt_fence_notify(call.signal_fence.get(), on_signal, &call));
        }
        issued.fetch_add(1);
      }
    });
  }
  // The releaser runs while calls are still being issued, in reverse order.
  std::thread releaser([&] {
    for (int i = int(calls.size()) - 1; i >= 0; --i) {
      while (issued.load() <= int(calls.size()) - 1 - i) std::this_thread::yield();
      if (calls[i].fail) {
        iree_rt_status_free(iree_rt_semaphore_fail(calls[i].wait.get(), IREE_RT_STATUS_ABORTED, "released as failed"));
      } else {
        iree_rt_status_free(iree_rt_semaphore_signal(calls[i].wait.get(), 1));
      }
    }
  });
  for (auto& thread : threads) thread.join();
  releaser.join();
  for (int t = 0; t < kCallers; ++t) ASSERT_EQ(errors[t], "") << "caller " << t;
  for (size_t i = 0; i < calls.size(); ++i) {
    iree_rt_status_t status = iree_rt_fence_wait(calls[i].signal_fence.get(), IREE_RT_INFINITE_TIMEOUT);
    if (calls[i].fail) {
      ASSERT_NE(status, nullptr) << "call " << i;
      EXPECT_EQ(iree_rt_status_code(status), IREE_RT_STATUS_ABORTED) << "call " << i;
      EXPECT_NE(std::string(iree_rt_status_message(status)).find("released as failed"), std::string::npos)
          << iree_rt_status_message(status);
      iree_rt_status_free(status);
    } else {
      ASSERT_EQ(Describe(status), "") << "call " << i;
      EXPECT_EQ(calls[i].inputs.Check(calls[i].results.get()), "") << "call " << i;
    }
  }
  // Each notification ran exactly once, with the call's outcome (it may trail the waiters a little).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (size_t i = 0; i < calls.size(); ++i) {
    while (calls[i].notified.load() == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    EXPECT_EQ(calls[i].notified.load(), 1) << "call " << i;
    EXPECT_EQ(calls[i].notified_code.load(), calls[i].fail ? IREE_RT_STATUS_ABORTED : IREE_RT_STATUS_OK)
        << "call " << i;
  }
  // The device still runs work after the failures.
  WorkloadContext after;
  ASSERT_EQ(after.Create(instance(), hal(), program()), "");
  EXPECT_EQ(after.MatmulAdd(device(), 99), "");
}

// Signallers move semaphores up one step at a time while waiters wait on single timepoints, on
// all of several semaphores (fences), and on any of them.
TEST_P(ConcurrencyTest, SemaphoresWaitedAndSignalledFromManyThreads) {
  constexpr int kSemaphores = 4;
  constexpr uint64_t kSteps = 200;
  std::vector<Semaphore> semaphores(kSemaphores);
  for (auto& s : semaphores) ASSERT_EQ(Describe(iree_rt_semaphore_create(device(), 0, s.out())), "");
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t v = 1 + t % 3; v <= kSteps && errors[t].empty(); v += 7) {
        iree_rt_semaphore_t s = semaphores[(t + v) % kSemaphores].get();
        switch (t % 3) {
          case 0:
            errors[t] = Describe(iree_rt_semaphore_wait(s, v, IREE_RT_INFINITE_TIMEOUT));
            break;
          case 1: {
            Fence fence;
            errors[t] = Describe(iree_rt_fence_create(fence.out()));
            for (auto& each : semaphores) {
              if (errors[t].empty()) errors[t] = Describe(iree_rt_fence_insert(fence.get(), each.get(), v));
            }
            if (errors[t].empty()) errors[t] = Describe(iree_rt_fence_wait(fence.get(), IREE_RT_INFINITE_TIMEOUT));
            break;
          }
          default: {
            std::vector<iree_rt_semaphore_t> handles;
            std::vector<uint64_t> values(kSemaphores, v);
            for (auto& each : semaphores) handles.push_back(each.get());
            errors[t] = Describe(iree_rt_semaphore_wait_many(handles.data(), values.data(), kSemaphores,
                                                             IREE_RT_WAIT_MODE_ANY, IREE_RT_INFINITE_TIMEOUT));
            break;
          }
        }
      }
    });
  }
  std::vector<std::thread> signallers;
  for (int s = 0; s < kSemaphores; ++s) {
    signallers.emplace_back([&, s] {
      for (uint64_t v = 1; v <= kSteps; ++v) {
        iree_rt_status_free(iree_rt_semaphore_signal(semaphores[s].get(), v));
        if (v % 16 == 0) std::this_thread::yield();
      }
    });
  }
  for (auto& thread : signallers) thread.join();
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[t], "") << "waiter " << t;
  for (auto& s : semaphores) {
    uint64_t value = 0;
    ASSERT_EQ(Describe(iree_rt_semaphore_query(s.get(), &value)), "");
    EXPECT_EQ(value, kSteps);
  }
}

INSTANTIATE_TEST_SUITE_P(Cpu, ConcurrencyTest, ::testing::Values("local-sync", "local-task"),
                         [](const auto& info) {
                           return std::string(info.param) == "local-sync" ? "LocalSync" : "LocalTask";
                         });

}  // namespace
}  // namespace iree_rt_stress
