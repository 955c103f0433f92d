// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_module_*: loading .vmfb modules (mapped or from memory) and the built-in native ones.
#include <cstdlib>
#include <cstring>

#include "api/caller_memory.h"
#include "api/check_plugin.h"
#include "api/status_bridge.h"
#include "api/vm_handles.h"
#include "base/fault_hook.h"
#include "base/mapped_file.h"
#include "iree_rt.h"
#include "modules/hal/hal_module.h"
#include "vm/bytecode/bytecode_module.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace base = iree_rt::base;
namespace vm = iree_rt::vm;
using api::CallerMemory;
using api::CheckNotNull;
using api::FromHandle;
using api::Guard;
using api::ModuleHandle;

namespace {

// A 64-byte aligned private copy, so rodata keeps the alignment the compiler laid out.
class CopiedMemory final : public base::RefObject {
 public:
  static constexpr size_t kAlignment = 64;
  explicit CopiedMemory(size_t size)
      : data_(base::AllocationFaultInjected()
                  ? nullptr
                  : static_cast<uint8_t*>(std::aligned_alloc(kAlignment, RoundUp(size)))) {
    if (!data_) throw std::bad_alloc();
  }
  ~CopiedMemory() override { std::free(data_); }
  uint8_t* data() { return data_; }

 private:
  static size_t RoundUp(size_t size) { return (size + kAlignment - 1) / kAlignment * kAlignment + kAlignment; }
  uint8_t* data_;
};

Status PublishModule(Ref<vm::Module> module, iree_rt_module_t* out_module) {
  *out_module = api::ToHandle(MakeRef<ModuleHandle>(std::move(module)));
  return Status::Ok();
}

}  // namespace

iree_rt_status_t iree_rt_module_load_file(iree_rt_instance_t instance, const char* path,
                                          iree_rt_module_t* out_module) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::InstanceHandle * i, FromHandle(instance, "instance"));
    RT_RETURN_IF_ERROR(CheckNotNull(path, "path"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_module, "out_module"));
    RT_ASSIGN_OR_RETURN(Ref<base::MappedFile> file, base::MappedFile::Open(path));
    std::span<const uint8_t> bytes = file->span();
    auto module = vm::bytecode::BytecodeModule::Load(i->vm_instance(), bytes, std::move(file));
    if (!module.ok()) {
      Status status = module.status();
      return status.Annotate(base::StrCat("loading '", path, "'"));
    }
    return PublishModule(std::move(module).value(), out_module);
  });
}

iree_rt_status_t iree_rt_module_load_memory(iree_rt_instance_t instance, const void* data,
                                            size_t size, iree_rt_module_load_flags_t flags,
                                            iree_rt_module_release_callback_t release_callback,
                                            void* user_data, iree_rt_module_t* out_module) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::InstanceHandle * i, FromHandle(instance, "instance"));
    RT_RETURN_IF_ERROR(CheckNotNull(data, "data"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_module, "out_module"));
    if (flags & ~IREE_RT_MODULE_LOAD_FLAG_COPY) {
      return base::InvalidArgumentError("unknown module load flags 0x", std::hex, flags);
    }
    std::span<const uint8_t> bytes(static_cast<const uint8_t*>(data), size);
    if (flags & IREE_RT_MODULE_LOAD_FLAG_COPY) {
      RT_RETURN_IF_ERROR(vm::bytecode::BytecodeModule::CheckSize(i->vm_instance(), size));
      auto copy = MakeRef<CopiedMemory>(size);
      if (size) std::memcpy(copy->data(), data, size);
      bytes = std::span<const uint8_t>(copy->data(), size);
      RT_ASSIGN_OR_RETURN(Ref<vm::bytecode::BytecodeModule> module,
                          vm::bytecode::BytecodeModule::Load(i->vm_instance(), bytes, copy));
      // The caller's memory is not referenced: tell it at once that it may be freed.
      if (release_callback) release_callback(user_data);
      return PublishModule(std::move(module), out_module);
    }
    auto keep_alive = MakeRef<CallerMemory>(release_callback, user_data);
    auto module = vm::bytecode::BytecodeModule::Load(i->vm_instance(), bytes, keep_alive);
    if (!module.ok()) {
      keep_alive->Disarm();  // a failed load leaves ownership with the caller
      return module.status();
    }
    return PublishModule(std::move(module).value(), out_module);
  });
}

iree_rt_status_t iree_rt_module_create_check(iree_rt_instance_t instance,
                                             iree_rt_module_t* out_module) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::InstanceHandle * i, FromHandle(instance, "instance"));
    (void)i;
    RT_RETURN_IF_ERROR(CheckNotNull(out_module, "out_module"));
    RT_ASSIGN_OR_RETURN(Ref<vm::Module> module, api::CreateCheckModule());
    return PublishModule(std::move(module), out_module);
  });
}

iree_rt_status_t iree_rt_module_create_hal(iree_rt_instance_t instance,
                                           const iree_rt_device_t* devices, size_t device_count,
                                           iree_rt_module_t* out_module) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::InstanceHandle * i, FromHandle(instance, "instance"));
    (void)i;
    RT_RETURN_IF_ERROR(CheckNotNull(out_module, "out_module"));
    if (device_count == 0) return base::InvalidArgumentError("device_count is 0");
    RT_RETURN_IF_ERROR(CheckNotNull(devices, "devices"));
    std::vector<Ref<iree_rt::hal::Device>> hal_devices;
    for (size_t index = 0; index < device_count; ++index) {
      RT_ASSIGN_OR_RETURN(api::DeviceHandle * d, FromHandle(devices[index], "devices[i]"));
      hal_devices.push_back(d->device);
    }
    RT_ASSIGN_OR_RETURN(Ref<vm::Module> module,
                        iree_rt::modules::hal::CreateHalModule(std::move(hal_devices)));
    return PublishModule(std::move(module), out_module);
  });
}

void iree_rt_module_retain(iree_rt_module_t module) { api::RetainHandle(module); }
void iree_rt_module_release(iree_rt_module_t module) { api::ReleaseHandle(module); }

iree_rt_status_t iree_rt_module_name(iree_rt_module_t module, const char** out_name) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ModuleHandle * m, FromHandle(module, "module"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_name, "out_name"));
    *out_name = m->name.c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_module_function_count(iree_rt_module_t module, size_t* out_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ModuleHandle * m, FromHandle(module, "module"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_count, "out_count"));
    *out_count = m->functions.size();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_module_function_name(iree_rt_module_t module, size_t index,
                                              const char** out_name) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ModuleHandle * m, FromHandle(module, "module"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_name, "out_name"));
    RT_RETURN_IF_ERROR(api::CheckIndex(index, m->functions.size(), "index"));
    *out_name = m->functions[index].name.c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_module_function_signature(iree_rt_module_t module, size_t index,
                                                   const char** out_signature) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ModuleHandle * m, FromHandle(module, "module"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_signature, "out_signature"));
    RT_RETURN_IF_ERROR(api::CheckIndex(index, m->functions.size(), "index"));
    *out_signature = m->functions[index].signature.c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_module_function_attr_count(iree_rt_module_t module, size_t index,
                                                    size_t* out_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ModuleHandle * m, FromHandle(module, "module"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_count, "out_count"));
    RT_RETURN_IF_ERROR(api::CheckIndex(index, m->functions.size(), "index"));
    *out_count = m->functions[index].attrs.size();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_module_function_attr(iree_rt_module_t module, size_t index,
                                              size_t attr_index, const char** out_key,
                                              const char** out_value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ModuleHandle * m, FromHandle(module, "module"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_key, "out_key"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_value, "out_value"));
    RT_RETURN_IF_ERROR(api::CheckIndex(index, m->functions.size(), "index"));
    const auto& attrs = m->functions[index].attrs;
    RT_RETURN_IF_ERROR(api::CheckIndex(attr_index, attrs.size(), "attr_index"));
    *out_key = attrs[attr_index].first.c_str();
    *out_value = attrs[attr_index].second.c_str();
    return Status::Ok();
  });
}
