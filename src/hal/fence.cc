#include "hal/fence.h"

namespace iree_rt::hal {

using base::Ref;
using base::Status;

void Fence::Snapshot(std::vector<Ref<Semaphore>>* semaphores, std::vector<uint64_t>* values) const {
  std::lock_guard<std::mutex> lock(mutex_);
  *semaphores = semaphores_;
  *values = values_;
}

Ref<Fence> Fence::Join(std::span<Fence* const> fences) {
  Ref<Fence> joined = Create();
  std::vector<Ref<Semaphore>> semaphores;
  std::vector<uint64_t> values;
  for (Fence* fence : fences) {
    if (!fence) continue;
    fence->Snapshot(&semaphores, &values);
    for (size_t i = 0; i < semaphores.size(); ++i) joined->Insert(semaphores[i], values[i]).IgnoreError();
  }
  return joined;
}

Status Fence::Insert(const Ref<Semaphore>& semaphore, uint64_t value) {
  if (!semaphore) return base::InvalidArgumentError("null semaphore inserted into a fence");
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < semaphores_.size(); ++i) {
    if (semaphores_[i] == semaphore) {
      if (value > values_[i]) values_[i] = value;
      return Status::Ok();
    }
  }
  semaphores_.push_back(semaphore);
  values_.push_back(value);
  return Status::Ok();
}

size_t Fence::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return semaphores_.size();
}

std::vector<SemaphorePoint> Fence::points() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<SemaphorePoint> points(semaphores_.size());
  for (size_t i = 0; i < semaphores_.size(); ++i) points[i] = {semaphores_[i].get(), values_[i]};
  return points;
}

Status Fence::Query() const {
  std::vector<Ref<Semaphore>> semaphores;
  std::vector<uint64_t> values;
  Snapshot(&semaphores, &values);
  bool pending = false;
  for (size_t i = 0; i < semaphores.size(); ++i) {
    base::StatusOr<uint64_t> value = semaphores[i]->Query();
    if (!value.ok()) return value.status();
    if (*value < values[i]) pending = true;
  }
  return pending ? Status(base::StatusCode::kDeferred, "fence not yet reached") : Status::Ok();
}

Status Fence::Signal() {
  std::vector<Ref<Semaphore>> semaphores;
  std::vector<uint64_t> values;
  Snapshot(&semaphores, &values);
  for (size_t i = 0; i < semaphores.size(); ++i) {
    RT_ASSIGN_OR_RETURN(uint64_t current, semaphores[i]->Query());
    if (current >= values[i]) continue;
    RT_RETURN_IF_ERROR(semaphores[i]->Signal(values[i]));
  }
  return Status::Ok();
}

void Fence::Fail(const Status& status) {
  std::vector<Ref<Semaphore>> semaphores;
  std::vector<uint64_t> values;
  Snapshot(&semaphores, &values);
  for (const Ref<Semaphore>& semaphore : semaphores) semaphore->Fail(status);
}

Status Fence::Wait(WaitMode mode, int64_t timeout_ns) const {
  std::vector<Ref<Semaphore>> semaphores;
  std::vector<uint64_t> values;
  Snapshot(&semaphores, &values);
  std::vector<SemaphorePoint> points(semaphores.size());
  for (size_t i = 0; i < semaphores.size(); ++i) points[i] = {semaphores[i].get(), values[i]};
  return WaitSemaphores(mode, points, timeout_ns);
}

}  // namespace iree_rt::hal
