// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// DeviceUri: "driver", "driver://path" or "driver://path?key=value&key2=value2".
//
// Examples: "local-task", "local-task://?workers=4", "cuda://0", "cuda://GPU-<uuid>".
#ifndef IREE_RT_HAL_DEVICE_URI_H_
#define IREE_RT_HAL_DEVICE_URI_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"

namespace iree_rt::hal {

struct DeviceUri {
  std::string driver;
  std::string path;
  std::map<std::string, std::string, std::less<>> params;

  static base::StatusOr<DeviceUri> Parse(std::string_view uri);

  // The parameter |key|, or nullopt.
  std::optional<std::string_view> Param(std::string_view key) const;
  // Parses parameter |key| as an unsigned integer in [min, max]; nullopt if absent.
  base::StatusOr<std::optional<uint64_t>> UintParam(std::string_view key, uint64_t min,
                                                    uint64_t max) const;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_DEVICE_URI_H_
