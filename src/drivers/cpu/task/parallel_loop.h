// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ParallelLoop: the shared state of one TaskExecutor::ParallelFor, which idle workers join.
//
// The tile range is cut into one contiguous chunk per participant slot (one slot per worker, plus
// one for a calling thread that is not a worker). A participant claims tiles one at a time from
// the front of its own chunk; when that is empty it steals the back half of the largest chunk
// left and continues from there. Each chunk is a single 64-bit atomic {begin, end}, so a claim
// and a steal are each one CAS and no tile is ever lost or run twice. Slots that no thread owns
// (busy or sleeping workers) are simply stolen from, so the caller can always finish alone.
//
// Objects are pooled and reused by TaskExecutor; this class only knows about one loop at a time.
#ifndef IREE_RT_DRIVERS_CPU_TASK_PARALLEL_LOOP_H_
#define IREE_RT_DRIVERS_CPU_TASK_PARALLEL_LOOP_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "base/status.h"

namespace iree_rt::drivers::cpu {

class ParallelLoop {
 public:
  using TileFn = std::function<base::Status(uint32_t tile, uint32_t processor_id)>;

  // |slot_count| participants at most, each with a distinct slot index in [0, slot_count).
  explicit ParallelLoop(uint32_t slot_count);

  ParallelLoop(const ParallelLoop&) = delete;
  ParallelLoop& operator=(const ParallelLoop&) = delete;

  uint32_t slot_count() const { return slot_count_; }
  uint32_t tile_count() const { return tile_count_; }

  // Starts a loop over [0, |tile_count|) calling |*fn|, which must outlive FinishAndWait().
  // |helper_wakes| bounds how many sleeping workers TakeWakes() hands out in total. The caller
  // holds the only reference (refs = 1) and publishes the object to others afterwards.
  void Reset(uint32_t tile_count, const TileFn* fn, uint32_t helper_wakes);

  // Runs tiles as the participant owning |slot|, passing |processor_id| to the function, until
  // no tile is left to claim or steal. Once any tile fails, claimed tiles are skipped and the
  // first failure drains every chunk. Returns the number of tiles taken (run or skipped).
  uint32_t Run(uint32_t slot, uint32_t processor_id);

  // A helper's exit: counts |taken| tiles as done and wakes the caller if that finished the loop.
  void Finish(uint32_t taken);

  // The caller's exit: counts |taken|, blocks until every tile is done (helpers still running a
  // tile finish it) and returns the first tile error, or OK.
  base::Status FinishAndWait(uint32_t taken);

  // Takes up to |max| of the remaining helper wakes. Every participant passes some on, so
  // sleeping workers are woken as a tree instead of one by one by the caller.
  uint32_t TakeWakes(uint32_t max);

  // Places for joining workers: |helper_wakes| of them, taken by TryJoin() and dropped by
  // TakeJoins(). More joiners than there are tiles to share would only contend for the
  // executor's lock and the chunks' cache lines. Called under the executor's lock.
  bool TryJoin();
  uint32_t TakeJoins() { return joins_left_.exchange(0, std::memory_order_relaxed); }
  bool join_full() const { return joins_left_.load(std::memory_order_relaxed) == 0; }

  // Intrusive count of participants holding the object (the caller and each joined worker).
  void Retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  // Returns true when that was the last reference and the object may be reused.
  bool Release() { return refs_.fetch_sub(1, std::memory_order_acq_rel) == 1; }

  // Whether the executor still lists the loop for idle workers to join; written under the
  // executor's lock, read without it as a hint.
  bool listed() const { return listed_.load(std::memory_order_acquire); }
  void set_listed(bool listed) { listed_.store(listed, std::memory_order_release); }

 private:
  // A chunk {begin, end} packed as end << 32 | begin; empty when begin >= end.
  struct alignas(64) Chunk {
    std::atomic<uint64_t> range{0};
  };

  bool ClaimOwn(uint32_t slot, uint32_t* tile);
  bool Steal(uint32_t slot, uint32_t* tile);
  uint32_t DrainAll();
  // Runs one tile; an allocation failure becomes its RESOURCE_EXHAUSTED status.
  base::Status RunTile(uint32_t tile, uint32_t processor_id);

  const uint32_t slot_count_;
  std::unique_ptr<Chunk[]> chunks_;

  // Read-mostly after Reset(): kept away from the counters that every participant writes.
  uint32_t tile_count_ = 0;
  const TileFn* fn_ = nullptr;
  base::Status error_;  // written once, by the participant that set failed_ first
  std::atomic<bool> listed_{false};

  alignas(64) std::atomic<bool> failed_{false};
  alignas(64) std::atomic<uint32_t> done_{0};  // futex word the caller sleeps on
  std::atomic<uint32_t> caller_sleeping_{0};
  alignas(64) std::atomic<uint32_t> wakes_left_{0};
  std::atomic<uint32_t> joins_left_{0};
  std::atomic<uint32_t> refs_{0};
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_TASK_PARALLEL_LOOP_H_
