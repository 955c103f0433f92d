#include "hal/utils/host_semaphore.h"

#include <chrono>
#include <vector>

namespace iree_rt::hal::utils {

using base::Status;

HostSemaphore::~HostSemaphore() {
  // Nobody can signal us any more: release queued work instead of leaving it hanging forever.
  Status cancelled(base::StatusCode::kCancelled, "semaphore destroyed before reaching the awaited value");
  for (auto& [id, timepoint] : timepoints_) timepoint.callback(cancelled);
}

base::StatusOr<uint64_t> HostSemaphore::QueryImpl() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failure_.ok()) return failure_;
  return value_;
}

Status HostSemaphore::SignalImpl(uint64_t value) {
  std::vector<Callback> ready;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.ok()) {
      return base::FailedPreconditionError("signaling a failed semaphore (", failure_.ToString(), ")");
    }
    if (value <= value_) {
      return base::OutOfRangeError("semaphore values must increase: current ", value_, ", signaled ", value);
    }
    value_ = value;
    for (auto it = timepoints_.begin(); it != timepoints_.end();) {
      if (it->second.value <= value) {
        ready.push_back(std::move(it->second.callback));
        it = timepoints_.erase(it);
      } else {
        ++it;
      }
    }
    if (waiters_) cv_.notify_all();
  }
  // Callbacks run unlocked: they may signal this very semaphore again.
  for (Callback& callback : ready) callback(Status::Ok());
  return Status::Ok();
}

void HostSemaphore::FailImpl(Status status) {
  std::vector<Callback> ready;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.ok()) return;  // the first failure sticks
    failure_ = status;
    for (auto& [id, timepoint] : timepoints_) ready.push_back(std::move(timepoint.callback));
    timepoints_.clear();
    if (waiters_) cv_.notify_all();
  }
  for (Callback& callback : ready) callback(status);
}

Status HostSemaphore::WaitImpl(uint64_t value, int64_t timeout_ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto decided = [&] { return !failure_.ok() || value_ >= value; };
  if (!decided()) {
    if (timeout_ns <= 0) return base::DeadlineExceededError("semaphore wait timed out");
    ++waiters_;
    if (timeout_ns == kInfiniteTimeout) {
      cv_.wait(lock, decided);
    } else {
      cv_.wait_for(lock, std::chrono::nanoseconds(timeout_ns), decided);
    }
    --waiters_;
  }
  if (!failure_.ok()) return failure_;
  if (value_ < value) return base::DeadlineExceededError("semaphore wait timed out");
  return Status::Ok();
}

Semaphore::TimepointId HostSemaphore::NotifyAtImpl(uint64_t value, Callback callback) {
  Status now;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_.ok() && value_ < value) {
      TimepointId id = next_id_++;
      timepoints_.emplace(id, Timepoint{value, std::move(callback)});
      return id;
    }
    now = failure_;
  }
  callback(now);
  return 0;
}

bool HostSemaphore::CancelNotifyImpl(TimepointId id) {
  std::lock_guard<std::mutex> lock(mutex_);
  return timepoints_.erase(id) > 0;
}

}  // namespace iree_rt::hal::utils
