// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/task/flush_denormals.h"

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

namespace iree_rt::drivers::cpu {
namespace {

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64)
// MXCSR bit 15 flushes denormal results (FTZ); bit 6 reads denormal inputs as zero (DAZ).
constexpr uint32_t kMxcsrFlushBits = (1u << 15) | (1u << 6);

uint64_t ReadControl() { return _mm_getcsr(); }
void WriteControl(uint64_t value) { _mm_setcsr(static_cast<uint32_t>(value)); }
uint64_t FlushBits() { return kMxcsrFlushBits; }
#elif defined(__aarch64__)
// FPCR.FZ (bit 24) flushes single and double precision denormal inputs and results.
constexpr uint64_t kFpcrFlushBits = uint64_t{1} << 24;

uint64_t ReadControl() {
  uint64_t fpcr;
  __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
  return fpcr;
}
void WriteControl(uint64_t value) { __asm__ __volatile__("msr fpcr, %0" : : "r"(value)); }
uint64_t FlushBits() { return kFpcrFlushBits; }
#else
uint64_t ReadControl() { return 0; }
void WriteControl(uint64_t) {}
uint64_t FlushBits() { return 0; }
#endif

}  // namespace

ScopedFlushDenormals::ScopedFlushDenormals() : saved_(ReadControl()) {
  if (FlushBits() != 0) WriteControl(saved_ | FlushBits());
}

ScopedFlushDenormals::~ScopedFlushDenormals() {
  if (FlushBits() != 0) WriteControl(saved_);
}

}  // namespace iree_rt::drivers::cpu
