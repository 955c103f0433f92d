// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A soak test: worker threads call the workload program for IREE_RT_SOAK_SECONDS (default 20;
// run it for 600+ to soak), recreating their contexts, devices and asynchronous fences as they
// go. Every result is checked, and the memory in use must not grow: a warm-up phase first brings
// every pool and cache to its working size, then the heap and the device's allocated bytes
// measured with everything idle after the main phase must equal those measured after warm-up.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "stress_fixture.h"

namespace iree_rt_stress {
namespace {

using Clock = std::chrono::steady_clock;

// Heap growth tolerated between the two idle measurements: allocator bookkeeping, not a leak.
// A leak of one byte per call would exceed it within the default run.
constexpr int64_t kHeapSlackBytes = 64 * 1024;

int SoakSeconds() {
  const char* text = std::getenv("IREE_RT_SOAK_SECONDS");
  int seconds = text ? std::atoi(text) : 0;
  return seconds > 0 ? seconds : 20;
}

class SoakTest : public StressFixture {
 protected:
  void SetUp() override { Open("local-task"); }

  uint64_t DeviceBytes() {
    uint64_t bytes = 0;
    EXPECT_EQ(Describe(iree_rt_device_memory_statistic(
                  device(), IREE_RT_MEMORY_STATISTIC_BYTES_ALLOCATED, &bytes)),
              "");
    return bytes;
  }

  // One worker's loop until |deadline|: the kind of work depends on |worker|. Counts calls.
  std::string Work(int worker, Clock::time_point deadline, std::atomic<int64_t>* calls) {
    int seed = worker * 100000;
    while (Clock::now() < deadline) {
      if (worker == 3) {
        // A whole stack of its own each round: device, hal module, context.
        std::string error = ChurnDevice(seed++);
        if (!error.empty()) return error;
        calls->fetch_add(1);
        continue;
      }
      WorkloadContext context;
      std::string error =
          context.Create(instance(), hal(), worker == 2 ? async_program() : program());
      for (int i = 0; i < 40 && error.empty() && Clock::now() < deadline; ++i, ++seed) {
        if (worker == 2) {
          error = AsyncCall(context, seed);
        } else {
          int32_t count = 0;
          float sum = 0;
          error = context.MatmulAdd(device(), seed);
          if (error.empty()) error = context.Increment(&count);
          if (error.empty() && count != i + 1) error = "count " + std::to_string(count);
          if (error.empty()) error = context.Accumulate(device(), 1.0f, &sum);
          if (error.empty() && sum != float(i + 1)) error = "sum " + std::to_string(sum);
        }
        calls->fetch_add(1);
      }
      if (!error.empty()) return error;
    }
    return "";
  }

  std::string AsyncCall(WorkloadContext& context, int seed) {
    Semaphore wait, signal;
    Fence wait_fence, signal_fence;
    MatmulCase inputs;
    ValueList args, results;
    std::string error = Describe(iree_rt_semaphore_create(device(), 0, wait.out()));
    if (error.empty()) error = Describe(iree_rt_semaphore_create(device(), 0, signal.out()));
    if (error.empty()) error = Describe(iree_rt_fence_create(wait_fence.out()));
    if (error.empty()) error = Describe(iree_rt_fence_insert(wait_fence.get(), wait.get(), 1));
    if (error.empty()) error = Describe(iree_rt_fence_create(signal_fence.out()));
    if (error.empty()) error = Describe(iree_rt_fence_insert(signal_fence.get(), signal.get(), 1));
    if (error.empty()) error = inputs.Make(device(), seed);
    if (error.empty()) error = Describe(iree_rt_value_list_create(5, args.out()));
    if (error.empty()) error = Describe(iree_rt_value_list_create(1, results.out()));
    for (iree_rt_buffer_view_t view : {inputs.a.get(), inputs.b.get(), inputs.c.get()}) {
      if (error.empty()) error = Describe(iree_rt_value_list_push_buffer_view(args.get(), view));
    }
    if (error.empty()) error = Describe(iree_rt_value_list_push_fence(args.get(), wait_fence.get()));
    if (error.empty()) error = Describe(iree_rt_value_list_push_fence(args.get(), signal_fence.get()));
    if (error.empty()) {
      error = Describe(iree_rt_function_call(context.matmul_add(), args.get(), results.get()));
    }
    if (error.empty()) error = Describe(iree_rt_semaphore_signal(wait.get(), 1));
    if (error.empty()) error = Describe(iree_rt_fence_wait(signal_fence.get(), IREE_RT_INFINITE_TIMEOUT));
    if (error.empty()) error = inputs.Check(results.get());
    return error;
  }

  std::string ChurnDevice(int seed) {
    Device device;
    Module hal;
    std::string error = Describe(iree_rt_device_create(instance(), "local-sync", nullptr, device.out()));
    iree_rt_device_t handle = device.get();
    if (error.empty()) error = Describe(iree_rt_module_create_hal(instance(), &handle, 1, hal.out()));
    WorkloadContext context;
    if (error.empty()) error = context.Create(instance(), hal.get(), program());
    if (error.empty()) error = context.MatmulAdd(handle, seed);
    return error;
  }

  // Runs four workers until |seconds| from now. Samples the heap every |sample_every| into
  // |samples| (if non-null). Returns the first error of any worker.
  std::string RunPhase(double seconds, std::atomic<int64_t>* calls, std::vector<int64_t>* samples) {
    const Clock::time_point deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    std::vector<std::string> errors(4);
    std::vector<std::thread> threads;
    for (int w = 0; w < 4; ++w) {
      threads.emplace_back([&, w] { errors[w] = Work(w, deadline, calls); });
    }
    const auto sample_every = std::chrono::duration<double>(seconds / 10);
    while (samples && Clock::now() < deadline) {
      std::this_thread::sleep_for(sample_every);
      samples->push_back(HeapBytesInUse());
    }
    for (auto& thread : threads) thread.join();
    for (int w = 0; w < 4; ++w) {
      if (!errors[w].empty()) return "worker " + std::to_string(w) + ": " + errors[w];
    }
    return "";
  }
};

TEST_F(SoakTest, MemoryStaysFlat) {
  const int seconds = SoakSeconds();
  const double warmup = std::max(2.0, seconds * 0.1);
  std::atomic<int64_t> calls{0};
  ASSERT_EQ(RunPhase(warmup, &calls, nullptr), "");
  const int64_t heap_before = HeapBytesInUse();
  const int64_t rss_before = ResidentBytes();
  const uint64_t device_before = DeviceBytes();
  const int64_t warmup_calls = calls.load();

  std::vector<int64_t> samples;
  const Clock::time_point start = Clock::now();
  ASSERT_EQ(RunPhase(seconds - warmup, &calls, &samples), "");
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  const int64_t heap_after = HeapBytesInUse();
  const int64_t rss_after = ResidentBytes();
  const uint64_t device_after = DeviceBytes();

  std::string series;
  for (int64_t s : samples) series += " " + std::to_string(s / 1024);
  std::printf(
      "soak: %.0f s after %.0f s of warm-up, 4 workers, %lld calls (%lld in warm-up); idle heap "
      "%lld -> %lld bytes (%+lld); RSS %lld -> %lld KiB; device bytes %llu -> %llu; heap KiB "
      "while running:%s\n",
      elapsed, warmup, (long long)calls.load(), (long long)warmup_calls, (long long)heap_before,
      (long long)heap_after, (long long)(heap_after - heap_before), (long long)rss_before / 1024,
      (long long)rss_after / 1024, (unsigned long long)device_before,
      (unsigned long long)device_after, series.c_str());
  EXPECT_EQ(device_after, device_before);
  if (heap_before >= 0) {
    EXPECT_LE(heap_after - heap_before, kHeapSlackBytes);
  }
}

}  // namespace
}  // namespace iree_rt_stress
