// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::Semaphore: a host timeline (hal::utils::HostSemaphore) plus the device timepoints of
// submissions already issued to a stream: "the timeline reaches V when CUevent E completes".
//
// Host signals never touch CUDA. A queue operation waiting for V can make its stream wait on the
// event of a timepoint >= V (cuStreamWaitEvent) instead of waiting for the host to see the signal.
// A host wait for a value covered by a timepoint synchronises on that event itself
// (cuEventSynchronize, or cuEventQuery until the deadline) and retires the issuing queue's
// finished work (cuda::InFlight), so the wait ends when the GPU finishes, without a hop through
// another thread. Timepoints at or below the host value
// are dropped as the timeline advances. Thread-safety: every method may be called from any thread.
#ifndef IREE_RT_DRIVERS_CUDA_SEMAPHORE_H_
#define IREE_RT_DRIVERS_CUDA_SEMAPHORE_H_

#include <map>
#include <mutex>

#include "drivers/cuda/event_pool.h"
#include "drivers/cuda/in_flight.h"
#include "hal/semaphore.h"
#include "hal/utils/host_semaphore.h"

namespace iree_rt::drivers::cuda {

class Semaphore final : public hal::Semaphore {
 public:
  explicit Semaphore(uint64_t initial_value)
      : host_(base::MakeRef<hal::utils::HostSemaphore>(initial_value)) {}

  static Semaphore* Cast(hal::Semaphore* semaphore) { return dynamic_cast<Semaphore*>(semaphore); }

  // Records that |event| completes when the timeline reaches |value|; |in_flight| retires the
  // operation that signals it.
  void AddDeviceTimepoint(uint64_t value, base::Ref<Event> event, base::Ref<InFlight> in_flight);
  // The event of the lowest timepoint >= |value|, or null; |issuer| receives the InFlight of the
  // queue that recorded it. Streams of any CUDA context may wait on it.
  base::Ref<Event> FindDeviceTimepoint(uint64_t value, InFlight** issuer = nullptr);

 private:
  struct Timepoint {
    base::Ref<Event> event;
    base::Ref<InFlight> in_flight;
  };

  base::StatusOr<uint64_t> QueryImpl() override { return host_->Query(); }
  base::Status SignalImpl(uint64_t value) override;
  void FailImpl(base::Status status) override;
  base::Status WaitImpl(uint64_t value, int64_t timeout_ns) override;
  TimepointId NotifyAtImpl(uint64_t value, Callback callback) override {
    return host_->NotifyAt(value, std::move(callback));
  }
  bool CancelNotifyImpl(TimepointId id) override { return host_->CancelNotify(id); }
  // Drops timepoints the host timeline has passed; returns them so they are released unlocked.
  std::multimap<uint64_t, Timepoint> TakeReached(uint64_t value);

  const base::Ref<hal::utils::HostSemaphore> host_;
  std::mutex mutex_;
  std::multimap<uint64_t, Timepoint> timepoints_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_SEMAPHORE_H_
