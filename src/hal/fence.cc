#include "hal/fence.h"

namespace iree_rt::hal {

using base::Ref;
using base::Status;

Fence::Timepoints Fence::Snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return timepoints_;
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
  std::lock_guard<std::mutex> lock(mutex_);
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
  std::lock_guard<std::mutex> lock(mutex_);
  return timepoints_.size();
}

PointList Fence::points() const {
  std::lock_guard<std::mutex> lock(mutex_);
  PointList points;
  for (const Timepoint& point : timepoints_) points.push_back({point.semaphore.get(), point.value});
  return points;
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
  Timepoints timepoints = Snapshot();  // keeps the semaphores alive while waiting
  PointList points;
  for (const Timepoint& point : timepoints) points.push_back({point.semaphore.get(), point.value});
  return WaitSemaphores(mode, points, timeout_ns);
}

}  // namespace iree_rt::hal
