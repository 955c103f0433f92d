// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::Semaphore: a 64-bit timeline that only moves forward, or fails for good.
//
// Waiters wait for "value >= N". Fail(status) stores the first failure; every current and later
// waiter (and every queue operation waiting on it) receives that status. Timepoint callbacks
// (NotifyAt) are how queues chain work without blocking a thread.
//
// Thread-safety: every method may be called from any thread.
#ifndef IREE_RT_HAL_SEMAPHORE_H_
#define IREE_RT_HAL_SEMAPHORE_H_

#include <cstdint>
#include <functional>
#include <span>

#include "base/ref_object.h"
#include "base/status.h"

namespace iree_rt::hal {

// Relative timeouts in nanoseconds: 0 polls, kInfiniteTimeout never expires.
inline constexpr int64_t kInfiniteTimeout = INT64_MAX;

class Semaphore;

// A point on a timeline: "|semaphore| reaches |value|".
struct SemaphorePoint {
  Semaphore* semaphore = nullptr;
  uint64_t value = 0;
};

enum class WaitMode { kAll, kAny };

class Semaphore : public base::RefObject {
 public:
  // Receives OK once the timeline reaches the value, or the failure status. Runs exactly once, on
  // the thread that signals or fails (or inside NotifyAt if already decided), outside any lock.
  using Callback = std::function<void(base::Status)>;
  using TimepointId = uint64_t;

  // The current value, or the failure status once failed.
  base::StatusOr<uint64_t> Query();

  // Moves the timeline to |value|. OUT_OF_RANGE unless |value| > the current value;
  // FAILED_PRECONDITION (carrying the failure) if the semaphore has failed.
  base::Status Signal(uint64_t value);

  // Fails the timeline. The first failure sticks; an OK |status| is stored as UNKNOWN.
  void Fail(base::Status status);

  // Blocks until the value reaches |value| (OK), the semaphore fails (its status) or the timeout
  // passes (DEADLINE_EXCEEDED).
  base::Status Wait(uint64_t value, int64_t timeout_ns);

  // Arranges for |callback| to run once the value reaches |value| or the semaphore fails. If that is
  // already so, it runs before NotifyAt returns. The returned id can cancel a callback not yet run.
  // A semaphore destroyed with callbacks pending runs them with CANCELLED.
  TimepointId NotifyAt(uint64_t value, Callback callback);
  // Drops a pending callback without running it. Returns false if it already ran or is running.
  bool CancelNotify(TimepointId id);

  // Sets the value to |value| and clears a failure, for reuse by an owner that holds every
  // reference. False (and no change) when the semaphore cannot be reset, or has callbacks or
  // waiters pending. The default never resets.
  virtual bool TryReset(uint64_t value) { return false; }

 protected:
  Semaphore() = default;

 private:
  virtual base::StatusOr<uint64_t> QueryImpl() = 0;
  virtual base::Status SignalImpl(uint64_t value) = 0;
  virtual void FailImpl(base::Status status) = 0;
  virtual base::Status WaitImpl(uint64_t value, int64_t timeout_ns) = 0;
  virtual TimepointId NotifyAtImpl(uint64_t value, Callback callback) = 0;
  virtual bool CancelNotifyImpl(TimepointId id) = 0;
};

// Waits until all (kAll) or any (kAny) of |points| are reached. Returns the failure of a failed
// semaphore that decided the wait, DEADLINE_EXCEEDED on timeout, and OK at once for an empty list.
base::Status WaitSemaphores(WaitMode mode, std::span<const SemaphorePoint> points, int64_t timeout_ns);

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_SEMAPHORE_H_
