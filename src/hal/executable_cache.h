// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::ExecutableCache: turns compiled executable data into Executables for one device.
//
// Thread-safety: PrepareExecutable may be called from any thread.
#ifndef IREE_RT_HAL_EXECUTABLE_CACHE_H_
#define IREE_RT_HAL_EXECUTABLE_CACHE_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/executable.h"

namespace iree_rt::hal {

struct ExecutableParams {
  std::string_view format;             // e.g. "embedded-elf-x86_64", "cuda-nvptx-fb"
  std::span<const uint8_t> data;       // the executable bytes; copied or consumed before returning
  std::span<const uint32_t> constants;  // executable-level constants
};

class ExecutableCache : public base::RefObject {
 public:
  // Whether this device can load executables of |format|.
  bool CanPrepareFormat(std::string_view format) const { return CanPrepareFormatImpl(format); }
  // The formats this device loads, for messages and queries.
  virtual std::vector<std::string> SupportedFormats() const = 0;

  // Verifies and loads an executable. INCOMPATIBLE for an unsupported format (naming the supported
  // ones), INVALID_ARGUMENT for empty data, and the loader's error for malformed data, which is
  // never executed.
  base::StatusOr<base::Ref<Executable>> PrepareExecutable(const ExecutableParams& params);

 protected:
  ExecutableCache() = default;

 private:
  virtual bool CanPrepareFormatImpl(std::string_view format) const = 0;
  virtual base::StatusOr<base::Ref<Executable>> PrepareExecutableImpl(
      const ExecutableParams& params) = 0;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_EXECUTABLE_CACHE_H_
