// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A CPU device by URI ("local-sync", "local-task"), for the native modules' tests.
#ifndef IREE_RT_TESTS_UNIT_MODULES_TEST_DEVICE_H_
#define IREE_RT_TESTS_UNIT_MODULES_TEST_DEVICE_H_

#include <string_view>

#include "drivers/cpu/registration.h"
#include "hal/device.h"
#include "hal/device_uri.h"
#include "hal/driver_registry.h"

namespace iree_rt::testing {

inline base::StatusOr<base::Ref<hal::Device>> CreateCpuDevice(std::string_view uri_text) {
  hal::DriverRegistry registry;
  RT_RETURN_IF_ERROR(drivers::cpu::RegisterCpuDrivers(registry));
  RT_ASSIGN_OR_RETURN(hal::DeviceUri uri, hal::DeviceUri::Parse(uri_text));
  RT_ASSIGN_OR_RETURN(base::Ref<hal::Driver> driver, registry.CreateDriver(uri.driver));
  return driver->CreateDevice(uri);
}

}  // namespace iree_rt::testing

#endif  // IREE_RT_TESTS_UNIT_MODULES_TEST_DEVICE_H_
