// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_parameters_* and iree_rt_module_create_io_parameters: parameter sets and the
// io_parameters module over them. Each set is one io_parameters::ArchiveProvider.
// (parameters_api_disabled.cc stands in when IREE_RT_PARAMETERS is OFF.)
#include <span>

#include "api/caller_memory.h"
#include "api/status_bridge.h"
#include "api/vm_handles.h"
#include "base/aligned_bytes.h"
#include "iree_rt.h"
#include "modules/io_parameters/io_parameters_module.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace base = iree_rt::base;
namespace io = iree_rt::io;
namespace io_parameters = iree_rt::modules::io_parameters;
using api::CheckNotNull;
using api::FromHandle;
using api::Guard;
using api::ParametersHandle;

namespace {

// Hands |add| the caller's bytes as |flags| asks: a 64-byte aligned copy (the caller is told at
// once that its memory is free), or the memory itself, kept by a CallerMemory that calls
// |release_callback| when nothing needs it. A failed add leaves the memory with the caller.
template <typename Add>
Status AddCallerBytes(const void* data, size_t size, iree_rt_parameters_flags_t flags,
                      iree_rt_parameters_flags_t known_flags,
                      iree_rt_module_release_callback_t release_callback, void* user_data,
                      Add&& add) {
  if (flags & ~known_flags) {
    return base::InvalidArgumentError("unknown parameters flags 0x", std::hex, flags);
  }
  if ((flags & IREE_RT_PARAMETERS_FLAG_WRITABLE) && (flags & IREE_RT_PARAMETERS_FLAG_COPY)) {
    return base::InvalidArgumentError("IREE_RT_PARAMETERS_FLAG_WRITABLE lends the caller's memory to programs; "
                                      "it cannot be combined with IREE_RT_PARAMETERS_FLAG_COPY");
  }
  std::span<const uint8_t> bytes(static_cast<const uint8_t*>(data), size);
  if (flags & IREE_RT_PARAMETERS_FLAG_COPY) {
    RT_ASSIGN_OR_RETURN(Ref<base::AlignedBytes> copy, base::AlignedBytes::Copy(bytes, 64));
    RT_RETURN_IF_ERROR(add(copy->span(), copy));
    if (release_callback) release_callback(user_data);
    return Status::Ok();
  }
  auto keep_alive = MakeRef<api::CallerMemory>(release_callback, user_data);
  Status status = add(bytes, keep_alive);
  if (!status.ok()) keep_alive->Disarm();
  return status;
}

base::StatusOr<io_parameters::ParameterMode> ToParameterMode(iree_rt_parameter_mode_t mode) {
  switch (mode) {
    case IREE_RT_PARAMETER_MODE_MMAP:
      return io_parameters::ParameterMode::kMmap;
    case IREE_RT_PARAMETER_MODE_PRELOAD:
      return io_parameters::ParameterMode::kPreload;
    case IREE_RT_PARAMETER_MODE_FILE:
      return io_parameters::ParameterMode::kFile;
    default:
      return base::InvalidArgumentError("unknown parameter mode ", static_cast<int>(mode));
  }
}

}  // namespace

iree_rt_status_t iree_rt_parameters_create(iree_rt_instance_t instance, const char* scope,
                                           iree_rt_parameters_t* out_parameters) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::InstanceHandle * i, FromHandle(instance, "instance"));
    (void)i;
    RT_RETURN_IF_ERROR(CheckNotNull(out_parameters, "out_parameters"));
    auto provider = io_parameters::ArchiveProvider::Create(scope ? scope : "");
    *out_parameters = api::ToHandle(MakeRef<ParametersHandle>(std::move(provider)));
    return Status::Ok();
  });
}

void iree_rt_parameters_retain(iree_rt_parameters_t parameters) { api::RetainHandle(parameters); }
void iree_rt_parameters_release(iree_rt_parameters_t parameters) { api::ReleaseHandle(parameters); }

iree_rt_status_t iree_rt_parameters_add_file(iree_rt_parameters_t parameters, const char* path,
                                             iree_rt_parameter_mode_t mode) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ParametersHandle * p, FromHandle(parameters, "parameters"));
    RT_RETURN_IF_ERROR(CheckNotNull(path, "path"));
    RT_ASSIGN_OR_RETURN(io_parameters::ParameterMode m, ToParameterMode(mode));
    return p->provider->AddFile(path, m);
  });
}

iree_rt_status_t iree_rt_parameters_add_archive_memory(
    iree_rt_parameters_t parameters, const char* format, const void* data, size_t size,
    iree_rt_parameters_flags_t flags, iree_rt_module_release_callback_t release_callback,
    void* user_data) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ParametersHandle * p, FromHandle(parameters, "parameters"));
    RT_RETURN_IF_ERROR(CheckNotNull(format, "format"));
    RT_RETURN_IF_ERROR(CheckNotNull(data, "data"));
    RT_ASSIGN_OR_RETURN(io::ArchiveFormat f, io::ArchiveFormatFromString(format));
    return AddCallerBytes(data, size, flags, IREE_RT_PARAMETERS_FLAG_COPY, release_callback, user_data,
                          [&](std::span<const uint8_t> bytes, Ref<base::RefObject> keep_alive) {
                            return p->provider->AddArchiveMemory(bytes, f, std::move(keep_alive));
                          });
  });
}

iree_rt_status_t iree_rt_parameters_add_memory(iree_rt_parameters_t parameters, const char* key,
                                               const void* data, size_t size,
                                               iree_rt_parameters_flags_t flags,
                                               iree_rt_module_release_callback_t release_callback,
                                               void* user_data) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ParametersHandle * p, FromHandle(parameters, "parameters"));
    RT_RETURN_IF_ERROR(CheckNotNull(key, "key"));
    RT_RETURN_IF_ERROR(CheckNotNull(data, "data"));
    const bool writable = flags & IREE_RT_PARAMETERS_FLAG_WRITABLE;
    return AddCallerBytes(data, size, flags, IREE_RT_PARAMETERS_FLAG_COPY | IREE_RT_PARAMETERS_FLAG_WRITABLE,
                          release_callback, user_data,
                          [&](std::span<const uint8_t> bytes, Ref<base::RefObject> keep_alive) {
                            return p->provider->AddMemory(key, bytes, std::move(keep_alive), writable);
                          });
  });
}

iree_rt_status_t iree_rt_parameters_add_splat(iree_rt_parameters_t parameters, const char* key,
                                              const void* pattern, size_t pattern_length,
                                              uint64_t length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ParametersHandle * p, FromHandle(parameters, "parameters"));
    RT_RETURN_IF_ERROR(CheckNotNull(key, "key"));
    RT_RETURN_IF_ERROR(CheckNotNull(pattern, "pattern"));
    return p->provider->AddSplat(
        key, std::span<const uint8_t>(static_cast<const uint8_t*>(pattern), pattern_length), length);
  });
}

iree_rt_status_t iree_rt_parameters_scope(iree_rt_parameters_t parameters, const char** out_scope) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ParametersHandle * p, FromHandle(parameters, "parameters"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_scope, "out_scope"));
    *out_scope = p->provider->scope().c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_parameters_count(iree_rt_parameters_t parameters, size_t* out_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ParametersHandle * p, FromHandle(parameters, "parameters"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_count, "out_count"));
    *out_count = p->provider->index().entries().size();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_parameters_entry(iree_rt_parameters_t parameters, size_t index,
                                          const char** out_key, uint64_t* out_length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ParametersHandle * p, FromHandle(parameters, "parameters"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_key, "out_key"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_length, "out_length"));
    const auto& entries = p->provider->index().entries();
    RT_RETURN_IF_ERROR(api::CheckIndex(index, entries.size(), "index"));
    *out_key = entries[index].key.c_str();
    *out_length = entries[index].length;
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_module_create_io_parameters(iree_rt_instance_t instance,
                                                     const iree_rt_parameters_t* parameters,
                                                     size_t parameter_count,
                                                     iree_rt_module_t* out_module) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::InstanceHandle * i, FromHandle(instance, "instance"));
    (void)i;
    RT_RETURN_IF_ERROR(api::CheckArray(parameters, parameter_count, "parameters"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_module, "out_module"));
    std::vector<Ref<io_parameters::ArchiveProvider>> sets;
    for (size_t index = 0; index < parameter_count; ++index) {
      RT_ASSIGN_OR_RETURN(api::ParametersHandle * p, FromHandle(parameters[index], "parameters", index));
      sets.push_back(p->provider);
    }
    RT_ASSIGN_OR_RETURN(Ref<iree_rt::vm::Module> module, io_parameters::CreateIoParametersModule(
                                                    {sets.begin(), sets.end()}));
    // Frozen before the module is handed out, so no lookup can overlap an addition.
    for (const auto& set : sets) set->Freeze();
    *out_module = api::ToHandle(MakeRef<api::ModuleHandle>(std::move(module)));
    return Status::Ok();
  });
}
