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

bool HostSemaphore::TryReset(uint64_t value) {
  // No lock: the caller holds every reference (TryReset's contract), so no thread can signal or
  // wait; pending callbacks registered earlier are what could still reach us.
  if (!timepoints_.empty() || waiters_ != 0) return false;
  value_.store(value, std::memory_order_relaxed);
  if (failed_.load(std::memory_order_relaxed)) {
    failure_ = Status();
    failed_.store(false, std::memory_order_relaxed);
  }
  return true;
}

base::StatusOr<uint64_t> HostSemaphore::QueryImpl() {
  if (!failed_.load(std::memory_order_acquire)) return value_.load(std::memory_order_acquire);
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
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
    const uint64_t current = value_.load(std::memory_order_relaxed);
    if (value <= current) {
      return base::OutOfRangeError("semaphore values must increase: current ", current, ", signaled ", value);
    }
    value_.store(value, std::memory_order_release);
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
    failed_.store(true, std::memory_order_release);
    ready.swap(timepoints_);
    timepoints_by_id_.clear();
    if (waiters_) cv_.notify_all();
  }
  for (auto& [value, timepoint] : ready) timepoint.callback(status);
}

Status HostSemaphore::WaitImpl(uint64_t value, int64_t timeout_ns) {
  if (!failed_.load(std::memory_order_acquire) && value_.load(std::memory_order_acquire) >= value) {
    return Status::Ok();
  }
  std::unique_lock<std::mutex> lock(mutex_);
  auto decided = [&] { return !failure_.ok() || value_.load(std::memory_order_relaxed) >= value; };
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
  if (value_.load(std::memory_order_relaxed) < value) {
    return base::DeadlineExceededError("semaphore wait timed out");
  }
  return Status::Ok();
}

Semaphore::TimepointId HostSemaphore::NotifyAtImpl(uint64_t value, Callback callback) {
  Status now;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_.ok() && value_.load(std::memory_order_relaxed) < value) {
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
