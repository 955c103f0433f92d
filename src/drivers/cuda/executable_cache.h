// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::ExecutableCache: loads cuda-nvptx-fb executables for one device. There is no caching
// across calls (the CUDA driver keeps its own JIT cache of PTX).
#ifndef IREE_RT_DRIVERS_CUDA_EXECUTABLE_CACHE_H_
#define IREE_RT_DRIVERS_CUDA_EXECUTABLE_CACHE_H_

#include "drivers/cuda/context.h"
#include "drivers/cuda/executable.h"
#include "hal/executable_cache.h"

namespace iree_rt::drivers::cuda {

class ExecutableCache final : public hal::ExecutableCache {
 public:
  ExecutableCache(base::Ref<Context> context, const KernelLimits& limits)
      : context_(std::move(context)), limits_(limits) {}

  std::vector<std::string> SupportedFormats() const override { return {kExecutableFormat}; }

 private:
  bool CanPrepareFormatImpl(std::string_view format) const override { return format == kExecutableFormat; }
  base::StatusOr<base::Ref<hal::Executable>> PrepareExecutableImpl(
      const hal::ExecutableParams& params) override;

  const base::Ref<Context> context_;
  const KernelLimits limits_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_EXECUTABLE_CACHE_H_
