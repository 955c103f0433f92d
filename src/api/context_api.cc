// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_context_* and iree_rt_function_*: linking modules and calling their functions.
#include <mutex>
#include <string>
#include <vector>

#include "api/status_bridge.h"
#include "api/vm_handles.h"
#include "base/inline_vector.h"
#include "iree_rt.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace base = iree_rt::base;
namespace vm = iree_rt::vm;
using api::CheckNotNull;
using api::ContextHandle;
using api::FromHandle;
using api::FunctionHandle;
using api::Guard;
using api::ModuleHandle;
using api::ValueListHandle;

// The C enum and vm::LimitId share their values; vm::SetLimit validates them.
static_assert(IREE_RT_LIMIT_MAX_CALL_DEPTH == static_cast<int>(vm::LimitId::kMaxCallDepth));
static_assert(IREE_RT_LIMIT_MAX_LIST_LENGTH == static_cast<int>(vm::LimitId::kMaxListLength));
static_assert(IREE_RT_LIMIT_MAX_ALLOCATION_SIZE ==
              static_cast<int>(vm::LimitId::kMaxAllocationSize));
static_assert(IREE_RT_LIMIT_MAX_CONTEXT_MEMORY == static_cast<int>(vm::LimitId::kMaxContextMemory));
static_assert(IREE_RT_LIMIT_MAX_MODULE_SIZE == static_cast<int>(vm::LimitId::kMaxModuleSize));
static_assert(IREE_RT_LIMIT_MAX_CALL_STEPS == static_cast<int>(vm::LimitId::kMaxCallSteps));
static_assert(IREE_RT_LIMIT_UNLIMITED == vm::kUnlimited);

iree_rt_status_t iree_rt_context_create(iree_rt_instance_t instance,
                                        const iree_rt_module_t* modules, size_t module_count,
                                        iree_rt_context_t* out_context) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::InstanceHandle * i, FromHandle(instance, "instance"));
    RT_RETURN_IF_ERROR(api::CheckArray(modules, module_count, "modules"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_context, "out_context"));
    std::vector<Ref<ModuleHandle>> handles;
    std::vector<Ref<vm::Module>> vm_modules;
    for (size_t index = 0; index < module_count; ++index) {
      RT_ASSIGN_OR_RETURN(ModuleHandle * m, FromHandle(modules[index], "modules", index));
      handles.push_back(Ref<ModuleHandle>::Retain(m));
      vm_modules.push_back(m->module);
    }
    RT_ASSIGN_OR_RETURN(Ref<vm::Context> context,
                        vm::Context::Create(Ref<vm::Instance>::Retain(&i->vm_instance()),
                                            vm_modules));
    *out_context = api::ToHandle(MakeRef<ContextHandle>(std::move(context), std::move(handles)));
    return Status::Ok();
  });
}

void iree_rt_context_retain(iree_rt_context_t context) { api::RetainHandle(context); }
void iree_rt_context_release(iree_rt_context_t context) { api::ReleaseHandle(context); }

iree_rt_status_t iree_rt_context_set_limit(iree_rt_context_t context, iree_rt_limit_t limit,
                                           uint64_t value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ContextHandle * c, FromHandle(context, "context"));
    if (limit == IREE_RT_LIMIT_MAX_MODULE_SIZE) {
      return base::InvalidArgumentError("IREE_RT_LIMIT_MAX_MODULE_SIZE applies when modules load: ",
                                        "set it on the instance options");
    }
    std::lock_guard<std::mutex> lock(c->call_mutex);
    vm::Limits limits = c->context->limits();
    RT_RETURN_IF_ERROR(vm::SetLimit(limits, static_cast<uint32_t>(limit), value));
    c->context->set_limits(limits);
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_context_get_limit(iree_rt_context_t context, iree_rt_limit_t limit,
                                           uint64_t* out_value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ContextHandle * c, FromHandle(context, "context"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_value, "out_value"));
    std::lock_guard<std::mutex> lock(c->call_mutex);
    vm::Limits limits = c->context->limits();
    RT_ASSIGN_OR_RETURN(uint64_t * field, vm::LimitField(limits, static_cast<uint32_t>(limit)));
    *out_value = *field;
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_context_memory_used(iree_rt_context_t context, uint64_t* out_bytes) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ContextHandle * c, FromHandle(context, "context"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_bytes, "out_bytes"));
    *out_bytes = c->context->memory_used();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_context_lookup_function(iree_rt_context_t context, const char* name,
                                                 iree_rt_function_t* out_function) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ContextHandle * c, FromHandle(context, "context"));
    RT_RETURN_IF_ERROR(CheckNotNull(name, "name"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_function, "out_function"));
    RT_ASSIGN_OR_RETURN(vm::Context::Function function, c->context->LookupFunction(name));
    const ModuleHandle::FunctionStrings* strings = nullptr;
    for (const Ref<ModuleHandle>& m : c->modules) {
      if (m->module.get() == function.module) strings = &m->functions[function.export_ordinal];
    }
    if (!strings) return base::InternalError("function '", name, "' has no module handle");
    *out_function = api::ToHandle(
        MakeRef<FunctionHandle>(Ref<ContextHandle>::Retain(c), function, strings));
    return Status::Ok();
  });
}

void iree_rt_function_retain(iree_rt_function_t function) { api::RetainHandle(function); }
void iree_rt_function_release(iree_rt_function_t function) { api::ReleaseHandle(function); }

iree_rt_status_t iree_rt_function_name(iree_rt_function_t function, const char** out_name) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FunctionHandle * f, FromHandle(function, "function"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_name, "out_name"));
    *out_name = f->strings->name.c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_function_signature(iree_rt_function_t function,
                                            const char** out_signature) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FunctionHandle * f, FromHandle(function, "function"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_signature, "out_signature"));
    *out_signature = f->strings->signature.c_str();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_function_attr(iree_rt_function_t function, const char* key,
                                       const char** out_value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FunctionHandle * f, FromHandle(function, "function"));
    RT_RETURN_IF_ERROR(CheckNotNull(key, "key"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_value, "out_value"));
    *out_value = nullptr;
    for (const auto& [attr_key, attr_value] : f->strings->attrs) {
      if (attr_key == key) *out_value = attr_value.c_str();
    }
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_function_call(iree_rt_function_t function,
                                       iree_rt_value_list_t arguments,
                                       iree_rt_value_list_t results) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FunctionHandle * f, FromHandle(function, "function"));
    RT_ASSIGN_OR_RETURN(ValueListHandle * in, api::FromNullableHandle(arguments, "arguments"));
    RT_ASSIGN_OR_RETURN(ValueListHandle * out, api::FromNullableHandle(results, "results"));
    const std::string& signature = f->strings->signature;
    const size_t separator = signature.find('_');
    const bool has_results = separator != std::string::npos &&
                             signature.size() > separator + 1 && signature[separator + 1] != 'v';
    if (has_results && !out) {
      return base::InvalidArgumentError("parameter 'results' is NULL but function '",
                                        f->strings->name, "' (", signature, ") returns values");
    }
    base::InlineVector<vm::Value, 8> args;  // no allocation for the common call
    if (in) {
      for (size_t index = 0; index < in->list->size(); ++index) {
        RT_ASSIGN_OR_RETURN(vm::Value value, in->list->GetVariant(index));
        args.push_back(std::move(value));
      }
    }
    std::vector<vm::Value> values;
    {
      std::lock_guard<std::mutex> lock(f->context->call_mutex);
      RT_RETURN_IF_ERROR(f->context->context->Invoke(f->function, args, &values));
    }
    if (values.empty()) return Status::Ok();
    if (!out) return base::InternalError("function '", f->strings->name, "' returned values");
    for (vm::Value& value : values) RT_RETURN_IF_ERROR(out->list->Push(std::move(value)));
    return Status::Ok();
  });
}
