// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TileCost (the per-function estimate that sizes parallel loops) and ParallelFor with one: a
// loop of cheap tiles stays on its caller, an expensive one still gets the workers.
#include "drivers/cpu/task/tile_cost.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "drivers/cpu/task/task_executor.h"
#include "make_executor.h"

namespace iree_rt::drivers::cpu {
namespace {

using base::Ref;
using base::Status;

TEST(TileCostTest, AllHelpersUntilTheFirstSample) {
  TileCost cost;
  EXPECT_EQ(cost.ns_per_tile(), 0u);
  EXPECT_EQ(cost.HelpersFor(1000, 15), 15u);
  cost.Record(5000, 0);  // no tiles: no sample
  EXPECT_EQ(cost.HelpersFor(1000, 15), 15u);
}

TEST(TileCostTest, OneHelperPerGrainOfEstimatedWork) {
  TileCost cost;
  cost.Record(8 * 1000, 8);  // 1 us per tile
  EXPECT_EQ(cost.ns_per_tile(), 1000u);
  // 8 us of work in all: less than one grain, so the caller runs it alone.
  EXPECT_EQ(cost.HelpersFor(8, 7), 0u);
  // 35 grains of work, capped by the helpers available.
  const uint32_t tiles = 35 * TileCost::kHelperGrainNs / 1000;
  EXPECT_EQ(cost.HelpersFor(tiles, 100), 35u);
  EXPECT_EQ(cost.HelpersFor(tiles, 15), 15u);
}

TEST(TileCostTest, MovingAverageFollowsTheSamples) {
  TileCost cost;
  cost.Record(4000, 1);
  cost.Record(8000, 1);  // (3 * 4000 + 8000) / 4
  EXPECT_EQ(cost.ns_per_tile(), 5000u);
  for (int i = 0; i < 64; ++i) cost.Record(100, 1);
  EXPECT_LT(cost.ns_per_tile(), 200u) << "old samples fade";
  cost.Record(0, 10);  // a sub-ns sample still counts as 1 ns, never as "unknown"
  EXPECT_GT(cost.ns_per_tile(), 0u);
}

TEST(TileCostTest, HugeSamplesSaturate) {
  TileCost cost;
  cost.Record(UINT64_MAX, 1);
  EXPECT_EQ(cost.ns_per_tile(), UINT32_MAX);
  cost.Record(UINT64_MAX, 1);
  EXPECT_EQ(cost.ns_per_tile(), UINT32_MAX);
  EXPECT_EQ(cost.HelpersFor(UINT32_MAX, 15), 15u);
}

TEST(TileCostTest, CheapLoopRunsOnTheCallerAlone) {
  Ref<TaskExecutor> executor = MakeExecutor(4);
  ASSERT_TRUE(executor);
  TileCost cost;
  cost.Record(100, 1);  // 100 ns tiles: 64 of them are far below one grain
  std::atomic<uint32_t> others{0}, ran{0};
  auto run = [&](uint32_t, uint32_t processor) {
    if (processor != executor->worker_count()) others.fetch_add(1);
    ran.fetch_add(1);
    // Slow enough that idle workers would have joined, were the loop offered to them.
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    return Status::Ok();
  };
  ASSERT_TRUE(executor->ParallelFor(64, run, &cost).ok());
  EXPECT_EQ(ran.load(), 64u);
  EXPECT_EQ(others.load(), 0u) << "a worker joined a loop its estimate said to keep";
  // The caller's own timing moved the estimate: 200 us tiles now ask for helpers.
  EXPECT_GE(cost.ns_per_tile(), 40'000u);
  EXPECT_EQ(cost.HelpersFor(64, 4), 4u);
}

TEST(TileCostTest, ExpensiveLoopGetsTheWorkers) {
  Ref<TaskExecutor> executor = MakeExecutor(4);
  ASSERT_TRUE(executor);
  TileCost cost;
  cost.Record(1'000'000, 1);  // 1 ms tiles
  std::atomic<uint32_t> caller{0}, others{0};
  auto run = [&](uint32_t, uint32_t processor) {
    bool is_caller = processor == executor->worker_count();
    (is_caller ? caller : others).fetch_add(1);
    // Each side waits (10 s at most) for the other, so the pass does not depend on timing.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while ((is_caller ? others : caller).load() == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    return Status::Ok();
  };
  ASSERT_TRUE(executor->ParallelFor(16, run, &cost).ok());
  EXPECT_EQ(caller.load() + others.load(), 16u);
  EXPECT_GT(others.load(), 0u) << "no worker joined a loop worth their help";
}

}  // namespace
}  // namespace iree_rt::drivers::cpu
