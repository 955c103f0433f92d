// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TileCost: a running estimate of what one tile of a parallel loop costs (one workgroup of one
// dispatch function), so that ParallelFor brings in only as many helpers as the work pays for.
//
// A helper is not free: it must notice the loop, take its place under the executor's lock, and
// run its tiles with caches that hold none of the data, while the caller waits for its last
// tile. Dispatches of a few microseconds of work in all (small models: a handful of
// workgroups of 1-5 us each) finish sooner on the caller alone, and a 16-core machine showed it:
// every idle worker joining such a loop made the model slower than one thread did. Large
// dispatches are unaffected: their estimate asks for every worker.
//
// The estimate is a moving average of the caller's own tiles (two clock reads per loop, none
// per tile). It is shared by every thread that dispatches the function, so it is atomic and
// approximate: a lost update only delays the average.
#ifndef IREE_RT_DRIVERS_CPU_TASK_TILE_COST_H_
#define IREE_RT_DRIVERS_CPU_TASK_TILE_COST_H_

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace iree_rt::drivers::cpu {

class TileCost {
 public:
  // Work, in ns, that one more participant must have to be worth waking.
  static constexpr uint64_t kHelperGrainNs = 10'000;

  // Helpers (at most |max_helpers|) for a loop of |tile_count| tiles: all of them until there
  // is a sample, then one per kHelperGrainNs of estimated work beyond the caller's share.
  uint32_t HelpersFor(uint32_t tile_count, uint32_t max_helpers) const {
    const uint64_t ns = ns_per_tile_.load(std::memory_order_relaxed);
    if (ns == 0) return max_helpers;
    const uint64_t worth = ns * tile_count / kHelperGrainNs;
    return static_cast<uint32_t>(std::min<uint64_t>(max_helpers, worth));
  }

  // Adds a sample: |tiles| tiles that took |ns| on one thread.
  void Record(uint64_t ns, uint32_t tiles) {
    if (tiles == 0) return;
    // Clamped to 32 bits (over 4 s a tile is "expensive" enough), so no product here or in
    // HelpersFor can overflow.
    uint64_t sample = std::clamp<uint64_t>(ns / tiles, 1, UINT32_MAX);
    const uint64_t old = ns_per_tile_.load(std::memory_order_relaxed);
    if (old != 0) sample = (3 * old + sample) / 4;
    ns_per_tile_.store(sample, std::memory_order_relaxed);
  }

  uint64_t ns_per_tile() const { return ns_per_tile_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> ns_per_tile_{0};  // 0 until the first sample
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_TASK_TILE_COST_H_
