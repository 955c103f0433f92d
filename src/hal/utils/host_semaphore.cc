#include "hal/utils/host_semaphore.h"

#include <chrono>
#include <vector>

namespace iree_rt::hal::utils {

using base::Status;

HostSemaphore::~HostSemaphore() {
  // Nobody can signal us any more: release queued work instead of leaving it hanging forever.
  if (timepoints_.empty()) return;
  Status cancelled(base::StatusCode::kCancelled, "semaphore destroyed before reaching the awaited value");
  for (auto& [value, timepoint] : timepoints_) timepoint.callback(cancelled);
}

base::StatusOr<uint64_t> HostSemaphore::QueryImpl() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failure_.ok()) return failure_;
  return value_;
}

Status HostSemaphore::SignalImpl(uint64_t value) {
  // Released timepoints move out as map nodes, which allocates nothing: a failed allocation
  // half-way would advance the value but lose the callbacks of work waiting on it.
  TimepointMap ready;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.ok()) {
      return base::FailedPreconditionError("signaling a failed semaphore (", failure_.ToString(), ")");
    }
    if (value <= value_) {
      return base::OutOfRangeError("semaphore values must increase: current ", value_, ", signaled ", value);
    }
    value_ = value;
    auto end = timepoints_.upper_bound(value);
    for (auto it = timepoints_.begin(); it != end;) {
      timepoints_by_id_.erase(it->second.id);
      ready.insert(timepoints_.extract(it++));
    }
    if (waiters_) cv_.notify_all();
  }
  // Callbacks run unlocked: they may signal this very semaphore again.
  for (auto& [at, timepoint] : ready) timepoint.callback(Status::Ok());
  return Status::Ok();
}

void HostSemaphore::FailImpl(Status status) {
  TimepointMap ready;  // as in SignalImpl: taken whole, without allocating
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.ok()) return;  // the first failure sticks
    failure_ = status;
    ready.swap(timepoints_);
    timepoints_by_id_.clear();
    if (waiters_) cv_.notify_all();
  }
  for (auto& [value, timepoint] : ready) timepoint.callback(status);
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
      timepoints_by_id_.emplace(id, timepoints_.emplace(value, Timepoint{id, std::move(callback)}));
      return id;
    }
    now = failure_;
  }
  callback(now);
  return 0;
}

bool HostSemaphore::CancelNotifyImpl(TimepointId id) {
  Callback dropped;  // destroyed unlocked: it may own the last reference to anything
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = timepoints_by_id_.find(id);
  if (it == timepoints_by_id_.end()) return false;
  dropped = std::move(it->second->second.callback);
  timepoints_.erase(it->second);
  timepoints_by_id_.erase(it);
  return true;
}

}  // namespace iree_rt::hal::utils
