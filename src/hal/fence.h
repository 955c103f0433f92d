// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::Fence: a set of semaphore timepoints, at most one per semaphore (the highest value wins).
//
// A fence is reached when every timepoint is reached, and failed when any semaphore failed.
// An empty fence is always reached. Thread-safety: every method may be called from any thread.
#ifndef IREE_RT_HAL_FENCE_H_
#define IREE_RT_HAL_FENCE_H_

#include <cstdint>
#include <vector>

#include "base/inline_vector.h"
#include "base/ref_object.h"
#include "base/spin_lock.h"
#include "base/status.h"
#include "hal/semaphore.h"

namespace iree_rt::hal {

// Timepoints as borrowed {semaphore, value} pairs; most fences have one or two.
using PointList = base::InlineVector<SemaphorePoint, 2>;

class Fence : public base::RefObject {
 public:
  static base::Ref<Fence> Create() { return base::MakeRef<Fence>(); }
  // A fence of the one timepoint "|semaphore| (not null) reaches |value|".
  static base::Ref<Fence> Create(base::Ref<Semaphore> semaphore, uint64_t value);
  // Makes the fence that one timepoint again, for reuse by an owner holding every reference
  // (unlocked: nobody else can reach the fence).
  void Reset(const base::Ref<Semaphore>& semaphore, uint64_t value);
  // A fence with every timepoint of |fences| (null entries are skipped).
  static base::Ref<Fence> Join(std::span<Fence* const> fences);

  // Adds "|semaphore| reaches |value|", keeping the larger value if the semaphore is present.
  base::Status Insert(const base::Ref<Semaphore>& semaphore, uint64_t value);

  size_t size() const;
  // The timepoints. The semaphores are borrowed: valid while the fence lives.
  PointList points() const;
  // Appends the timepoints to |points| (borrowed, as points()).
  void AppendPoints(PointList* points) const;

  // OK if reached, DEFERRED if not yet, or the first failure found.
  base::Status Query() const;
  // Signals every semaphore to its value (skipping ones already past it).
  base::Status Signal();
  // Fails every semaphore with |status|.
  void Fail(const base::Status& status);
  base::Status Wait(WaitMode mode, int64_t timeout_ns) const;
  // Runs |callback| exactly once, without blocking a thread meanwhile: with OK when every
  // timepoint is reached, or with the first failure of one of its semaphores (CANCELLED if a
  // semaphore is destroyed first). It runs on the thread that signals or fails the deciding
  // semaphore, or before Notify returns if the fence is already decided (an empty fence is).
  // Built on Semaphore::NotifyAt, so every driver's semaphores support it. The fence's
  // semaphores are not retained: whoever expects the signal keeps them alive.
  void Notify(Semaphore::Callback callback) const;

 private:
  template <typename T, typename... Args>
  friend base::Ref<T> base::MakeRef(Args&&... args);
  Fence() = default;

  struct Timepoint {
    base::Ref<Semaphore> semaphore;
    uint64_t value;
  };
  using Timepoints = base::InlineVector<Timepoint, 2>;  // inline: a fence allocates nothing more

  // Copies the timepoints under the lock; the operations then run unlocked (waits block).
  Timepoints Snapshot() const;

  // Held for a few copies at a time; nothing blocks under it. Wait queries its semaphores under
  // it, which takes a semaphore's own lock only once that semaphore has failed.
  mutable base::SpinLock mutex_;
  Timepoints timepoints_;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_FENCE_H_
