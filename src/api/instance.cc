// InstanceHandle: the C ABI's instance over the session layer (session::DriverSet, the VM
// instance), with the options of iree_rt_instance_options_t applied.
#include "api/handles.h"
#include "session/vm_instance.h"

namespace iree_rt::api {

using base::Ref;
using base::StatusOr;

StatusOr<Ref<InstanceHandle>> InstanceHandle::Create(const InstanceOptionsHandle* options) {
  Ref<InstanceHandle> instance = Ref<InstanceHandle>::Adopt(new InstanceHandle());
  std::vector<std::string> allowed;
  std::map<std::string, session::DeviceParams, std::less<>> defaults;
  vm::Limits limits;
  if (options) {
    allowed = options->allowed_drivers;
    for (const auto& [driver, params] : options->device_params) defaults[driver].insert(params.begin(), params.end());
    limits = options->limits;
  }
  RT_ASSIGN_OR_RETURN(instance->drivers_, session::DriverSet::Create(allowed, std::move(defaults)));
  RT_ASSIGN_OR_RETURN(instance->vm_instance_, session::CreateVmInstance(limits));
  return instance;
}

StatusOr<std::vector<hal::DeviceInfo>> InstanceHandle::EnumerateDevices(const char* driver_name) {
  return drivers_->EnumerateDevices(driver_name);
}

StatusOr<Ref<DeviceHandle>> InstanceHandle::CreateDevice(std::string_view uri,
                                                         const DeviceOptionsHandle* options) {
  session::DeviceParams overrides;
  if (options) overrides.insert(options->params.begin(), options->params.end());
  Ref<hal::Driver> driver;
  RT_ASSIGN_OR_RETURN(Ref<hal::Device> device, drivers_->CreateDevice(uri, &overrides, &driver));
  RT_ASSIGN_OR_RETURN(Ref<hal::ExecutableCache> cache, device->CreateExecutableCache());
  return base::MakeRef<DeviceHandle>(std::move(driver), std::move(device), std::move(cache));
}

}  // namespace iree_rt::api
