#include "drivers/cuda/semaphore.h"

#include <chrono>
#include <thread>

namespace iree_rt::drivers::cuda {

void Semaphore::AddDeviceTimepoint(uint64_t value, base::Ref<Event> event, base::Ref<InFlight> in_flight) {
  // Signaled before the timepoint was recorded: it would never be needed.
  base::StatusOr<uint64_t> current = host_->Query();
  if (!current.ok() || *current >= value) return;
  std::lock_guard<std::mutex> lock(mutex_);
  timepoints_.emplace(value, Timepoint{std::move(event), std::move(in_flight)});
}

base::Ref<Event> Semaphore::FindDeviceTimepoint(uint64_t value, InFlight** issuer) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = timepoints_.lower_bound(value);
  if (it == timepoints_.end()) return nullptr;
  if (issuer) *issuer = it->second.in_flight.get();
  return it->second.event;
}

std::multimap<uint64_t, Semaphore::Timepoint> Semaphore::TakeReached(uint64_t value) {
  std::multimap<uint64_t, Timepoint> reached;
  std::lock_guard<std::mutex> lock(mutex_);
  auto end = timepoints_.upper_bound(value);
  reached.insert(timepoints_.begin(), end);
  timepoints_.erase(timepoints_.begin(), end);
  return reached;
}

base::Status Semaphore::SignalImpl(uint64_t value) {
  RT_RETURN_IF_ERROR(host_->Signal(value));
  TakeReached(value);
  return base::Status::Ok();
}

void Semaphore::FailImpl(base::Status status) {
  host_->Fail(std::move(status));
  // A failed timeline is never waited on through events again.
  TakeReached(UINT64_MAX);
}

base::Status Semaphore::WaitImpl(uint64_t value, int64_t timeout_ns) {
  // With a deadline the host wait decides (cuEventSynchronize cannot time out); the completion
  // thread still advances the timeline.
  if (timeout_ns == hal::kInfiniteTimeout) {
    Timepoint timepoint;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = timepoints_.lower_bound(value);
      if (it != timepoints_.end()) timepoint = it->second;
    }
    if (timepoint.event) {
      const Context& context = timepoint.in_flight->context();
      timepoint.in_flight->BeginHostSync();
      context.Activate().IgnoreError();
      // An error (a device fault) is found again, and reported to every waiter, by Retire.
      if (context.syms().cuEventSynchronize(timepoint.event->handle()) == CUDA_SUCCESS) {
        timepoint.in_flight->RetireThrough(timepoint.event.get());
      } else {
        timepoint.in_flight->Retire();
      }
      timepoint.in_flight->EndHostSync();
      // The work is done: if another thread is retiring it right now, its signal is microseconds
      // away, sooner than a sleep on the host timeline would wake us.
      using Clock = std::chrono::steady_clock;
      const Clock::time_point until = Clock::now() + std::chrono::microseconds(50);
      while (Clock::now() < until) {
        base::StatusOr<uint64_t> current = host_->Query();
        if (!current.ok() || *current >= value) break;
        std::this_thread::yield();
      }
    }
  }
  return host_->Wait(value, timeout_ns);
}

}  // namespace iree_rt::drivers::cuda
