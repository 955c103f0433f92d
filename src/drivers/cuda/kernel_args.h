// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// KernelArgs: the kernelParams array of one launch, packed as the compiler's kernels expect:
// one 64-bit device address per binding, then one 32-bit value per constant. Each value gets
// its own 8-byte slot; the pointers handed to CUDA point into the slots.
#ifndef IREE_RT_DRIVERS_CUDA_KERNEL_ARGS_H_
#define IREE_RT_DRIVERS_CUDA_KERNEL_ARGS_H_

#include <cuda.h>

#include <cstdint>
#include <span>

#include "base/inline_vector.h"
#include "base/status.h"

namespace iree_rt::drivers::cuda {

// Kernels from iree-compile declare every binding pointer 16-byte aligned (PTX `.align 16`) and
// use vector loads accordingly; a misaligned address would fault the GPU and poison the context
// for the whole process, so it is refused before launch.
inline constexpr uint64_t kBindingAlignment = 16;

inline base::Status CheckBindingAlignment(std::span<const CUdeviceptr> bindings) {
  for (size_t i = 0; i < bindings.size(); ++i) {
    if (bindings[i] % kBindingAlignment != 0) {
      return base::InvalidArgumentError("binding ", i, " address 0x", std::hex, bindings[i], std::dec,
                                        " is not ", kBindingAlignment,
                                        "-byte aligned as CUDA kernels require (check the binding offset)");
    }
  }
  return base::Status::Ok();
}

class KernelArgs {
 public:
  KernelArgs(std::span<const CUdeviceptr> bindings, std::span<const uint32_t> constants) {
    for (CUdeviceptr binding : bindings) slots_.push_back(binding);
    for (uint32_t constant : constants) slots_.push_back(constant);
    // Taken once every slot is in place (growing may move them).
    for (uint64_t& slot : slots_) pointers_.push_back(&slot);
  }
  KernelArgs(const KernelArgs&) = delete;
  KernelArgs& operator=(const KernelArgs&) = delete;

  // Valid while this object lives; CUDA copies the values at launch / node creation.
  void** params() { return pointers_.empty() ? nullptr : pointers_.begin(); }

 private:
  // A u32 stored in a u64 slot sits in its low bytes on little-endian hosts, where CUDA runs.
  // Inline for typical dispatches: a launch then allocates nothing.
  base::InlineVector<uint64_t, 16> slots_;
  base::InlineVector<void*, 16> pointers_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_KERNEL_ARGS_H_
