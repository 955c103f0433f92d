// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TaskExecutor::ParallelFor: coverage, processor ids, participation, errors and nesting.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "drivers/cpu/task/flush_denormals.h"
#include "drivers/cpu/task/task_executor.h"
#include "make_executor.h"

namespace iree_rt::drivers::cpu {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;

// Per-tile run counts plus the processor ids seen.
class Tally {
 public:
  explicit Tally(uint32_t tile_count)
      : counts_(new std::atomic<uint32_t>[tile_count == 0 ? 1 : tile_count]()),
        tile_count_(tile_count) {}

  Status Record(uint32_t tile, uint32_t processor_id) {
    if (tile >= tile_count_) return base::OutOfRangeError("tile ", tile, " of ", tile_count_);
    counts_[tile].fetch_add(1, std::memory_order_relaxed);
    if (processor_id < 64) processors_.fetch_or(uint64_t{1} << processor_id);
    return Status::Ok();
  }
  // Index of the first tile not run exactly once, or tile_count when all were.
  uint32_t FirstWrong() const {
    for (uint32_t i = 0; i < tile_count_; ++i) {
      if (counts_[i].load() != 1) return i;
    }
    return tile_count_;
  }
  int DistinctProcessors() const { return __builtin_popcountll(processors_.load()); }
  uint64_t processors() const { return processors_.load(); }

 private:
  std::unique_ptr<std::atomic<uint32_t>[]> counts_;
  uint32_t tile_count_;
  std::atomic<uint64_t> processors_{0};
};

constexpr uint32_t kSizes[] = {0, 1, 2, 3, 7, 31, 97, 1000, 65537, 100000};

TEST(ParallelForTest, EveryTileRunsOnceFromAnOutsideThread) {
  Ref<TaskExecutor> executor = MakeExecutor(4);
  for (uint32_t tiles : kSizes) {
    Tally tally(tiles);
    Status status = executor->ParallelFor(
        tiles, [&](uint32_t tile, uint32_t processor) { return tally.Record(tile, processor); });
    EXPECT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(tally.FirstWrong(), tiles) << tiles << " tiles";
    // Ids: 0..3 for workers, 4 (= worker_count) for this thread.
    EXPECT_EQ(tally.processors() & ~uint64_t{0x1f}, 0u) << tiles << " tiles";
  }
}

TEST(ParallelForTest, EveryTileRunsOnceFromAWorker) {
  Ref<TaskExecutor> executor = MakeExecutor(4);
  for (uint32_t tiles : kSizes) {
    Tally tally(tiles);
    Status status;
    std::latch done(1);
    executor->Post([&] {
      status = executor->ParallelFor(
          tiles, [&](uint32_t tile, uint32_t processor) { return tally.Record(tile, processor); });
      done.count_down();
    });
    done.wait();
    EXPECT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(tally.FirstWrong(), tiles) << tiles << " tiles";
    EXPECT_EQ(tally.processors() & ~uint64_t{0xf}, 0u) << "only worker ids on a worker";
  }
}

TEST(ParallelForTest, CallerProcessorId) {
  Ref<TaskExecutor> executor = MakeExecutor(3);
  uint32_t seen = 99;
  auto record = [&](uint32_t, uint32_t processor) {
    seen = processor;
    return Status::Ok();
  };
  EXPECT_TRUE(executor->ParallelFor(1, record).ok());
  EXPECT_EQ(seen, 3u);

  std::optional<uint32_t> worker;
  std::latch done(1);
  executor->Post([&] {
    worker = executor->CurrentWorkerIndex();
    executor->ParallelFor(1, record).IgnoreError();
    done.count_down();
  });
  done.wait();
  ASSERT_TRUE(worker.has_value());
  EXPECT_EQ(seen, *worker);
}

// Tiles for the participation tests: the first tile on each side (the caller, any other thread)
// waits, for at most 10 s, until the other side has started one too. A pass thus does not depend
// on scheduling luck, while a task system whose workers never join fails after the timeout
// instead of hanging. Each side counts itself before waiting, so the two cannot deadlock.
class ParticipationProbe {
 public:
  explicit ParticipationProbe(uint32_t tile_count) : tally_(tile_count) {}

  Status Run(uint32_t tile, uint32_t processor, uint32_t caller) {
    bool is_caller = processor == caller;
    (is_caller ? caller_ : others_).fetch_add(1);
    std::atomic<uint32_t>& other_side = is_caller ? others_ : caller_;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (other_side.load() == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    return tally_.Record(tile, processor);
  }
  uint32_t others() const { return others_.load(); }
  const Tally& tally() const { return tally_; }

 private:
  Tally tally_;
  std::atomic<uint32_t> caller_{0};
  std::atomic<uint32_t> others_{0};
};

TEST(ParallelForTest, WorkersJoinALoopFromAnOutsideThread) {
  Ref<TaskExecutor> executor = MakeExecutor(4);
  constexpr uint32_t kTiles = 64;
  ParticipationProbe probe(kTiles);
  auto run = [&](uint32_t tile, uint32_t processor) {
    return probe.Run(tile, processor, /*caller=*/4);
  };
  ASSERT_TRUE(executor->ParallelFor(kTiles, run).ok());
  EXPECT_EQ(probe.tally().FirstWrong(), kTiles);
  EXPECT_GT(probe.others(), 0u) << "no worker took part";
  EXPECT_GE(probe.tally().DistinctProcessors(), 2);
}

TEST(ParallelForTest, IdleWorkersJoinALoopStartedOnAWorker) {
  Ref<TaskExecutor> executor = MakeExecutor(4);
  constexpr uint32_t kTiles = 64;
  ParticipationProbe probe(kTiles);
  std::latch done(1);
  executor->Post([&] {
    uint32_t caller = *executor->CurrentWorkerIndex();
    auto run = [&](uint32_t tile, uint32_t processor) {
      return probe.Run(tile, processor, caller);
    };
    executor->ParallelFor(kTiles, run).IgnoreError();
    done.count_down();
  });
  done.wait();
  EXPECT_EQ(probe.tally().FirstWrong(), kTiles);
  EXPECT_GT(probe.others(), 0u) << "no other worker took part";
  EXPECT_GE(probe.tally().DistinctProcessors(), 2);
  EXPECT_EQ(probe.tally().processors() & ~uint64_t{0xf}, 0u) << "only worker ids on a worker";
}

TEST(ParallelForTest, SingleWorkerCallingFromItself) {
  Ref<TaskExecutor> executor = MakeExecutor(1);
  Tally tally(1000);
  Status status;
  std::latch done(1);
  executor->Post([&] {
    status = executor->ParallelFor(
        1000, [&](uint32_t tile, uint32_t processor) { return tally.Record(tile, processor); });
    done.count_down();
  });
  done.wait();
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(tally.FirstWrong(), 1000u);
  EXPECT_EQ(tally.processors(), 1u);
}

TEST(ParallelForTest, FailingTileReturnsItsErrorAndSkipsLaterTiles) {
  Ref<TaskExecutor> executor = MakeExecutor(4);
  constexpr uint32_t kTiles = 100000;
  std::atomic<uint32_t> ran{0};
  Status status = executor->ParallelFor(kTiles, [&](uint32_t tile, uint32_t) -> Status {
    const uint32_t count = ran.fetch_add(1);
    if (count == 100) return base::DeadlineExceededError("tile ", tile, " timed out");
    // Tiles after the failing one are slow, so the bound below holds even when the failing
    // thread is descheduled for a while on a loaded machine (as in a sanitizer CI run).
    if (count > 100) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return Status::Ok();
  });
  EXPECT_EQ(status.code(), StatusCode::kDeadlineExceeded);
  EXPECT_NE(status.message().find("timed out"), std::string_view::npos);
  // Participants already inside a tile finish it; nothing is started after they notice.
  EXPECT_LT(ran.load(), kTiles / 2);

  // Every tile failing: one of the errors comes back, and the executor stays usable.
  status = executor->ParallelFor(
      1000, [](uint32_t tile, uint32_t) { return base::InternalError("tile ", tile); });
  EXPECT_EQ(status.code(), StatusCode::kInternal);
  Tally tally(5000);
  auto record = [&](uint32_t tile, uint32_t processor) { return tally.Record(tile, processor); };
  EXPECT_TRUE(executor->ParallelFor(5000, record).ok());
  EXPECT_EQ(tally.FirstWrong(), 5000u);
}

TEST(ParallelForTest, ConcurrentLoopsFromPostedClosures) {
  constexpr uint32_t kClosures = 6;
  constexpr int kRounds = 20;
  constexpr uint32_t kTiles = 300;
  Ref<TaskExecutor> executor = MakeExecutor(4);
  std::vector<std::unique_ptr<Tally>> tallies;
  for (uint32_t i = 0; i < kClosures * kRounds; ++i)
    tallies.push_back(std::make_unique<Tally>(kTiles));
  std::atomic<int> failures{0};
  std::latch done(kClosures);
  for (uint32_t c = 0; c < kClosures; ++c) {
    executor->Post([&, c] {
      for (int r = 0; r < kRounds; ++r) {
        Tally& tally = *tallies[c * kRounds + r];
        Status status = executor->ParallelFor(kTiles, [&](uint32_t tile, uint32_t processor) {
          return tally.Record(tile, processor);
        });
        if (!status.ok()) failures.fetch_add(1);
      }
      done.count_down();
    });
  }
  done.wait();
  EXPECT_EQ(failures.load(), 0);
  for (auto& tally : tallies) EXPECT_EQ(tally->FirstWrong(), kTiles);
}

TEST(ParallelForTest, NestedLoopInsideATile) {
  constexpr uint32_t kOuter = 12, kInner = 200;
  Ref<TaskExecutor> executor = MakeExecutor(4);
  Tally tally(kOuter * kInner);
  std::atomic<int> bad_ids{0};
  Status status = executor->ParallelFor(kOuter, [&](uint32_t outer, uint32_t outer_processor) {
    // The tile's thread is the inner caller, so it reports the same processor id there.
    std::optional<uint32_t> worker = executor->CurrentWorkerIndex();
    if (outer_processor != worker.value_or(executor->worker_count())) bad_ids.fetch_add(1);
    return executor->ParallelFor(kInner, [&](uint32_t inner, uint32_t processor) {
      return tally.Record(outer * kInner + inner, processor);
    });
  });
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(tally.FirstWrong(), kOuter * kInner);
  EXPECT_EQ(bad_ids.load(), 0);
}

TEST(ParallelForTest, InnerErrorPropagatesThroughTheOuterLoop) {
  Ref<TaskExecutor> executor = MakeExecutor(3);
  Status status = executor->ParallelFor(8, [&](uint32_t outer, uint32_t) {
    return executor->ParallelFor(50, [&](uint32_t inner, uint32_t) -> Status {
      if (outer == 5 && inner == 7) return base::NotFoundError("missing ", outer, ".", inner);
      return Status::Ok();
    });
  });
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_EQ(status.message(), "missing 5.7");
}

TEST(ParallelForTest, ConcurrentOutsideCallers) {
  constexpr int kThreads = 4, kRounds = 40;
  constexpr uint32_t kTiles = 257;
  Ref<TaskExecutor> executor = MakeExecutor(3);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int r = 0; r < kRounds; ++r) {
        Tally tally(kTiles);
        Status status = executor->ParallelFor(kTiles, [&](uint32_t tile, uint32_t processor) {
          return processor <= 3 ? tally.Record(tile, processor)
                                : base::InternalError("processor ", processor);
        });
        if (!status.ok() || tally.FirstWrong() != kTiles) wrong.fetch_add(1);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(ParallelForTest, ManyTinyLoopsBackToBack) {
  // Exercises loop reuse and the wake/sleep handshake far more often than the tests above.
  Ref<TaskExecutor> executor = MakeExecutor(3);
  std::atomic<uint64_t> sum{0};
  const TaskExecutor::TileFn add = [&](uint32_t tile, uint32_t) {
    sum.fetch_add(tile + 1);
    return Status::Ok();
  };
  std::latch done(1);
  uint64_t worker_expected = 0, outside_expected = 0;
  executor->Post([&] {
    for (uint32_t i = 0; i < 1500; ++i) {
      uint32_t tiles = 2 + i % 5;
      executor->ParallelFor(tiles, add).IgnoreError();
      worker_expected += uint64_t{tiles} * (tiles + 1) / 2;
    }
    done.count_down();
  });
  for (uint32_t i = 0; i < 1500; ++i) {
    uint32_t tiles = 2 + i % 3;
    ASSERT_TRUE(executor->ParallelFor(tiles, add).ok());
    outside_expected += uint64_t{tiles} * (tiles + 1) / 2;
  }
  done.wait();
  EXPECT_EQ(sum.load(), worker_expected + outside_expected);
}

float DenormalProduct() {
  volatile float a = 1e-30f;
  volatile float b = 1e-10f;
  return a * b;
}

TEST(ParallelForTest, OutsideCallerFlushesDenormalsOnlyDuringTheLoop) {
  if (!ScopedFlushDenormals::Supported()) GTEST_SKIP() << "no denormal control on this arch";
  Ref<TaskExecutor> executor = MakeExecutor(2);
  ASSERT_NE(DenormalProduct(), 0.0f);
  std::atomic<int> unflushed{0};
  auto check = [&](uint32_t, uint32_t) {
    if (DenormalProduct() != 0.0f) unflushed.fetch_add(1);
    return Status::Ok();
  };
  ASSERT_TRUE(executor->ParallelFor(200, check).ok());
  EXPECT_EQ(unflushed.load(), 0);
  EXPECT_NE(DenormalProduct(), 0.0f) << "the caller's mode was not restored";
}

}  // namespace
}  // namespace iree_rt::drivers::cpu
