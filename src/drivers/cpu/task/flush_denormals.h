// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ScopedFlushDenormals: flush-to-zero / denormals-are-zero on the calling thread for a scope.
//
// IREE's CPU runtime runs generated code with denormals flushed (on every task worker, and
// around inline dispatches), so kernels built by its compiler expect those numerics; they are
// also much faster on x86 where denormal operands trap to microcode.
#ifndef IREE_RT_DRIVERS_CPU_TASK_FLUSH_DENORMALS_H_
#define IREE_RT_DRIVERS_CPU_TASK_FLUSH_DENORMALS_H_

#include <cstdint>

namespace iree_rt::drivers::cpu {

// Sets x86 MXCSR.FTZ|DAZ or aarch64 FPCR.FZ on construction and restores the previous
// control register value on destruction. A no-op on other architectures (see Supported()).
// Must be destroyed on the thread that created it; not copyable or movable.
class ScopedFlushDenormals {
 public:
  ScopedFlushDenormals();
  ~ScopedFlushDenormals();

  ScopedFlushDenormals(const ScopedFlushDenormals&) = delete;
  ScopedFlushDenormals& operator=(const ScopedFlushDenormals&) = delete;

  // Whether this build can change the denormal mode (x86-64, x86 with SSE, aarch64).
  static constexpr bool Supported() {
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(__aarch64__)
    return true;
#else
    return false;
#endif
  }

 private:
  uint64_t saved_ = 0;  // the control register value to restore
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_TASK_FLUSH_DENORMALS_H_
