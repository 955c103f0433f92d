// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::EventPool: recycles CUevents (created with CU_EVENT_DISABLE_TIMING) as ref-counted
// cuda::Event objects. An Event returns to its pool when its last reference drops; beyond the
// pool's capacity, events are destroyed instead.
//
// Thread-safety: Acquire and releases may happen on any thread except a cuLaunchHostFunc
// callback (destroying a surplus event is a CUDA call).
#ifndef IREE_RT_DRIVERS_CUDA_EVENT_POOL_H_
#define IREE_RT_DRIVERS_CUDA_EVENT_POOL_H_

#include <cuda.h>

#include <mutex>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "drivers/cuda/context.h"

namespace iree_rt::drivers::cuda {

class EventPool;

class Event final : public base::RefObject {
 public:
  CUevent handle() const { return handle_; }

 private:
  friend class EventPool;
  template <typename T, typename... Args>
  friend base::Ref<T> base::MakeRef(Args&&... args);
  Event(base::Ref<EventPool> pool, CUevent handle) : pool_(std::move(pool)), handle_(handle) {}
  ~Event() override;

  base::Ref<EventPool> pool_;
  CUevent handle_;
};

class EventPool final : public base::RefObject {
 public:
  EventPool(base::Ref<Context> context, size_t capacity)
      : context_(std::move(context)), capacity_(capacity) {}
  ~EventPool() override;

  base::StatusOr<base::Ref<Event>> Acquire();

 private:
  friend class Event;
  void Recycle(CUevent handle);

  const base::Ref<Context> context_;
  const size_t capacity_;
  std::mutex mutex_;
  std::vector<CUevent> free_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_EVENT_POOL_H_
