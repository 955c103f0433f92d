// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::Module: the interface every module implements, bytecode (loaded from a .vmfb) or native
// (written in C++: `check`, `hal`). A module is immutable and may be shared by many contexts;
// everything per-context lives in the ModuleState it creates.
//
// Calling convention (cconv) strings follow the compiler's: "0<args>_<results>" with i=i32,
// I=i64, f=f32, F=f64, r=ref, v=none, and C...D a variadic span (imports only). At the Module
// boundary values travel as vm::Value arrays in cconv order; a C...D span is passed as one
// ValueType::kI32 count followed by count x (tuple) values, flattened.
#ifndef IREE_RT_VM_MODULE_H_
#define IREE_RT_VM_MODULE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "base/ref_object.h"
#include "base/status.h"
#include "vm/limits.h"
#include "vm/value.h"

namespace iree_rt::vm {

class Instance;
class Module;
class Stack;

struct Attr {
  std::string_view key;
  std::string_view value;
};

// An exported function as hosts and importers see it.
struct ExportInfo {
  std::string_view name;   // local name, without the module prefix
  std::string_view cconv;  // e.g. "0iIf_If"
  std::span<const Attr> attrs;  // reflection attributes, sorted by key
};

// A function a module imports from another ("hal.buffer_view.create" → module "hal").
struct ImportInfo {
  std::string_view full_name;
  std::string_view module_name;
  std::string_view function_name;
  std::string_view cconv;  // empty when the importer did not record one (then not checked)
  bool optional = false;   // unresolved optional imports are allowed; calling one fails
};

struct Dependency {
  std::string_view name;
  uint32_t minimum_version = 0;
  bool optional = false;
};

// Per-context state of a module: globals, resolved imports, native module data.
class ModuleState {
 public:
  virtual ~ModuleState() = default;

  // Identifies the concrete class for cheap down-casts by the module that made it (the address
  // of a static of that class); null when unused.
  virtual const void* type_tag() const { return nullptr; }

  // Failures recorded without stopping the program (the `check` module's expectations). The
  // context collects them after each invocation and reports them as the call's status, so a
  // failed expectation is never silently lost. Returns OK when there were none, and clears them.
  virtual base::Status TakeRecordedFailures() { return base::Status(); }

  // The limits and memory budget of the owning context, which sets them before any call; null
  // for states used outside a context (tests), where nothing is checked or charged.
  const ContextQuota* quota() const { return quota_; }
  void set_quota(const ContextQuota* quota) { quota_ = quota; }

 private:
  const ContextQuota* quota_ = nullptr;
};

// Where an import was resolved to: an export of a module registered earlier in the context.
struct ImportTarget {
  Module* module = nullptr;
  ModuleState* state = nullptr;
  uint32_t export_ordinal = 0;
};

class Module : public base::RefObject {
 public:
  virtual std::string_view name() const = 0;
  // Compared against importers' Dependency::minimum_version.
  virtual uint32_t version() const = 0;
  virtual std::span<const Attr> attrs() const { return {}; }

  virtual std::span<const ExportInfo> exports() const = 0;
  virtual std::span<const ImportInfo> imports() const { return {}; }
  virtual std::span<const Dependency> dependencies() const { return {}; }

  // Creates this module's state for a new context.
  virtual base::StatusOr<std::unique_ptr<ModuleState>> CreateState(Instance& instance) = 0;
  // Bytes CreateState allocates for the whole context (globals). The context charges them to its
  // memory budget before the state is created, so a module declaring huge globals fails with
  // RESOURCE_EXHAUSTED instead of allocating them.
  virtual uint64_t state_footprint_bytes() const { return 0; }

  // Binds import |ordinal| of |state| to |target| (null module: an unresolved optional import).
  // Called by the context for every import, in order, before any call into |state|.
  virtual base::Status BindImport(ModuleState& state, uint32_t ordinal, const ImportTarget& target);

  // Calls export |export_ordinal| with |args| laid out per its cconv, writing |results| (sized
  // to the result count by the caller). Ref arguments are borrowed; results are owned by the
  // caller. May return DEFERRED if the function yielded: the caller then calls Resume on
  // stack.suspended() with the same |results| until something other than DEFERRED comes back.
  virtual base::Status Call(Stack& stack, ModuleState& state, uint32_t export_ordinal,
                            std::span<const Value> args, std::span<Value> results) = 0;

  // Call, for callers whose |args| and |results| were laid out from this export's own cconv (the
  // interpreter, after linking checked it): types are right by construction, so modules may
  // skip re-checking them.
  virtual base::Status CallTyped(Stack& stack, ModuleState& state, uint32_t export_ordinal,
                                 std::span<const Value> args, std::span<Value> results) {
    return Call(stack, state, export_ordinal, args, results);
  }

  // Continues a call that returned DEFERRED. Only modules that yield implement it.
  virtual base::Status Resume(Stack& stack, std::span<Value> results);

  // Index of the export named |name|, or NOT_FOUND.
  base::StatusOr<uint32_t> FindExport(std::string_view name) const;
};

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_MODULE_H_
