// InstanceHandle: driver selection and device-URI assembly, the one part of the shim with
// behaviour of its own (it would move into the HAL if a second consumer appears).
#include <algorithm>

#include "drivers/registration.h"
#include "api/handles.h"
#include "hal/device_uri.h"
#include "modules/hal/ref_types.h"

namespace iree_rt::api {

using base::Ref;
using base::StatusOr;

namespace {

std::string JoinNames(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) joined += joined.empty() ? name : ", " + name;
  return joined.empty() ? "none" : joined;
}

}  // namespace

StatusOr<Ref<InstanceHandle>> InstanceHandle::Create(const InstanceOptionsHandle* options) {
  Ref<InstanceHandle> instance = Ref<InstanceHandle>::Adopt(new InstanceHandle());
  RT_RETURN_IF_ERROR(drivers::RegisterEnabledDrivers(instance->registry_));
  instance->vm_instance_ = vm::Instance::Create();
  RT_RETURN_IF_ERROR(modules::hal::RegisterRefTypes(*instance->vm_instance_));
  std::vector<std::string> built_in;
  for (const hal::DriverFactory& factory : instance->registry_.factories()) {
    built_in.push_back(factory.name);
  }
  if (!options || options->allowed_drivers.empty()) {
    instance->driver_names_ = built_in;
  } else {
    for (const std::string& name : options->allowed_drivers) {
      if (std::find(built_in.begin(), built_in.end(), name) == built_in.end()) {
        return base::NotFoundError("allowed driver '", name, "' is not built into this library (",
                                   JoinNames(built_in), ")");
      }
      instance->driver_names_.push_back(name);
    }
  }
  if (options) {
    instance->device_params_ = options->device_params;
    instance->vm_instance_->set_limits(options->limits);
  }
  return instance;
}

StatusOr<Ref<hal::Driver>> InstanceHandle::GetDriver(std::string_view name) {
  if (std::find(driver_names_.begin(), driver_names_.end(), name) == driver_names_.end()) {
    return base::NotFoundError("no driver named '", name,
                               "' (available: ", JoinNames(driver_names_), ")");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = drivers_.find(name);
  if (it != drivers_.end()) return it->second;
  RT_ASSIGN_OR_RETURN(Ref<hal::Driver> driver, registry_.CreateDriver(name));
  drivers_.emplace(std::string(name), driver);
  return driver;
}

StatusOr<std::vector<hal::DeviceInfo>> InstanceHandle::EnumerateDevices(const char* driver_name) {
  if (driver_name) {
    RT_ASSIGN_OR_RETURN(Ref<hal::Driver> driver, GetDriver(driver_name));
    return driver->EnumerateDevices();
  }
  std::vector<hal::DeviceInfo> devices;
  for (const std::string& name : driver_names_) {
    StatusOr<Ref<hal::Driver>> driver = GetDriver(name);
    // A backend that cannot run on this machine simply has no devices.
    if (!driver.ok() && driver.status().code() == base::StatusCode::kUnavailable) continue;
    if (!driver.ok()) return driver.status();
    RT_ASSIGN_OR_RETURN(std::vector<hal::DeviceInfo> found, (*driver)->EnumerateDevices());
    for (hal::DeviceInfo& info : found) devices.push_back(std::move(info));
  }
  return devices;
}

StatusOr<Ref<DeviceHandle>> InstanceHandle::CreateDevice(std::string_view uri,
                                                         const DeviceOptionsHandle* options) {
  RT_ASSIGN_OR_RETURN(hal::DeviceUri parsed, hal::DeviceUri::Parse(uri));
  // Precedence: device options, then the URI, then the instance's per-driver defaults.
  if (options) {
    for (const auto& [key, value] : options->params) parsed.params[key] = value;
  }
  auto defaults = device_params_.find(parsed.driver);
  if (defaults != device_params_.end()) {
    for (const auto& [key, value] : defaults->second) parsed.params.emplace(key, value);
  }
  RT_ASSIGN_OR_RETURN(Ref<hal::Driver> driver, GetDriver(parsed.driver));
  RT_ASSIGN_OR_RETURN(Ref<hal::Device> device, driver->CreateDevice(parsed));
  RT_ASSIGN_OR_RETURN(Ref<hal::ExecutableCache> cache, device->CreateExecutableCache());
  return base::MakeRef<DeviceHandle>(std::move(driver), std::move(device), std::move(cache));
}

}  // namespace iree_rt::api
