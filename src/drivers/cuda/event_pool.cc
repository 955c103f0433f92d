// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/event_pool.h"

#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

Event::~Event() { pool_->Recycle(handle_); }

base::StatusOr<base::Ref<Event>> EventPool::Acquire() {
  CUevent handle = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!free_.empty()) {
      handle = free_.back();
      free_.pop_back();
    }
  }
  if (!handle) {
    RT_RETURN_IF_ERROR(context_->Activate());
    RT_CUDA_RETURN_IF_ERROR(context_->syms(), cuEventCreate(&handle, CU_EVENT_DISABLE_TIMING),
                            "cuEventCreate");
  }
  return base::MakeRef<Event>(base::Ref<EventPool>::Retain(this), handle);
}

void EventPool::Recycle(CUevent handle) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < capacity_) {
      free_.push_back(handle);
      return;
    }
  }
  context_->Activate().IgnoreError();
  context_->syms().cuEventDestroy(handle);
}

EventPool::~EventPool() {
  context_->Activate().IgnoreError();
  for (CUevent handle : free_) context_->syms().cuEventDestroy(handle);
}

}  // namespace iree_rt::drivers::cuda
