// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// HostSemaphore: a timeline semaphore kept in host memory (mutex + condition variable), with
// timepoint callbacks. The CPU drivers use it directly; GPU drivers can layer device events on it.
//
// A signal nobody watches takes no lock: a synchronous program signals two semaphores per call
// before anyone waits on them. Waiters and callbacks count themselves in |watchers_| before
// they read the value, and a signal reads |watchers_| after it moves the value, so (both
// sequentially consistent) either the watcher sees the new value or the signal sees the watcher
// and takes the lock to wake it.
#ifndef IREE_RT_HAL_UTILS_HOST_SEMAPHORE_H_
#define IREE_RT_HAL_UTILS_HOST_SEMAPHORE_H_

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <unordered_map>

#include "hal/semaphore.h"

namespace iree_rt::hal::utils {

class HostSemaphore final : public Semaphore {
 public:
  explicit HostSemaphore(uint64_t initial_value) : value_(initial_value) {}
  ~HostSemaphore() override;

  bool TryReset(uint64_t value) override;

 private:
  // Pending timepoints ordered by value, so a signal releases a prefix instead of scanning all
  // of them (a long queue chain on one timeline would otherwise cost O(n^2)).
  struct Timepoint {
    TimepointId id;
    Callback callback;
  };
  using TimepointMap = std::multimap<uint64_t, Timepoint>;

  base::StatusOr<uint64_t> QueryImpl() override;
  base::Status SignalImpl(uint64_t value) override;
  void FailImpl(base::Status status) override;
  base::Status WaitImpl(uint64_t value, int64_t timeout_ns) override;
  TimepointId NotifyAtImpl(uint64_t value, Callback callback) override;
  bool CancelNotifyImpl(TimepointId id) override;

  // Collects the timepoints up to the current value (under |mutex_|) and wakes the waiters.
  TimepointMap TakeReached();

  // |failed_| changes under |mutex_|, |value_| by CAS; both are read without the lock: queries
  // and waits on a reached value (every call of a synchronous program ends with one) take none.
  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<uint64_t> value_;
  std::atomic<bool> failed_{false};
  std::atomic<uint32_t> watchers_{0};  // pending timepoints plus blocked waiters
  base::Status failure_;  // set once, with |failed_|
  int waiters_ = 0;
  TimepointId next_id_ = 1;
  TimepointMap timepoints_;
  std::unordered_map<TimepointId, TimepointMap::iterator> timepoints_by_id_;
};

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_HOST_SEMAPHORE_H_
