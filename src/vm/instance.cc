// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/instance.h"

#include "vm/buffer.h"
#include "vm/list.h"

namespace iree_rt::vm {

using base::Status;
using base::StatusCode;
using base::StatusOr;

Instance::Instance() : types_{&kBufferType, &kListType} {}

base::Ref<Instance> Instance::Create() { return base::Ref<Instance>::Adopt(new Instance()); }

Status Instance::RegisterType(const RefType* type) {
  if (type == nullptr) return base::InvalidArgumentError("cannot register a null ref type");
  if (type->name.empty())
    return base::InvalidArgumentError("cannot register a ref type with an empty name");
  std::lock_guard<std::mutex> lock(mutex_);
  for (const RefType* existing : types_) {
    if (existing == type) return Status();
    if (existing->name == type->name) {
      return base::MakeStatus(StatusCode::kAlreadyExists, "a different ref type named '",
                              type->name, "' is already registered");
    }
  }
  types_.push_back(type);
  return Status();
}

const RefType* Instance::LookupType(std::string_view name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const RefType* type : types_) {
    if (type->name == name) return type;
  }
  return nullptr;
}

StatusOr<Type> Instance::ResolveTypeName(std::string_view full_name) const {
  static constexpr std::pair<std::string_view, ValueType> kPrimitives[] = {
      {"i8", ValueType::kI8},   {"i16", ValueType::kI16}, {"i32", ValueType::kI32},
      {"i64", ValueType::kI64}, {"f32", ValueType::kF32}, {"f64", ValueType::kF64},
  };
  for (const auto& [name, value_type] : kPrimitives) {
    if (full_name == name) return Type::Value(value_type);
  }
  if (full_name == "!vm.opaque") return Type::Any();
  // The element type of a list is not part of its ref type: every !vm.list<...> is vm.list.
  if (full_name.starts_with("!vm.list<") && full_name.ends_with(">")) {
    return Type::OfRef(&kListType);
  }
  if (full_name.size() > 1 && full_name.front() == '!') {
    if (const RefType* type = LookupType(full_name.substr(1))) return Type::OfRef(type);
  }
  return base::NotFoundError("no type registered with name '", full_name, "'");
}

}  // namespace iree_rt::vm
