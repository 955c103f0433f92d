// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/semaphore.h"

#include <algorithm>
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
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  Timepoint timepoint;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = timepoints_.lower_bound(value);
    if (it != timepoints_.end()) timepoint = it->second;
  }
  if (timepoint.event) {
    const Context& context = timepoint.in_flight->context();
    const DynamicSymbols& syms = context.syms();
    timepoint.in_flight->BeginHostSync();
    context.Activate().IgnoreError();
    // cuEventSynchronize cannot time out: with a deadline (or a poll), query until it passes.
    CUresult result;
    if (timeout_ns == hal::kInfiniteTimeout) {
      result = syms.cuEventSynchronize(timepoint.event->handle());
    } else {
      const Clock::time_point deadline = start + std::chrono::nanoseconds(timeout_ns);
      while ((result = syms.cuEventQuery(timepoint.event->handle())) == CUDA_ERROR_NOT_READY &&
             Clock::now() < deadline) {
        std::this_thread::yield();
      }
    }
    // An error (a device fault) is found again, and reported to every waiter, by Retire.
    if (result == CUDA_SUCCESS) {
      timepoint.in_flight->RetireThrough(timepoint.event.get());
    } else if (result != CUDA_ERROR_NOT_READY) {
      timepoint.in_flight->Retire();
    }
    timepoint.in_flight->EndHostSync();
    // The work is done: if another thread is retiring it right now, its signal is microseconds
    // away, sooner than a sleep on the host timeline would wake us.
    if (result != CUDA_ERROR_NOT_READY) {
      const Clock::time_point until = Clock::now() + std::chrono::microseconds(50);
      while (Clock::now() < until) {
        base::StatusOr<uint64_t> current = host_->Query();
        if (!current.ok() || *current >= value) break;
        std::this_thread::yield();
      }
    }
  }
  if (timeout_ns != hal::kInfiniteTimeout) {
    const int64_t elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
    timeout_ns = std::max<int64_t>(0, timeout_ns - elapsed);
  }
  return host_->Wait(value, timeout_ns);
}

}  // namespace iree_rt::drivers::cuda
