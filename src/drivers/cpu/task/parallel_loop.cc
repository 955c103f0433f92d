// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/task/parallel_loop.h"

#include <algorithm>
#include <new>

#include "base/cpu_relax.h"
#include "drivers/cpu/task/futex.h"

namespace iree_rt::drivers::cpu {
namespace {

// 15-40 us of polling before the caller sleeps: helpers usually finish their last tile within
// that, and a futex sleep + wake costs about as much again.
constexpr int kCallerSpins = 1000;

constexpr uint64_t Pack(uint32_t begin, uint32_t end) {
  return (static_cast<uint64_t>(end) << 32) | begin;
}
constexpr uint32_t Begin(uint64_t range) { return static_cast<uint32_t>(range); }
constexpr uint32_t End(uint64_t range) { return static_cast<uint32_t>(range >> 32); }
constexpr uint32_t Size(uint64_t range) {
  return End(range) > Begin(range) ? End(range) - Begin(range) : 0;
}

}  // namespace

ParallelLoop::ParallelLoop(uint32_t slot_count)
    : slot_count_(slot_count), chunks_(new Chunk[slot_count]) {}

void ParallelLoop::Reset(uint32_t tile_count, const TileFn* fn, uint32_t helper_wakes) {
  tile_count_ = tile_count;
  fn_ = fn;
  error_ = base::Status::Ok();
  for (uint32_t i = 0; i < slot_count_; ++i) {
    // Contiguous chunks keep neighbouring tiles (which touch neighbouring memory) on one core.
    uint64_t begin = uint64_t{tile_count} * i / slot_count_;
    uint64_t end = uint64_t{tile_count} * (i + 1) / slot_count_;
    chunks_[i].range.store(Pack(static_cast<uint32_t>(begin), static_cast<uint32_t>(end)),
                           std::memory_order_relaxed);
  }
  failed_.store(false, std::memory_order_relaxed);
  done_.store(0, std::memory_order_relaxed);
  caller_sleeping_.store(0, std::memory_order_relaxed);
  wakes_left_.store(helper_wakes, std::memory_order_relaxed);
  joins_left_.store(helper_wakes, std::memory_order_relaxed);
  refs_.store(1, std::memory_order_relaxed);
}

bool ParallelLoop::ClaimOwn(uint32_t slot, uint32_t* tile) {
  std::atomic<uint64_t>& range = chunks_[slot].range;
  uint64_t seen = range.load(std::memory_order_relaxed);
  while (Size(seen) != 0) {
    if (range.compare_exchange_weak(seen, Pack(Begin(seen) + 1, End(seen)),
                                    std::memory_order_acq_rel, std::memory_order_relaxed)) {
      *tile = Begin(seen);
      return true;
    }
  }
  return false;
}

bool ParallelLoop::Steal(uint32_t slot, uint32_t* tile) {
  for (;;) {
    // Scanning from our own neighbour spreads concurrent thieves over different victims.
    uint32_t victim = 0, best = 0;
    uint64_t seen = 0;
    for (uint32_t n = 1; n < slot_count_; ++n) {
      uint32_t i = slot + n < slot_count_ ? slot + n : slot + n - slot_count_;
      uint64_t range = chunks_[i].range.load(std::memory_order_relaxed);
      if (Size(range) > best) {
        best = Size(range);
        victim = i;
        seen = range;
      }
    }
    if (best == 0) return false;
    // The back half, rounded up so that a lone tile is taken whole.
    uint32_t take = best - best / 2;
    uint32_t end = End(seen);
    if (!chunks_[victim].range.compare_exchange_weak(seen, Pack(Begin(seen), end - take),
                                                     std::memory_order_acq_rel,
                                                     std::memory_order_relaxed)) {
      continue;  // the owner claimed or another thief stole meanwhile: look again
    }
    *tile = end - take;
    // Our chunk is empty and nobody else writes an empty chunk, so a plain store is enough;
    // from here on others may steal from it again.
    if (take > 1) chunks_[slot].range.store(Pack(end - take + 1, end), std::memory_order_release);
    return true;
  }
}

uint32_t ParallelLoop::DrainAll() {
  uint32_t drained = 0;
  for (uint32_t i = 0; i < slot_count_; ++i) {
    std::atomic<uint64_t>& range = chunks_[i].range;
    uint64_t seen = range.load(std::memory_order_relaxed);
    while (Size(seen) != 0) {
      if (range.compare_exchange_weak(seen, Pack(End(seen), End(seen)), std::memory_order_acq_rel,
                                      std::memory_order_relaxed)) {
        drained += Size(seen);
        break;
      }
    }
  }
  return drained;
}

base::Status ParallelLoop::RunTile(uint32_t tile, uint32_t processor_id) {
  // Tiles run on workers, where an exception would terminate the process, and on the caller,
  // where it would leave helpers running a loop whose owner has returned.
  try {
    return (*fn_)(tile, processor_id);
  } catch (const std::bad_alloc&) {
    return base::Status(base::StatusCode::kResourceExhausted, "out of host memory in a workgroup");
  }
}

uint32_t ParallelLoop::Run(uint32_t slot, uint32_t processor_id) {
  uint32_t taken = 0;
  uint32_t tile = 0;
  while (ClaimOwn(slot, &tile) || Steal(slot, &tile)) {
    ++taken;
    if (failed_.load(std::memory_order_relaxed)) continue;  // skipped: the loop already failed
    base::Status status = RunTile(tile, processor_id);
    if (!status.ok()) {
      if (!failed_.exchange(true, std::memory_order_acq_rel)) error_ = std::move(status);
      taken += DrainAll();
    }
  }
  return taken;
}

void ParallelLoop::Finish(uint32_t taken) {
  if (taken == 0) return;
  // seq_cst pairs with FinishAndWait: either the caller sees the final count before sleeping,
  // or we see that it sleeps and wake it.
  uint32_t done = done_.fetch_add(taken, std::memory_order_seq_cst) + taken;
  if (done == tile_count_ && caller_sleeping_.load(std::memory_order_seq_cst) != 0) {
    FutexWake(&done_, 1);
  }
}

base::Status ParallelLoop::FinishAndWait(uint32_t taken) {
  uint32_t done = done_.fetch_add(taken, std::memory_order_acq_rel) + taken;
  for (int spin = 0; done != tile_count_ && spin < kCallerSpins; ++spin) {
    base::CpuRelax();
    done = done_.load(std::memory_order_acquire);
  }
  while (done != tile_count_) {
    caller_sleeping_.store(1, std::memory_order_seq_cst);
    done = done_.load(std::memory_order_seq_cst);
    if (done != tile_count_) FutexWait(&done_, done);
    done = done_.load(std::memory_order_acquire);
  }
  // Acquiring the final count orders error_ (written before the failing tile was counted).
  return std::move(error_);
}

uint32_t ParallelLoop::TakeWakes(uint32_t max) {
  uint32_t left = wakes_left_.load(std::memory_order_relaxed);
  while (left != 0) {
    uint32_t take = std::min(left, max);
    if (wakes_left_.compare_exchange_weak(left, left - take, std::memory_order_relaxed)) {
      return take;
    }
  }
  return 0;
}

bool ParallelLoop::TryJoin() {
  uint32_t left = joins_left_.load(std::memory_order_relaxed);
  while (left != 0) {
    if (joins_left_.compare_exchange_weak(left, left - 1, std::memory_order_relaxed)) return true;
  }
  return false;
}

}  // namespace iree_rt::drivers::cpu
