// KernelArgs: the kernelParams array of one launch, packed as the compiler's kernels expect:
// one 64-bit device address per binding, then one 32-bit value per constant. Each value gets
// its own 8-byte slot; the pointers handed to CUDA point into the slots.
#ifndef IREE_RT_DRIVERS_CUDA_KERNEL_ARGS_H_
#define IREE_RT_DRIVERS_CUDA_KERNEL_ARGS_H_

#include <cuda.h>

#include <cstdint>
#include <span>
#include <vector>

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
  KernelArgs(std::span<const CUdeviceptr> bindings, std::span<const uint32_t> constants)
      : slots_(bindings.size() + constants.size()), pointers_(slots_.size()) {
    for (size_t i = 0; i < bindings.size(); ++i) slots_[i] = bindings[i];
    for (size_t j = 0; j < constants.size(); ++j) slots_[bindings.size() + j] = constants[j];
    for (size_t k = 0; k < slots_.size(); ++k) pointers_[k] = &slots_[k];
  }
  KernelArgs(const KernelArgs&) = delete;
  KernelArgs& operator=(const KernelArgs&) = delete;

  // Valid while this object lives; CUDA copies the values at launch / node creation.
  void** params() { return pointers_.empty() ? nullptr : pointers_.data(); }

 private:
  // A u32 stored in a u64 slot sits in its low bytes on little-endian hosts, where CUDA runs.
  std::vector<uint64_t> slots_;
  std::vector<void*> pointers_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_KERNEL_ARGS_H_
