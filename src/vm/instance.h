// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::Instance: the registry of ref types, shared by every module and context created from it.
//
// Loading a bytecode module resolves its type table through here, so the modules whose types a
// program names (e.g. `hal`) must register them first. vm.buffer and vm.list are always present.
#ifndef IREE_RT_VM_INSTANCE_H_
#define IREE_RT_VM_INSTANCE_H_

#include <mutex>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "vm/limits.h"
#include "vm/ref.h"
#include "vm/type.h"

namespace iree_rt::vm {

class Instance : public base::RefObject {
 public:
  static base::Ref<Instance> Create();

  // Registers |type| (static storage). Registering the same descriptor twice is a no-op;
  // another descriptor with the same name is ALREADY_EXISTS. Thread-safe.
  base::Status RegisterType(const RefType* type);
  // The registered type named |name| ("hal.buffer"), or null. Thread-safe.
  const RefType* LookupType(std::string_view name) const;

  // Resolves a type-table spelling: "i32"/"f64"/... → primitive, "!vm.opaque" → Any,
  // "!vm.list<...>" → vm.list, "!x.y" → registered type x.y, else NOT_FOUND naming it.
  base::StatusOr<Type> ResolveTypeName(std::string_view full_name) const;

  // The limits new contexts start with and modules are loaded under. Set before creating
  // contexts or loading modules (not synchronized with them).
  const Limits& limits() const { return limits_; }
  void set_limits(const Limits& limits) { limits_ = limits; }

 private:
  Instance();

  mutable std::mutex mutex_;
  std::vector<const RefType*> types_;
  Limits limits_;
};

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_INSTANCE_H_
