// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// FencePool: the fences hal.fence.create returns, reused once nothing but the pool holds them.
//
// Every call of a synchronous program creates two fences (each with a new semaphore) and drops
// them before it returns. A pooled fence whose only reference is the pool's, whose semaphore
// only the pool and the fence hold, and that no queue operation waits on cannot be observed by
// anyone; reset to "semaphore at 0, reached at 1" it is indistinguishable from a new one. That
// saves four allocations, constructors and destructors per call. Semaphores of devices that
// cannot reset them (Semaphore::TryReset) are never reused.
#ifndef IREE_RT_MODULES_HAL_FENCE_POOL_H_
#define IREE_RT_MODULES_HAL_FENCE_POOL_H_

#include <cstddef>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/device.h"
#include "hal/fence.h"
#include "hal/semaphore.h"

namespace iree_rt::modules::hal {

class FencePool {
 public:
  // A fence with one timepoint: a semaphore of |device| (at 0) reaching 1.
  base::StatusOr<base::Ref<::iree_rt::hal::Fence>> Acquire(::iree_rt::hal::Device& device);

 private:
  // Enough for the fences a program has in flight at once; beyond that fences are not pooled.
  static constexpr size_t kSlots = 8;
  struct Slot {
    base::Ref<::iree_rt::hal::Device> device;
    base::Ref<::iree_rt::hal::Semaphore> semaphore;
    base::Ref<::iree_rt::hal::Fence> fence;
  };

  // No lock: only fence.create uses the pool, and calls into one context never overlap
  // (vm::Context::Invoke).
  Slot slots_[kSlots];
};

}  // namespace iree_rt::modules::hal

#endif  // IREE_RT_MODULES_HAL_FENCE_POOL_H_
