// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::Context: modules linked together with their per-context state; the unit a host calls into.
//
// Create registers modules in order: each gets its state, its dependencies are checked and its
// imports resolved against modules registered before it (most recent first), then its `__init`
// export runs. Destruction runs `__deinit` in reverse order. A context is externally
// synchronized: one invocation at a time.
#ifndef IREE_RT_VM_CONTEXT_H_
#define IREE_RT_VM_CONTEXT_H_

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "vm/cconv.h"
#include "vm/instance.h"
#include "vm/limits.h"
#include "vm/module.h"
#include "vm/value.h"

namespace iree_rt::vm {

class Context : public base::RefObject {
 public:
  struct Function {
    Module* module = nullptr;
    ModuleState* state = nullptr;
    uint32_t export_ordinal = 0;
    const ExportInfo* info = nullptr;
  };

  static base::StatusOr<base::Ref<Context>> Create(base::Ref<Instance> instance,
                                                   std::span<const base::Ref<Module>> modules);

  // "module.function", or a bare name looked up in the last registered module.
  base::StatusOr<Function> LookupFunction(std::string_view name) const;

  // Calls |function| with |args| (checked against its cconv) and returns its results, resuming
  // through yields until it completes. Errors carry the VM backtrace. Calls into one context
  // must not overlap (they share its stacks and module states); the C ABI serializes them.
  base::Status Invoke(const Function& function, std::span<const Value> args,
                      std::vector<Value>* results);

  Instance& instance() const { return *instance_; }

  // The context's limits: the instance's when created. Changing them applies to later calls;
  // a lower memory cap fails only later allocations. Not synchronized with Invoke.
  const Limits& limits() const { return quota_.limits; }
  void set_limits(const Limits& limits);
  // Bytes the context's programs hold now (its memory budget's use).
  uint64_t memory_used() const { return quota_.budget->used(); }
  size_t module_count() const { return entries_.size(); }
  Module& module(size_t index) const { return *entries_[index].module; }

  ~Context() override;

 private:
  struct Entry {
    base::Ref<Module> module;
    std::unique_ptr<ModuleState> state;
    // Each export's parsed cconv (an invalid one as its error), so Invoke does not parse.
    std::vector<base::StatusOr<Cconv>> cconvs;
    base::MemoryCharge footprint;  // the state's globals
  };
  explicit Context(base::Ref<Instance> instance);
  base::Status Register(base::Ref<Module> module);
  base::Status RunOptional(Entry& entry, std::string_view export_name);

  base::Ref<Instance> instance_;
  ContextQuota quota_;  // outlives every state in |entries_|, which point at it
  std::vector<Entry> entries_;
};

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_CONTEXT_H_
