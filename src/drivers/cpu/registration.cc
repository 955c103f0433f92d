// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/registration.h"

#include "drivers/cpu/driver.h"

namespace iree_rt::drivers::cpu {

base::Status RegisterCpuDrivers(hal::DriverRegistry& registry) {
  RT_RETURN_IF_ERROR(registry.Register(
      {"local-sync", "CPU: runs work inline on the calling thread",
       []() -> base::StatusOr<base::Ref<hal::Driver>> {
         return base::Ref<hal::Driver>(base::MakeRef<Driver>(Driver::Kind::kSync));
       }}));
  return registry.Register(
      {"local-task", "CPU: runs work on a pool of worker threads",
       []() -> base::StatusOr<base::Ref<hal::Driver>> {
         return base::Ref<hal::Driver>(base::MakeRef<Driver>(Driver::Kind::kTask));
       }});
}

}  // namespace iree_rt::drivers::cpu
