// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_device_options_* and iree_rt_device_* (creation and queries; queue operations are in
// queue_api.cc).
#include <cstring>

#include "api/handles.h"
#include "api/status_bridge.h"
#include "iree_rt.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace base = iree_rt::base;
using api::CheckNotNull;
using api::DeviceHandle;
using api::DeviceOptionsHandle;
using api::FromHandle;
using api::Guard;

iree_rt_status_t iree_rt_device_options_create(iree_rt_device_options_t* out_options) {
  return Guard(__func__, [&]() -> Status {
    RT_RETURN_IF_ERROR(CheckNotNull(out_options, "out_options"));
    *out_options = api::ToHandle(MakeRef<DeviceOptionsHandle>());
    return Status::Ok();
  });
}

void iree_rt_device_options_retain(iree_rt_device_options_t options) { api::RetainHandle(options); }

void iree_rt_device_options_release(iree_rt_device_options_t options) {
  api::ReleaseHandle(options);
}

iree_rt_status_t iree_rt_device_options_set_string(iree_rt_device_options_t options,
                                                   const char* key, const char* value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceOptionsHandle * o, FromHandle(options, "options"));
    RT_RETURN_IF_ERROR(CheckNotNull(key, "key"));
    RT_RETURN_IF_ERROR(CheckNotNull(value, "value"));
    // Keys become URI parameters: reject what the URI syntax could not carry.
    if (!*key || std::strpbrk(key, "=&?")) {
      return base::InvalidArgumentError("device option key '", key,
                                        "' is empty or has '=', '&' or '?'");
    }
    o->params[key] = value;
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_device_create(iree_rt_instance_t instance, const char* uri,
                                       iree_rt_device_options_t options,
                                       iree_rt_device_t* out_device) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::InstanceHandle * i, FromHandle(instance, "instance"));
    RT_RETURN_IF_ERROR(CheckNotNull(uri, "uri"));
    RT_ASSIGN_OR_RETURN(DeviceOptionsHandle * o, api::FromNullableHandle(options, "options"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_device, "out_device"));
    RT_ASSIGN_OR_RETURN(Ref<DeviceHandle> device, i->CreateDevice(uri, o));
    *out_device = api::ToHandle(std::move(device));
    return Status::Ok();
  });
}

void iree_rt_device_retain(iree_rt_device_t device) { api::RetainHandle(device); }

void iree_rt_device_release(iree_rt_device_t device) { api::ReleaseHandle(device); }

iree_rt_status_t iree_rt_device_id(iree_rt_device_t device, const char** out_id) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceHandle * d, FromHandle(device, "device"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_id, "out_id"));
    *out_id = d->device->id().c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_device_query_i64(iree_rt_device_t device, const char* category,
                                          const char* key, int64_t* out_value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceHandle * d, FromHandle(device, "device"));
    RT_RETURN_IF_ERROR(CheckNotNull(category, "category"));
    RT_RETURN_IF_ERROR(CheckNotNull(key, "key"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_value, "out_value"));
    RT_ASSIGN_OR_RETURN(int64_t value, d->device->QueryI64(category, key));
    *out_value = value;
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_device_memory_statistic(iree_rt_device_t device,
                                                 iree_rt_memory_statistic_t statistic,
                                                 uint64_t* out_value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceHandle * d, FromHandle(device, "device"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_value, "out_value"));
    iree_rt::hal::AllocatorStatistics stats = d->device->allocator().statistics();
    switch (statistic) {
      case IREE_RT_MEMORY_STATISTIC_BYTES_ALLOCATED:
        *out_value = stats.bytes_allocated;
        break;
      case IREE_RT_MEMORY_STATISTIC_PEAK_BYTES_ALLOCATED:
        *out_value = stats.peak_bytes_allocated;
        break;
      case IREE_RT_MEMORY_STATISTIC_ALLOCATION_COUNT:
        *out_value = stats.allocation_count;
        break;
      default:
        return base::InvalidArgumentError("parameter 'statistic' has unknown value ",
                                          static_cast<int64_t>(statistic));
    }
    return Status::Ok();
  });
}
