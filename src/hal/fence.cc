#include "hal/fence.h"

namespace iree_rt::hal {

using base::Ref;
using base::Status;

Ref<Fence> Fence::Join(std::span<Fence* const> fences) {
  Ref<Fence> joined = Create();
  for (Fence* fence : fences) {
    if (!fence) continue;
    for (size_t i = 0; i < fence->semaphores_.size(); ++i) {
      joined->Insert(fence->semaphores_[i], fence->values_[i]).IgnoreError();
    }
  }
  return joined;
}

Status Fence::Insert(const Ref<Semaphore>& semaphore, uint64_t value) {
  if (!semaphore) return base::InvalidArgumentError("null semaphore inserted into a fence");
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

std::vector<SemaphorePoint> Fence::points() const {
  std::vector<SemaphorePoint> points(semaphores_.size());
  for (size_t i = 0; i < semaphores_.size(); ++i) points[i] = {semaphores_[i].get(), values_[i]};
  return points;
}

Status Fence::Query() const {
  bool pending = false;
  for (size_t i = 0; i < semaphores_.size(); ++i) {
    base::StatusOr<uint64_t> value = semaphores_[i]->Query();
    if (!value.ok()) return value.status();
    if (*value < values_[i]) pending = true;
  }
  return pending ? Status(base::StatusCode::kDeferred, "fence not yet reached") : Status::Ok();
}

Status Fence::Signal() {
  for (size_t i = 0; i < semaphores_.size(); ++i) {
    RT_ASSIGN_OR_RETURN(uint64_t current, semaphores_[i]->Query());
    if (current >= values_[i]) continue;
    RT_RETURN_IF_ERROR(semaphores_[i]->Signal(values_[i]));
  }
  return Status::Ok();
}

void Fence::Fail(const Status& status) {
  for (const Ref<Semaphore>& semaphore : semaphores_) semaphore->Fail(status);
}

Status Fence::Wait(WaitMode mode, int64_t timeout_ns) const {
  std::vector<SemaphorePoint> list = points();
  return WaitSemaphores(mode, list, timeout_ns);
}

}  // namespace iree_rt::hal
