#include "drivers/cuda/semaphore.h"

namespace iree_rt::drivers::cuda {

void Semaphore::AddDeviceTimepoint(uint64_t value, base::Ref<Event> event) {
  // Signaled before the timepoint was recorded: it would never be needed.
  base::StatusOr<uint64_t> current = host_->Query();
  if (!current.ok() || *current >= value) return;
  std::lock_guard<std::mutex> lock(mutex_);
  timepoints_.emplace(value, std::move(event));
}

base::Ref<Event> Semaphore::FindDeviceTimepoint(uint64_t value) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = timepoints_.lower_bound(value);
  if (it == timepoints_.end()) return nullptr;
  return it->second;
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

}  // namespace iree_rt::drivers::cuda
