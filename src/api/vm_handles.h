// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The handle objects of the VM part of the C ABI: modules, contexts, functions, value lists,
// parameter sets.
//
// Strings the ABI lends out (names, signatures, attributes) are copied into the handle objects
// once, so every borrowed `const char*` is NUL-terminated and lives as long as its handle.
#ifndef IREE_RT_API_VM_HANDLES_H_
#define IREE_RT_API_VM_HANDLES_H_

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "api/handles.h"
#include "modules/io_parameters/archive_provider.h"
#include "vm/context.h"
#include "vm/list.h"
#include "vm/module.h"

namespace iree_rt::api {

struct ModuleHandle final : HandleObject {
  using CHandle = iree_rt_module_t;
  static constexpr HandleType kType = HandleType::kModule;

  struct FunctionStrings {
    std::string name;
    std::string signature;
    std::vector<std::pair<std::string, std::string>> attrs;
  };

  explicit ModuleHandle(base::Ref<vm::Module> module) : HandleObject(kType), module(module) {
    name = std::string(module->name());
    for (const vm::ExportInfo& info : module->exports()) {
      FunctionStrings strings{std::string(info.name), std::string(info.cconv), {}};
      for (const vm::Attr& attr : info.attrs) {
        strings.attrs.emplace_back(std::string(attr.key), std::string(attr.value));
      }
      functions.push_back(std::move(strings));
    }
  }

  const base::Ref<vm::Module> module;
  std::string name;
  std::vector<FunctionStrings> functions;
};

struct ContextHandle final : HandleObject {
  using CHandle = iree_rt_context_t;
  static constexpr HandleType kType = HandleType::kContext;
  ContextHandle(base::Ref<vm::Context> context, std::vector<base::Ref<ModuleHandle>> modules)
      : HandleObject(kType), context(std::move(context)), modules(std::move(modules)) {}

  const base::Ref<vm::Context> context;
  // The module handles, whose strings functions lend out.
  const std::vector<base::Ref<ModuleHandle>> modules;
  // vm::Context is externally synchronized; the ABI serializes calls on one context.
  std::mutex call_mutex;
};

struct FunctionHandle final : HandleObject {
  using CHandle = iree_rt_function_t;
  static constexpr HandleType kType = HandleType::kFunction;
  FunctionHandle(base::Ref<ContextHandle> context, vm::Context::Function function,
                 const ModuleHandle::FunctionStrings* strings)
      : HandleObject(kType), context(std::move(context)), function(function), strings(strings) {}

  const base::Ref<ContextHandle> context;
  const vm::Context::Function function;
  const ModuleHandle::FunctionStrings* const strings;  // owned by a module of |context|
};

struct ValueListHandle final : HandleObject {
  using CHandle = iree_rt_value_list_t;
  static constexpr HandleType kType = HandleType::kValueList;
  explicit ValueListHandle(base::Ref<vm::List> list) : HandleObject(kType), list(std::move(list)) {}

  const base::Ref<vm::List> list;
};

// A parameter set: one scope's provider, frozen once a module uses it.
struct ParametersHandle final : HandleObject {
  using CHandle = iree_rt_parameters_t;
  static constexpr HandleType kType = HandleType::kParameters;
  explicit ParametersHandle(base::Ref<modules::io_parameters::ArchiveProvider> provider)
      : HandleObject(kType), provider(std::move(provider)) {}

  const base::Ref<modules::io_parameters::ArchiveProvider> provider;
};

template <>
struct HandleTraits<iree_rt_module_t> {
  using Object = ModuleHandle;
};
template <>
struct HandleTraits<iree_rt_context_t> {
  using Object = ContextHandle;
};
template <>
struct HandleTraits<iree_rt_function_t> {
  using Object = FunctionHandle;
};
template <>
struct HandleTraits<iree_rt_value_list_t> {
  using Object = ValueListHandle;
};
template <>
struct HandleTraits<iree_rt_parameters_t> {
  using Object = ParametersHandle;
};

}  // namespace iree_rt::api

#endif  // IREE_RT_API_VM_HANDLES_H_
