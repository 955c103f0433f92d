// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Sleep/wake on a 32-bit atomic word, for the task system's idle paths.
//
// A raw futex (rather than a mutex + condition variable) lets a waker skip the syscall when no
// thread sleeps and lets a sleeper re-check its condition atomically with going to sleep; a
// futex wake costs microseconds (docs: perf_anchors.md §5), so callers spin briefly first.
#ifndef IREE_RT_DRIVERS_CPU_TASK_FUTEX_H_
#define IREE_RT_DRIVERS_CPU_TASK_FUTEX_H_

#include <atomic>
#include <cstdint>

namespace iree_rt::drivers::cpu {

// Blocks while |*word| == |expected|. May return spuriously: callers re-check in a loop.
void FutexWait(std::atomic<uint32_t>* word, uint32_t expected);

// Wakes up to |count| threads blocked in FutexWait on |word|.
void FutexWake(std::atomic<uint32_t>* word, uint32_t count);

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_TASK_FUTEX_H_
