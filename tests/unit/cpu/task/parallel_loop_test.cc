// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ParallelLoop on its own: participants are plain threads with chosen slots, so claims, steals,
// failure draining and the completion handshake are tested without the executor's scheduling.
#include "drivers/cpu/task/parallel_loop.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace iree_rt::drivers::cpu {
namespace {

using base::Status;
using base::StatusCode;

class TileCounter {
 public:
  explicit TileCounter(uint32_t tile_count)
      : counts_(new std::atomic<uint32_t>[tile_count]()), tile_count_(tile_count) {}
  Status Count(uint32_t tile) {
    if (tile >= tile_count_) return base::OutOfRangeError("tile ", tile);
    counts_[tile].fetch_add(1, std::memory_order_relaxed);
    return Status::Ok();
  }
  // Index of the first tile not run exactly once, or tile_count when all were.
  uint32_t FirstWrong() const {
    for (uint32_t i = 0; i < tile_count_; ++i) {
      if (counts_[i].load() != 1) return i;
    }
    return tile_count_;
  }

 private:
  std::unique_ptr<std::atomic<uint32_t>[]> counts_;
  uint32_t tile_count_;
};

TEST(ParallelLoopTest, OneParticipantRunsEveryChunkByStealing) {
  for (uint32_t slots : {1u, 2u, 5u, 64u}) {
    for (uint32_t tiles : {1u, 2u, 3u, 63u, 64u, 65u, 1000u}) {
      TileCounter counter(tiles);
      ParallelLoop::TileFn fn = [&](uint32_t tile, uint32_t) { return counter.Count(tile); };
      ParallelLoop loop(slots);
      loop.Reset(tiles, &fn, 0);
      // The last slot is the caller's: every other chunk has to be stolen.
      uint32_t taken = loop.Run(slots - 1, 0);
      EXPECT_EQ(taken, tiles);
      EXPECT_TRUE(loop.FinishAndWait(taken).ok());
      EXPECT_EQ(counter.FirstWrong(), tiles) << slots << " slots, " << tiles << " tiles";
    }
  }
}

TEST(ParallelLoopTest, ResetReusesTheObject) {
  ParallelLoop loop(3);
  for (uint32_t tiles : {10u, 1u, 7u}) {
    TileCounter counter(tiles);
    ParallelLoop::TileFn fn = [&](uint32_t tile, uint32_t) { return counter.Count(tile); };
    loop.Reset(tiles, &fn, 0);
    EXPECT_TRUE(loop.FinishAndWait(loop.Run(0, 0)).ok());
    EXPECT_EQ(counter.FirstWrong(), tiles);
    EXPECT_TRUE(loop.Release());  // Reset handed out exactly one reference
  }
}

TEST(ParallelLoopTest, ThreadsOnEverySlotRunEachTileOnce) {
  constexpr uint32_t kSlots = 4;
  for (uint32_t tiles : {2u, 5u, 4099u, 100000u}) {
    TileCounter counter(tiles);
    std::atomic<uint32_t> wrong_processor{0};
    ParallelLoop::TileFn fn = [&](uint32_t tile, uint32_t processor_id) {
      if (processor_id >= kSlots) wrong_processor.fetch_add(1);
      return counter.Count(tile);
    };
    ParallelLoop loop(kSlots);
    loop.Reset(tiles, &fn, 0);
    std::vector<std::thread> helpers;
    for (uint32_t slot = 1; slot < kSlots; ++slot) {
      loop.Retain();
      helpers.emplace_back([&loop, slot] {
        loop.Finish(loop.Run(slot, slot));
        loop.Release();
      });
    }
    Status status = loop.FinishAndWait(loop.Run(0, 0));
    for (std::thread& thread : helpers) thread.join();
    EXPECT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(counter.FirstWrong(), tiles) << tiles << " tiles";
    EXPECT_EQ(wrong_processor.load(), 0u);
    EXPECT_TRUE(loop.Release());
  }
}

TEST(ParallelLoopTest, FailureReturnsTheErrorAndSkipsTheRest) {
  constexpr uint32_t kTiles = 1000;
  std::atomic<uint32_t> ran{0};
  ParallelLoop::TileFn fn = [&](uint32_t tile, uint32_t) -> Status {
    if (ran.fetch_add(1) == 10) return base::InternalError("tile ", tile, " failed");
    return Status::Ok();
  };
  ParallelLoop loop(4);
  loop.Reset(kTiles, &fn, 0);
  uint32_t taken = loop.Run(0, 0);
  EXPECT_EQ(taken, kTiles);  // skipped tiles still count as taken, so the wait finishes
  Status status = loop.FinishAndWait(taken);
  EXPECT_EQ(status.code(), StatusCode::kInternal);
  EXPECT_NE(status.message().find("failed"), std::string_view::npos);
  EXPECT_EQ(ran.load(), 11u);  // one participant: nothing after the failing tile ran
}

TEST(ParallelLoopTest, CallerSleepsUntilAHelperFinishesItsLastTile) {
  std::atomic<bool> helper_started{false};
  ParallelLoop::TileFn fn = [&](uint32_t tile, uint32_t processor_id) -> Status {
    if (processor_id == 1) {
      helper_started.store(true);
      // Long enough that the caller gives up spinning and sleeps on the futex.
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return Status::Ok();
  };
  ParallelLoop loop(2);
  loop.Reset(2, &fn, 0);
  loop.Retain();
  std::atomic<bool> helper_done{false};
  std::thread helper([&] {
    uint32_t taken = loop.Run(1, 1);
    helper_done.store(true);
    loop.Finish(taken);
    loop.Release();
  });
  while (!helper_started.load()) std::this_thread::yield();
  // The helper claimed its own tile before signalling, so the caller runs tile 0 (or nothing).
  Status status = loop.FinishAndWait(loop.Run(0, 0));
  EXPECT_TRUE(helper_done.load());
  helper.join();
  EXPECT_TRUE(status.ok());
  EXPECT_TRUE(loop.Release());
}

TEST(ParallelLoopTest, TakeWakesHandsOutTheBudgetOnce) {
  ParallelLoop::TileFn fn = [](uint32_t, uint32_t) { return Status::Ok(); };
  ParallelLoop loop(8);
  loop.Reset(100, &fn, 5);
  EXPECT_EQ(loop.TakeWakes(2), 2u);
  EXPECT_EQ(loop.TakeWakes(2), 2u);
  EXPECT_EQ(loop.TakeWakes(2), 1u);
  EXPECT_EQ(loop.TakeWakes(2), 0u);
}

}  // namespace
}  // namespace iree_rt::drivers::cpu
