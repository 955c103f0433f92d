// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
  uint64_t current = value_.load(std::memory_order_acquire);
  do {
    if (failed_.load(std::memory_order_acquire)) {
      std::lock_guard<std::mutex> lock(mutex_);
      return base::FailedPreconditionError("signaling a failed semaphore (", failure_.ToString(), ")");
    }
    if (value <= current) {
      return base::OutOfRangeError("semaphore values must increase: current ", current, ", signaled ", value);
    }
  } while (!value_.compare_exchange_weak(current, value, std::memory_order_seq_cst,
                                         std::memory_order_acquire));
  if (watchers_.load(std::memory_order_seq_cst) == 0) return Status::Ok();
  // Callbacks run unlocked: they may signal this very semaphore again.
  for (auto& [at, timepoint] : TakeReached()) timepoint.callback(Status::Ok());
  return Status::Ok();
}

HostSemaphore::TimepointMap HostSemaphore::TakeReached() {
  // Released timepoints move out as map nodes, which allocates nothing: a failed allocation
  // half-way would advance the value but lose the callbacks of work waiting on it.
  TimepointMap ready;
  std::lock_guard<std::mutex> lock(mutex_);
  if (failed_.load(std::memory_order_relaxed)) return ready;  // FailImpl took them all
  auto end = timepoints_.upper_bound(value_.load(std::memory_order_acquire));
  for (auto it = timepoints_.begin(); it != end;) {
    timepoints_by_id_.erase(it->second.id);
    ready.insert(timepoints_.extract(it++));
  }
  watchers_.fetch_sub(static_cast<uint32_t>(ready.size()), std::memory_order_relaxed);
  if (waiters_) cv_.notify_all();
  return ready;
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
    watchers_.fetch_sub(static_cast<uint32_t>(ready.size()), std::memory_order_relaxed);
    if (waiters_) cv_.notify_all();
  }
  for (auto& [value, timepoint] : ready) timepoint.callback(status);
}

Status HostSemaphore::WaitImpl(uint64_t value, int64_t timeout_ns) {
  if (!failed_.load(std::memory_order_acquire) && value_.load(std::memory_order_acquire) >= value) {
    return Status::Ok();
  }
  std::unique_lock<std::mutex> lock(mutex_);
  auto decided = [&] { return !failure_.ok() || value_.load(std::memory_order_seq_cst) >= value; };
  watchers_.fetch_add(1, std::memory_order_seq_cst);  // before |decided| reads the value
  if (!decided()) {
    if (timeout_ns <= 0) {
      watchers_.fetch_sub(1, std::memory_order_relaxed);
      return base::DeadlineExceededError("semaphore wait timed out");
    }
    ++waiters_;
    if (timeout_ns == kInfiniteTimeout) {
      cv_.wait(lock, decided);
    } else {
      cv_.wait_for(lock, std::chrono::nanoseconds(timeout_ns), decided);
    }
    --waiters_;
  }
  watchers_.fetch_sub(1, std::memory_order_relaxed);
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
    watchers_.fetch_add(1, std::memory_order_seq_cst);  // before the value is read
    if (failure_.ok() && value_.load(std::memory_order_seq_cst) < value) {
      TimepointId id = next_id_++;
      timepoints_by_id_.emplace(id, timepoints_.emplace(value, Timepoint{id, std::move(callback)}));
      return id;
    }
    watchers_.fetch_sub(1, std::memory_order_relaxed);
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
  watchers_.fetch_sub(1, std::memory_order_relaxed);
  return true;
}

}  // namespace iree_rt::hal::utils
