// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cpu_test_util.h"

#include <unistd.h>

#include <cstdlib>

#include "drivers/cpu/registration.h"
#include "hal/device.h"
#include "hal/device_uri.h"
#include "hal/driver_registry.h"

namespace iree_rt::testing {

namespace {

base::StatusOr<base::Ref<hal::Device>> CreateLocalSyncDevice() {
  hal::DriverRegistry registry;
  RT_RETURN_IF_ERROR(drivers::cpu::RegisterCpuDrivers(registry));
  RT_ASSIGN_OR_RETURN(hal::DeviceUri uri, hal::DeviceUri::Parse("local-sync"));
  RT_ASSIGN_OR_RETURN(base::Ref<hal::Driver> driver, registry.CreateDriver(uri.driver));
  return driver->CreateDevice(uri);
}

}  // namespace

hal::Device& CpuDevice() {
  // Deliberately never released: tests in any order share it, and it holds no threads.
  static hal::Device* device = [] {
    base::StatusOr<base::Ref<hal::Device>> created = CreateLocalSyncDevice();
    if (!created.ok()) {
      ADD_FAILURE() << created.status().ToString();
      std::abort();
    }
    return std::move(created).value().Detach();
  }();
  return *device;
}

hal::Allocator& CpuAllocator() { return CpuDevice().allocator(); }

std::string TempPath(std::string_view name) {
  return ::testing::TempDir() + "iree_rt_test_" + std::to_string(::getpid()) + "_" +
         std::string(name);
}

}  // namespace iree_rt::testing
