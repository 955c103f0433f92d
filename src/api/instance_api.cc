// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_instance_options_*, iree_rt_instance_* and iree_rt_device_info_list_*.
#include "api/handles.h"
#include "api/status_bridge.h"
#include "iree_rt.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace base = iree_rt::base;
using api::CheckIndex;
using api::CheckNotNull;
using api::DeviceInfoListHandle;
using api::FromHandle;
using api::Guard;
using api::InstanceHandle;
using api::InstanceOptionsHandle;

iree_rt_status_t iree_rt_instance_options_create(iree_rt_instance_options_t* out_options) {
  return Guard(__func__, [&]() -> Status {
    RT_RETURN_IF_ERROR(CheckNotNull(out_options, "out_options"));
    *out_options = api::ToHandle(MakeRef<InstanceOptionsHandle>());
    return Status::Ok();
  });
}

void iree_rt_instance_options_retain(iree_rt_instance_options_t options) {
  api::RetainHandle(options);
}

void iree_rt_instance_options_release(iree_rt_instance_options_t options) {
  api::ReleaseHandle(options);
}

iree_rt_status_t iree_rt_instance_options_allow_driver(iree_rt_instance_options_t options,
                                                       const char* driver_name) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(InstanceOptionsHandle * o, FromHandle(options, "options"));
    RT_RETURN_IF_ERROR(CheckNotNull(driver_name, "driver_name"));
    auto& allowed = o->allowed_drivers;
    if (std::find(allowed.begin(), allowed.end(), driver_name) == allowed.end()) {
      allowed.emplace_back(driver_name);
    }
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_instance_options_set_device_param(iree_rt_instance_options_t options,
                                                           const char* driver_name, const char* key,
                                                           const char* value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(InstanceOptionsHandle * o, FromHandle(options, "options"));
    RT_RETURN_IF_ERROR(CheckNotNull(driver_name, "driver_name"));
    RT_RETURN_IF_ERROR(CheckNotNull(key, "key"));
    RT_RETURN_IF_ERROR(CheckNotNull(value, "value"));
    o->device_params[driver_name][key] = value;
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_instance_options_set_limit(iree_rt_instance_options_t options,
                                                   iree_rt_limit_t limit, uint64_t value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(InstanceOptionsHandle * o, FromHandle(options, "options"));
    return iree_rt::vm::SetLimit(o->limits, static_cast<uint32_t>(limit), value);
  });
}

iree_rt_status_t iree_rt_instance_options_set_trace_path(iree_rt_instance_options_t options,
                                                        const char* path) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(InstanceOptionsHandle * o, FromHandle(options, "options"));
    RT_RETURN_IF_ERROR(CheckNotNull(path, "path"));
    if (!*path) return base::InvalidArgumentError("the trace path is empty");
    o->trace_path = path;
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_instance_create(uint32_t abi_version, iree_rt_instance_options_t options,
                                         iree_rt_instance_t* out_instance) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(InstanceOptionsHandle * o, api::FromNullableHandle(options, "options"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_instance, "out_instance"));
    uint32_t major = abi_version >> 16, minor = abi_version & 0xFFFF;
    if (major != IREE_RT_ABI_VERSION_MAJOR || minor > IREE_RT_ABI_VERSION_MINOR) {
      return base::IncompatibleError("the caller was built for ABI ", major, ".", minor,
                                     " but this library implements ABI ", IREE_RT_ABI_VERSION_MAJOR,
                                     ".", IREE_RT_ABI_VERSION_MINOR);
    }
    RT_ASSIGN_OR_RETURN(Ref<InstanceHandle> instance, InstanceHandle::Create(o));
    *out_instance = api::ToHandle(std::move(instance));
    return Status::Ok();
  });
}

void iree_rt_instance_retain(iree_rt_instance_t instance) { api::RetainHandle(instance); }

void iree_rt_instance_release(iree_rt_instance_t instance) { api::ReleaseHandle(instance); }

iree_rt_status_t iree_rt_instance_trace_flush(iree_rt_instance_t instance) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(InstanceHandle * i, FromHandle(instance, "instance"));
    return i->FlushTrace();
  });
}

iree_rt_status_t iree_rt_instance_driver_count(iree_rt_instance_t instance, size_t* out_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(InstanceHandle * i, FromHandle(instance, "instance"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_count, "out_count"));
    *out_count = i->driver_names().size();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_instance_driver_name(iree_rt_instance_t instance, size_t index,
                                              const char** out_name) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(InstanceHandle * i, FromHandle(instance, "instance"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_name, "out_name"));
    RT_RETURN_IF_ERROR(CheckIndex(index, i->driver_names().size(), "index"));
    *out_name = i->driver_names()[index].c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_instance_enumerate_devices(iree_rt_instance_t instance,
                                                    const char* driver_name,
                                                    iree_rt_device_info_list_t* out_list) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(InstanceHandle * i, FromHandle(instance, "instance"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_list, "out_list"));
    RT_ASSIGN_OR_RETURN(std::vector<iree_rt::hal::DeviceInfo> devices,
                        i->EnumerateDevices(driver_name));
    *out_list = api::ToHandle(MakeRef<DeviceInfoListHandle>(std::move(devices)));
    return Status::Ok();
  });
}

void iree_rt_device_info_list_retain(iree_rt_device_info_list_t list) { api::RetainHandle(list); }

void iree_rt_device_info_list_release(iree_rt_device_info_list_t list) { api::ReleaseHandle(list); }

iree_rt_status_t iree_rt_device_info_list_count(iree_rt_device_info_list_t list,
                                                size_t* out_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceInfoListHandle * l, FromHandle(list, "list"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_count, "out_count"));
    *out_count = l->devices.size();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_device_info_list_name(iree_rt_device_info_list_t list, size_t index,
                                               const char** out_name) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceInfoListHandle * l, FromHandle(list, "list"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_name, "out_name"));
    RT_RETURN_IF_ERROR(CheckIndex(index, l->devices.size(), "index"));
    *out_name = l->devices[index].name.c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_device_info_list_uri(iree_rt_device_info_list_t list, size_t index,
                                              const char** out_uri) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceInfoListHandle * l, FromHandle(list, "list"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_uri, "out_uri"));
    RT_RETURN_IF_ERROR(CheckIndex(index, l->devices.size(), "index"));
    *out_uri = l->devices[index].uri.c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_device_info_list_property_count(iree_rt_device_info_list_t list,
                                                         size_t index, size_t* out_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceInfoListHandle * l, FromHandle(list, "list"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_count, "out_count"));
    RT_RETURN_IF_ERROR(CheckIndex(index, l->devices.size(), "index"));
    *out_count = l->devices[index].properties.size();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_device_info_list_property_key(iree_rt_device_info_list_t list,
                                                       size_t index, size_t property,
                                                       const char** out_key) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceInfoListHandle * l, FromHandle(list, "list"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_key, "out_key"));
    RT_RETURN_IF_ERROR(CheckIndex(index, l->devices.size(), "index"));
    RT_RETURN_IF_ERROR(CheckIndex(property, l->devices[index].properties.size(), "property"));
    *out_key = l->devices[index].properties[property].first.c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_device_info_list_property_value(iree_rt_device_info_list_t list,
                                                         size_t index, size_t property,
                                                         const char** out_value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceInfoListHandle * l, FromHandle(list, "list"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_value, "out_value"));
    RT_RETURN_IF_ERROR(CheckIndex(index, l->devices.size(), "index"));
    RT_RETURN_IF_ERROR(CheckIndex(property, l->devices[index].properties.size(), "property"));
    *out_value = l->devices[index].properties[property].second.c_str();
    return Status::Ok();
  });
}
