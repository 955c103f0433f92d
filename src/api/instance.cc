// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// InstanceHandle: the C ABI's instance over the session layer (session::DriverSet, the VM
// instance), with the options of iree_rt_instance_options_t applied.
#include "api/handles.h"

#include <cstdio>

#include "base/trace.h"
#include "session/vm_instance.h"

namespace iree_rt::api {

using base::Ref;
using base::StatusOr;

StatusOr<Ref<InstanceHandle>> InstanceHandle::Create(const InstanceOptionsHandle* options) {
  Ref<InstanceHandle> instance = Ref<InstanceHandle>::Adopt(new InstanceHandle());
  // A trace this instance starts ends with it; one from IREE_RT_TRACE lasts for the process.
  base::trace::StartFromEnvironment();
  if (options && !options->trace_path.empty()) {
    instance->owns_trace_ = !base::trace::Enabled();
    base::trace::Start(options->trace_path);
  }
  RT_ASSIGN_OR_RETURN(instance->drivers_,
                      options ? session::DriverSet::Create(options->allowed_drivers, options->device_params)
                              : session::DriverSet::Create());
  RT_ASSIGN_OR_RETURN(instance->vm_instance_, session::CreateVmInstance(options ? options->limits : vm::Limits()));
  return instance;
}

StatusOr<std::vector<hal::DeviceInfo>> InstanceHandle::EnumerateDevices(const char* driver_name) {
  return drivers_->EnumerateDevices(driver_name);
}

StatusOr<Ref<DeviceHandle>> InstanceHandle::CreateDevice(std::string_view uri,
                                                         const DeviceOptionsHandle* options) {
  Ref<hal::Driver> driver;
  RT_ASSIGN_OR_RETURN(Ref<hal::Device> device,
                      drivers_->CreateDevice(uri, options ? &options->params : nullptr, &driver));
  RT_ASSIGN_OR_RETURN(Ref<hal::ExecutableCache> cache, device->CreateExecutableCache());
  return base::MakeRef<DeviceHandle>(std::move(driver), std::move(device), std::move(cache));
}

base::Status InstanceHandle::FlushTrace() { return base::trace::Flush(); }

InstanceHandle::~InstanceHandle() {
  base::Status status = owns_trace_ ? base::trace::Stop() : base::trace::Flush();
  // A destructor has no status to return: the reason goes to stderr.
  if (!status.ok()) std::fprintf(stderr, "iree_rt: %s\n", status.ToString().c_str());
}

}  // namespace iree_rt::api
