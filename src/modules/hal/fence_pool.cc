// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/hal/fence_pool.h"

namespace iree_rt::modules::hal {

using base::Ref;
using base::StatusOr;
namespace rt = ::iree_rt::hal;

StatusOr<Ref<rt::Fence>> FencePool::Acquire(rt::Device& device) {
  Slot* empty = nullptr;
  for (Slot& slot : slots_) {
    if (!slot.fence) {
      if (!empty) empty = &slot;
      continue;
    }
    // Counts of 1 (fence) and 2 (semaphore: the slot's and the fence's) mean nobody else has
    // either, so nobody can take a new reference while we look.
    if (slot.device.get() != &device || slot.fence->ref_count() != 1 ||
        slot.semaphore->ref_count() != 2 || !slot.semaphore->TryReset(0)) {
      continue;
    }
    slot.fence->Reset(slot.semaphore, 1);
    return slot.fence;
  }
  RT_ASSIGN_OR_RETURN(Ref<rt::Semaphore> semaphore, device.CreateSemaphore(0));
  Ref<rt::Fence> fence = rt::Fence::Create(semaphore, 1);
  // Only semaphores that can be reset are worth a slot (a fresh one resets to 0 as a no-op).
  if (empty && semaphore->TryReset(0)) {
    *empty = Slot{Ref<rt::Device>::Retain(&device), std::move(semaphore), fence};
  }
  return fence;
}

}  // namespace iree_rt::modules::hal
