// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "session/driver_set.h"

#include <algorithm>

#include "drivers/registration.h"
#include "hal/device_uri.h"

namespace iree_rt::session {
namespace {

using base::Ref;
using base::StatusOr;

std::string JoinNames(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) joined += joined.empty() ? name : ", " + name;
  return joined.empty() ? "none" : joined;
}

}  // namespace

StatusOr<std::unique_ptr<DriverSet>> DriverSet::Create(
    std::span<const std::string> allowed, std::map<std::string, DeviceParams, std::less<>> defaults) {
  std::unique_ptr<DriverSet> set(new DriverSet());
  RT_RETURN_IF_ERROR(drivers::RegisterEnabledDrivers(set->registry_));
  std::vector<std::string> built_in;
  for (const hal::DriverFactory& factory : set->registry_.factories()) built_in.push_back(factory.name);
  if (allowed.empty()) {
    set->names_ = built_in;
  } else {
    for (const std::string& name : allowed) {
      if (std::find(built_in.begin(), built_in.end(), name) == built_in.end()) {
        return base::NotFoundError("allowed driver '", name, "' is not built into this library (",
                                   JoinNames(built_in), ")");
      }
      set->names_.push_back(name);
    }
  }
  set->defaults_ = std::move(defaults);
  return set;
}

StatusOr<Ref<hal::Driver>> DriverSet::Driver(std::string_view name) {
  if (std::find(names_.begin(), names_.end(), name) == names_.end()) {
    return base::NotFoundError("no driver named '", name, "' (available: ", JoinNames(names_), ")");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = drivers_.find(name);
  if (it != drivers_.end()) return it->second;
  RT_ASSIGN_OR_RETURN(Ref<hal::Driver> driver, registry_.CreateDriver(name));
  drivers_.emplace(std::string(name), driver);
  return driver;
}

StatusOr<std::vector<hal::DeviceInfo>> DriverSet::EnumerateDevices(const char* name) {
  if (name) {
    RT_ASSIGN_OR_RETURN(Ref<hal::Driver> driver, Driver(name));
    return driver->EnumerateDevices();
  }
  std::vector<hal::DeviceInfo> devices;
  for (const std::string& each : names_) {
    StatusOr<Ref<hal::Driver>> driver = Driver(each);
    // A backend that cannot run on this machine simply has no devices.
    if (!driver.ok() && driver.status().code() == base::StatusCode::kUnavailable) continue;
    if (!driver.ok()) return driver.status();
    RT_ASSIGN_OR_RETURN(std::vector<hal::DeviceInfo> found, (*driver)->EnumerateDevices());
    for (hal::DeviceInfo& info : found) devices.push_back(std::move(info));
  }
  return devices;
}

StatusOr<Ref<hal::Device>> DriverSet::CreateDevice(std::string_view uri, const DeviceParams* overrides,
                                                   Ref<hal::Driver>* out_driver) {
  RT_ASSIGN_OR_RETURN(hal::DeviceUri parsed, hal::DeviceUri::Parse(uri));
  if (overrides) {
    for (const auto& [key, value] : *overrides) parsed.params[key] = value;
  }
  auto defaults = defaults_.find(parsed.driver);
  if (defaults != defaults_.end()) {
    for (const auto& [key, value] : defaults->second) parsed.params.emplace(key, value);
  }
  RT_ASSIGN_OR_RETURN(Ref<hal::Driver> driver, Driver(parsed.driver));
  RT_ASSIGN_OR_RETURN(Ref<hal::Device> device, driver->CreateDevice(parsed));
  if (out_driver) *out_driver = std::move(driver);
  return device;
}

}  // namespace iree_rt::session
