// HostSemaphore: a timeline semaphore kept in host memory (mutex + condition variable), with
// timepoint callbacks. The CPU drivers use it directly; GPU drivers can layer device events on it.
#ifndef IREE_RT_HAL_UTILS_HOST_SEMAPHORE_H_
#define IREE_RT_HAL_UTILS_HOST_SEMAPHORE_H_

#include <condition_variable>
#include <map>
#include <mutex>

#include "hal/semaphore.h"

namespace iree_rt::hal::utils {

class HostSemaphore final : public Semaphore {
 public:
  explicit HostSemaphore(uint64_t initial_value) : value_(initial_value) {}
  ~HostSemaphore() override;

 private:
  struct Timepoint {
    uint64_t value;
    Callback callback;
  };

  base::StatusOr<uint64_t> QueryImpl() override;
  base::Status SignalImpl(uint64_t value) override;
  void FailImpl(base::Status status) override;
  base::Status WaitImpl(uint64_t value, int64_t timeout_ns) override;
  TimepointId NotifyAtImpl(uint64_t value, Callback callback) override;
  bool CancelNotifyImpl(TimepointId id) override;

  std::mutex mutex_;
  std::condition_variable cv_;
  uint64_t value_;
  base::Status failure_;
  int waiters_ = 0;
  TimepointId next_id_ = 1;
  std::map<TimepointId, Timepoint> timepoints_;
};

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_HOST_SEMAPHORE_H_
