// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::DriverRegistry: the drivers built into this library, registered explicitly at start-up
// (drivers/registration.cc.in, generated from the CMake driver options).
//
// Thread-safety: Register before sharing; lookups may then run from any thread.
#ifndef IREE_RT_HAL_DRIVER_REGISTRY_H_
#define IREE_RT_HAL_DRIVER_REGISTRY_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/driver.h"

namespace iree_rt::hal {

struct DriverFactory {
  std::string name;
  std::string description;
  // UNAVAILABLE (with the reason) when the backend cannot run here, e.g. no CUDA driver.
  std::function<base::StatusOr<base::Ref<Driver>>()> create;
};

class DriverRegistry {
 public:
  base::Status Register(DriverFactory factory);
  const std::vector<DriverFactory>& factories() const { return factories_; }
  // NOT_FOUND naming the available drivers if |name| is unknown.
  base::StatusOr<base::Ref<Driver>> CreateDriver(std::string_view name) const;

 private:
  std::vector<DriverFactory> factories_;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_DRIVER_REGISTRY_H_
