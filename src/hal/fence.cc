// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/fence.h"

#include <atomic>
#include <memory>
#include <mutex>

namespace iree_rt::hal {

using base::Ref;
using base::Status;

Fence::Timepoints Fence::Snapshot() const {
  std::lock_guard<base::SpinLock> lock(mutex_);
  return timepoints_;
}

Ref<Fence> Fence::Create(Ref<Semaphore> semaphore, uint64_t value) {
  Ref<Fence> fence = Create();
  fence->timepoints_.push_back(Timepoint{std::move(semaphore), value});  // not shared yet: no lock
  return fence;
}

void Fence::Reset(const Ref<Semaphore>& semaphore, uint64_t value) {
  // No lock: the caller holds every reference, and got them with acquire ordering.
  if (timepoints_.size() == 1 && timepoints_[0].semaphore == semaphore) {
    timepoints_[0].value = value;
    return;
  }
  timepoints_.clear();
  timepoints_.push_back(Timepoint{semaphore, value});
}

Ref<Fence> Fence::Join(std::span<Fence* const> fences) {
  Ref<Fence> joined = Create();
  for (Fence* fence : fences) {
    if (!fence) continue;
    for (const Timepoint& point : fence->Snapshot()) joined->Insert(point.semaphore, point.value).IgnoreError();
  }
  return joined;
}

Status Fence::Insert(const Ref<Semaphore>& semaphore, uint64_t value) {
  if (!semaphore) return base::InvalidArgumentError("null semaphore inserted into a fence");
  std::lock_guard<base::SpinLock> lock(mutex_);
  for (Timepoint& point : timepoints_) {
    if (point.semaphore == semaphore) {
      if (value > point.value) point.value = value;
      return Status::Ok();
    }
  }
  timepoints_.push_back(Timepoint{semaphore, value});
  return Status::Ok();
}

size_t Fence::size() const {
  std::lock_guard<base::SpinLock> lock(mutex_);
  return timepoints_.size();
}

PointList Fence::points() const {
  PointList points;
  AppendPoints(&points);
  return points;
}

void Fence::AppendPoints(PointList* points) const {
  std::lock_guard<base::SpinLock> lock(mutex_);
  for (const Timepoint& point : timepoints_) points->push_back({point.semaphore.get(), point.value});
}

Status Fence::Query() const {
  bool pending = false;
  for (const Timepoint& point : Snapshot()) {
    base::StatusOr<uint64_t> value = point.semaphore->Query();
    if (!value.ok()) return value.status();
    if (*value < point.value) pending = true;
  }
  return pending ? Status(base::StatusCode::kDeferred, "fence not yet reached") : Status::Ok();
}

Status Fence::Signal() {
  for (const Timepoint& point : Snapshot()) {
    RT_ASSIGN_OR_RETURN(uint64_t current, point.semaphore->Query());
    if (current >= point.value) continue;
    RT_RETURN_IF_ERROR(point.semaphore->Signal(point.value));
  }
  return Status::Ok();
}

void Fence::Fail(const Status& status) {
  for (const Timepoint& point : Snapshot()) point.semaphore->Fail(status);
}

Status Fence::Wait(WaitMode mode, int64_t timeout_ns) const {
  {
    // Already reached (a synchronous program's every wait): no copies, no semaphore references.
    std::lock_guard<base::SpinLock> lock(mutex_);
    size_t reached = 0;
    for (const Timepoint& point : timepoints_) {
      base::StatusOr<uint64_t> value = point.semaphore->Query();
      if (!value.ok() || *value < point.value) break;
      ++reached;
    }
    if (reached == timepoints_.size() || (mode == WaitMode::kAny && reached > 0)) {
      return Status::Ok();
    }
  }
  Timepoints timepoints = Snapshot();  // keeps the semaphores alive while waiting
  PointList points;
  for (const Timepoint& point : timepoints) points.push_back({point.semaphore.get(), point.value});
  return WaitSemaphores(mode, points, timeout_ns);
}

void Fence::Notify(Semaphore::Callback callback) const {
  Timepoints timepoints = Snapshot();
  if (timepoints.empty()) {
    callback(Status::Ok());
    return;
  }
  // Shared by one NotifyAt per timepoint. The last success or the first failure claims |done|
  // and runs the callback; the rest only count down (they may outlive the callback, which is
  // moved out so what it captured is freed once it ran).
  struct State {
    std::atomic<size_t> remaining;
    std::atomic<bool> done{false};
    Semaphore::Callback callback;
  };
  auto state = std::make_shared<State>();
  state->remaining.store(timepoints.size(), std::memory_order_relaxed);
  state->callback = std::move(callback);
  for (const Timepoint& point : timepoints) {
    point.semaphore->NotifyAt(point.value, [state](Status status) {
      if (status.ok() && state->remaining.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
      if (state->done.exchange(true, std::memory_order_acq_rel)) return;
      Semaphore::Callback run = std::move(state->callback);
      run(std::move(status));
    });
  }
}

}  // namespace iree_rt::hal
