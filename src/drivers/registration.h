// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RegisterEnabledDrivers: registers every driver enabled at configure time. Defined in the file
// CMake generates from src/drivers/registration.cc.in (one call per IREE_RT_DRIVER_* option that
// is ON); there is no static self-registration.
#ifndef IREE_RT_DRIVERS_REGISTRATION_H_
#define IREE_RT_DRIVERS_REGISTRATION_H_

#include "base/status.h"
#include "hal/driver_registry.h"

namespace iree_rt::drivers {

base::Status RegisterEnabledDrivers(hal::DriverRegistry& registry);

}  // namespace iree_rt::drivers

#endif  // IREE_RT_DRIVERS_REGISTRATION_H_
