// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Allocation fault hook: lets a test make the allocations that bypass operator new fail.
//
// Most memory comes from operator new, which a test can replace to inject std::bad_alloc. The
// few sites that call malloc, aligned_alloc or mmap directly (large or aligned blocks) ask
// AllocationFaultInjected() first and take their out-of-memory path when it says so. No hook is
// installed outside tests, so the cost is one relaxed atomic load per such allocation.
#ifndef IREE_RT_BASE_FAULT_HOOK_H_
#define IREE_RT_BASE_FAULT_HOOK_H_

#include <atomic>
#include <cerrno>

namespace iree_rt::base {

// Returns true to make the allocation being attempted fail. Called from any thread.
using AllocationFaultHook = bool (*)();

inline std::atomic<AllocationFaultHook> g_allocation_fault_hook{nullptr};

// Installs |hook| (nullptr removes it). Test-only.
inline void SetAllocationFaultHook(AllocationFaultHook hook) {
  g_allocation_fault_hook.store(hook, std::memory_order_relaxed);
}

// True when the installed hook fails this allocation; sets errno to ENOMEM then, as malloc and
// mmap would.
inline bool AllocationFaultInjected() {
  AllocationFaultHook hook = g_allocation_fault_hook.load(std::memory_order_relaxed);
  if (hook == nullptr || !hook()) return false;
  errno = ENOMEM;
  return true;
}

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_FAULT_HOOK_H_
