// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CpuRelax: the spin-loop hint (x86 PAUSE, arm YIELD), so a sibling hyperthread runs while the
// caller polls.
#ifndef IREE_RT_BASE_CPU_RELAX_H_
#define IREE_RT_BASE_CPU_RELAX_H_

namespace iree_rt::base {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_CPU_RELAX_H_
