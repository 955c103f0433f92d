// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/driver_registry.h"

namespace iree_rt::hal {

base::Status DriverRegistry::Register(DriverFactory factory) {
  for (const DriverFactory& existing : factories_) {
    if (existing.name == factory.name) {
      return base::MakeStatus(base::StatusCode::kAlreadyExists, "driver '", factory.name,
                              "' is already registered");
    }
  }
  factories_.push_back(std::move(factory));
  return base::Status::Ok();
}

base::StatusOr<base::Ref<Driver>> DriverRegistry::CreateDriver(std::string_view name) const {
  std::string available;
  for (const DriverFactory& factory : factories_) {
    if (factory.name == name) return factory.create();
    available += available.empty() ? factory.name : ", " + factory.name;
  }
  return base::NotFoundError("no driver named '", name, "' (available: ", available, ")");
}

}  // namespace iree_rt::hal
