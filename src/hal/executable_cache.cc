// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/executable_cache.h"

namespace iree_rt::hal {

base::StatusOr<base::Ref<Executable>> ExecutableCache::PrepareExecutable(
    const ExecutableParams& params) {
  if (!CanPrepareFormatImpl(params.format)) {
    std::string supported;
    for (const std::string& format : SupportedFormats()) {
      supported += supported.empty() ? format : ", " + format;
    }
    return base::IncompatibleError("executable format '", params.format,
                                   "' is not supported by this device (supported: ", supported, ")");
  }
  if (params.data.empty()) return base::InvalidArgumentError("executable data is empty");
  return PrepareExecutableImpl(params);
}

}  // namespace iree_rt::hal
