// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::NativeModule: the base for modules written in C++ (`check`, `hal`).
//
// A subclass lists its functions (name, cconv, handler) once; Call checks the arguments against
// the cconv before the handler runs, so handlers index |args| without re-checking types, and
// annotates failures with "while invoking native function <module>.<function>". Native
// functions run to completion (they never return DEFERRED). Handlers take vm::Args: the
// interpreter builds them straight from its registers (CallArgs), hosts' Values are converted.
#ifndef IREE_RT_VM_NATIVE_MODULE_H_
#define IREE_RT_VM_NATIVE_MODULE_H_

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "vm/arg.h"
#include "vm/cconv.h"
#include "vm/module.h"

namespace iree_rt::vm {

class NativeModule : public Module {
 public:
  // |state| is what CreateState returned for the calling context.
  using Handler = std::function<base::Status(ModuleState& state, std::span<const Arg> args,
                                             std::span<Value> results)>;
  // A handler that is a plain function (every handler of the `hal` and `check` modules).
  using HandlerFn = base::Status (*)(ModuleState& state, std::span<const Arg> args,
                                     std::span<Value> results);
  struct FunctionDef {
    std::string name;
    std::string cconv;
    Handler handler;
    std::vector<std::pair<std::string, std::string>> attrs;
  };

  std::string_view name() const override { return name_; }
  uint32_t version() const override { return version_; }
  std::span<const ExportInfo> exports() const override { return exports_; }

  // An empty state; override to keep per-context data.
  base::StatusOr<std::unique_ptr<ModuleState>> CreateState(Instance& instance) override;

  base::Status Call(Stack& stack, ModuleState& state, uint32_t export_ordinal,
                    std::span<const Value> args, std::span<Value> results) override;
  // Skips the argument type checks: the caller built |args| from the cconv.
  base::Status CallTyped(Stack& stack, ModuleState& state, uint32_t export_ordinal,
                         std::span<const Value> args, std::span<Value> results) override;
  // The interpreter's path: |args| borrowed from its registers and |results| (default Values,
  // sized to the cconv) laid out per the export's cconv, which linking checked.
  base::Status CallArgs(Stack& stack, ModuleState& state, uint32_t export_ordinal,
                        std::span<const Arg> args, std::span<Value> results);
  // For callers that invoke the handler themselves (the interpreter, on its hot path): the plain
  // function of an export, or null (then use CallArgs). Such a caller counts the call on the
  // stack's depth, and passes a failure through Failed.
  HandlerFn direct_handler(uint32_t export_ordinal) const;
  // What CallArgs does with a handler's failure: clears |results| and annotates |status|.
  base::Status Failed(uint32_t export_ordinal, base::Status status, std::span<Value> results) const;

 protected:
  // INTERNAL-free by construction: a malformed cconv in |functions| is a programming error
  // reported by Create-time validation in the subclass's factory via Validate().
  NativeModule(std::string name, uint32_t version, std::vector<FunctionDef> functions);
  // Parses every function's cconv; call from the subclass factory before handing it out.
  base::Status Validate();

 private:
  struct Entry {
    FunctionDef def;
    Cconv cconv;
    std::vector<Attr> attrs;
    HandlerFn fn = nullptr;  // the handler when it is a plain function: called directly
  };
  base::StatusOr<const Entry*> Lookup(uint32_t export_ordinal) const;
  std::string ErrorContext(const Entry& entry) const;
  base::Status Invoke(Stack& stack, ModuleState& state, const Entry& entry,
                      std::span<const Arg> args, std::span<Value> results);
  // Invoke with Values (from hosts and untyped importers) converted to borrowed Args.
  base::Status InvokeValues(Stack& stack, ModuleState& state, const Entry& entry,
                            std::span<const Value> args, std::span<Value> results);

  std::string name_;
  uint32_t version_;
  std::vector<Entry> entries_;
  std::vector<ExportInfo> exports_;
  bool validated_ = false;  // Call refuses to run before Validate() succeeded
};

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_NATIVE_MODULE_H_
