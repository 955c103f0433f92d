// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Registers the local-sync and local-task drivers.
#ifndef IREE_RT_DRIVERS_CPU_REGISTRATION_H_
#define IREE_RT_DRIVERS_CPU_REGISTRATION_H_

#include "hal/driver_registry.h"

namespace iree_rt::drivers::cpu {

base::Status RegisterCpuDrivers(hal::DriverRegistry& registry);

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_REGISTRATION_H_
