// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::Executable: a cuda-nvptx-fb executable loaded into CUmodules, one CUfunction per export.
//
// Data layout (checked against iree-compile 3.13.0 output): a 64-byte header (magic "CDA1",
// u32 version 0, u64 payload size, reserved zeros) followed by a FlatBuffer with identifier
// "CDA1" (schema/executable_def.fbs). Kernels take one 64-bit pointer per binding, then one
// 32-bit value per constant. Immutable once loaded.
#ifndef IREE_RT_DRIVERS_CUDA_EXECUTABLE_H_
#define IREE_RT_DRIVERS_CUDA_EXECUTABLE_H_

#include <cuda.h>

#include <span>
#include <vector>

#include "drivers/cuda/context.h"
#include "hal/executable.h"

namespace iree_rt::drivers::cuda {

inline constexpr const char* kExecutableFormat = "cuda-nvptx-fb";

// Device limits an executable is checked against when loaded.
struct KernelLimits {
  uint32_t max_block_dims[3] = {1024, 1024, 64};
  uint32_t max_threads_per_block = 1024;
  uint32_t max_dynamic_shared_bytes = 48 * 1024;
};

struct Kernel {
  CUfunction function = nullptr;
  uint32_t block_dims[3] = {1, 1, 1};
  uint32_t shared_memory_bytes = 0;
};

class Executable final : public hal::Executable {
 public:
  // Verifies |data| completely before any of it reaches the driver; INVALID_ARGUMENT or
  // INCOMPATIBLE naming the first problem, or the JIT log when the PTX does not load.
  static base::StatusOr<base::Ref<Executable>> Load(base::Ref<Context> context,
                                                    std::span<const uint8_t> data,
                                                    const KernelLimits& limits);
  // The verification half of Load, which needs no device: the exports |data| describes, or the
  // error Load would give before reaching the driver.
  static base::StatusOr<std::vector<hal::ExportInfo>> DescribeExports(std::span<const uint8_t> data,
                                                                      const KernelLimits& limits);
  ~Executable() override;

  const Kernel& kernel(uint32_t ordinal) const { return kernels_[ordinal]; }
  static Executable* Cast(hal::Executable* executable) { return dynamic_cast<Executable*>(executable); }

 private:
  Executable(base::Ref<Context> context, std::vector<hal::ExportInfo> exports)
      : hal::Executable(std::move(exports)), context_(std::move(context)) {}
  template <typename T, typename... Args>
  friend base::Ref<T> base::MakeRef(Args&&... args);

  const base::Ref<Context> context_;
  std::vector<CUmodule> modules_;
  std::vector<Kernel> kernels_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_EXECUTABLE_H_
