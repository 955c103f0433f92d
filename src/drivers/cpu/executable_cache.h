// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cpu::ExecutableCache: loads the CPU executable formats this host can run.
#ifndef IREE_RT_DRIVERS_CPU_EXECUTABLE_CACHE_H_
#define IREE_RT_DRIVERS_CPU_EXECUTABLE_CACHE_H_

#include "hal/executable_cache.h"

namespace iree_rt::drivers::cpu {

class ExecutableCache final : public hal::ExecutableCache {
 public:
  std::vector<std::string> SupportedFormats() const override;

 private:
  bool CanPrepareFormatImpl(std::string_view format) const override;
  base::StatusOr<base::Ref<hal::Executable>> PrepareExecutableImpl(
      const hal::ExecutableParams& params) override;
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_EXECUTABLE_CACHE_H_
