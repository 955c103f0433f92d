// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/executable_cache.h"

namespace iree_rt::drivers::cuda {

base::StatusOr<base::Ref<hal::Executable>> ExecutableCache::PrepareExecutableImpl(
    const hal::ExecutableParams& params) {
  if (!params.constants.empty()) {
    return base::InvalidArgumentError("cuda-nvptx-fb executables take no executable constants (",
                                      params.constants.size(), " given)");
  }
  RT_ASSIGN_OR_RETURN(base::Ref<Executable> executable, Executable::Load(context_, params.data, limits_));
  return base::Ref<hal::Executable>(std::move(executable));
}

}  // namespace iree_rt::drivers::cuda
