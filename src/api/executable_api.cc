// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_executable_*.
#include "api/handles.h"
#include "api/status_bridge.h"
#include "iree_rt.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace base = iree_rt::base;
namespace hal = iree_rt::hal;
using api::CheckNotNull;
using api::ExecutableHandle;
using api::FromHandle;
using api::Guard;

namespace {

base::StatusOr<const hal::ExportInfo*> ExportAt(const ExecutableHandle* executable,
                                                uint32_t ordinal) {
  RT_RETURN_IF_ERROR(api::CheckIndex(ordinal, executable->executable->export_count(), "ordinal"));
  return &executable->executable->export_info(ordinal);
}

}  // namespace

iree_rt_status_t iree_rt_executable_load(iree_rt_device_t device, const char* format,
                                         const void* data, size_t size, const uint32_t* constants,
                                         size_t constant_count,
                                         iree_rt_executable_t* out_executable) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::DeviceHandle * d, FromHandle(device, "device"));
    RT_RETURN_IF_ERROR(CheckNotNull(format, "format"));
    RT_RETURN_IF_ERROR(api::CheckArray(data, size, "data"));
    RT_RETURN_IF_ERROR(api::CheckArray(constants, constant_count, "constants"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_executable, "out_executable"));
    hal::ExecutableParams params;
    params.format = format;
    params.data = {static_cast<const uint8_t*>(data), data ? size : 0};
    params.constants = {constants, constants ? constant_count : 0};
    RT_ASSIGN_OR_RETURN(Ref<hal::Executable> executable,
                        d->executable_cache->PrepareExecutable(params));
    *out_executable = api::ToHandle(MakeRef<ExecutableHandle>(std::move(executable)));
    return Status::Ok();
  });
}

void iree_rt_executable_retain(iree_rt_executable_t executable) { api::RetainHandle(executable); }

void iree_rt_executable_release(iree_rt_executable_t executable) { api::ReleaseHandle(executable); }

iree_rt_status_t iree_rt_executable_export_count(iree_rt_executable_t executable,
                                                 size_t* out_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ExecutableHandle * e, FromHandle(executable, "executable"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_count, "out_count"));
    *out_count = e->executable->export_count();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_executable_export_name(iree_rt_executable_t executable, uint32_t ordinal,
                                                const char** out_name) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ExecutableHandle * e, FromHandle(executable, "executable"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_name, "out_name"));
    RT_ASSIGN_OR_RETURN(const hal::ExportInfo* info, ExportAt(e, ordinal));
    *out_name = info->name.c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_executable_lookup_export(iree_rt_executable_t executable, const char* name,
                                                  uint32_t* out_ordinal) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ExecutableHandle * e, FromHandle(executable, "executable"));
    RT_RETURN_IF_ERROR(CheckNotNull(name, "name"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_ordinal, "out_ordinal"));
    RT_ASSIGN_OR_RETURN(uint32_t ordinal, e->executable->LookupExport(name));
    *out_ordinal = ordinal;
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_executable_export_constant_count(iree_rt_executable_t executable,
                                                          uint32_t ordinal, size_t* out_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ExecutableHandle * e, FromHandle(executable, "executable"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_count, "out_count"));
    RT_ASSIGN_OR_RETURN(const hal::ExportInfo* info, ExportAt(e, ordinal));
    *out_count = info->constant_count;
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_executable_export_binding_count(iree_rt_executable_t executable,
                                                         uint32_t ordinal, size_t* out_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ExecutableHandle * e, FromHandle(executable, "executable"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_count, "out_count"));
    RT_ASSIGN_OR_RETURN(const hal::ExportInfo* info, ExportAt(e, ordinal));
    *out_count = info->binding_count;
    return Status::Ok();
  });
}
