// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// KernelArgs: the kernelParams array of one launch, packed as the compiler's kernels expect:
// one 64-bit device address per binding, then one 32-bit value per constant. Each value gets
// its own 8-byte slot; the pointers handed to CUDA point into the slots. PrepareDispatch turns a
// replayed dispatch into a kernel and its arguments for both launch paths (stream and graph).
#ifndef IREE_RT_DRIVERS_CUDA_KERNEL_ARGS_H_
#define IREE_RT_DRIVERS_CUDA_KERNEL_ARGS_H_

#include <cuda.h>

#include <cstdint>
#include <span>

#include "base/inline_vector.h"
#include "base/status.h"
#include "drivers/cuda/executable.h"
#include "hal/utils/deferred_command_buffer.h"

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
  KernelArgs() = default;
  KernelArgs(const KernelArgs&) = delete;
  KernelArgs& operator=(const KernelArgs&) = delete;

  void Pack(std::span<const CUdeviceptr> bindings, std::span<const uint32_t> constants) {
    slots_.clear();
    pointers_.clear();
    for (CUdeviceptr binding : bindings) slots_.push_back(binding);
    for (uint32_t constant : constants) slots_.push_back(constant);
    // Taken once every slot is in place (growing may move them).
    for (uint64_t& slot : slots_) pointers_.push_back(&slot);
  }

  // Valid while this object lives; CUDA copies the values at launch / node creation.
  void** params() { return pointers_.empty() ? nullptr : pointers_.begin(); }

 private:
  // A u32 stored in a u64 slot sits in its low bytes on little-endian hosts, where CUDA runs.
  // Inline for typical dispatches: a launch then allocates nothing.
  base::InlineVector<uint64_t, 16> slots_;
  base::InlineVector<void*, 16> pointers_;
};

// Resolves a replayed dispatch: the CUDA kernel of |export_ordinal| into |*kernel| (null when
// the grid is empty: nothing to launch) and the binding addresses and constants into |*args|.
// Refuses indirect workgroup counts, executables of other drivers and misaligned bindings.
base::Status PrepareDispatch(hal::Executable& executable, uint32_t export_ordinal,
                             const uint32_t workgroup_count[3], const hal::utils::ResolvedRef* indirect_count,
                             std::span<const uint32_t> constants,
                             std::span<const hal::utils::ResolvedRef> bindings, const Kernel** kernel,
                             KernelArgs* args);

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_KERNEL_ARGS_H_
