// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/context.h"

#include <algorithm>
#include <new>
#include <string>

#include "base/trace.h"
#include "vm/cconv.h"
#include "vm/stack.h"

namespace iree_rt::vm {

using base::Status;
using base::StatusCode;
using base::StatusOr;

namespace {

// A stack left idle by the last call on this thread: its frame arena is kept, so a call does not
// allocate one. Nested calls (a native function calling back in) take fresh stacks.
thread_local std::unique_ptr<Stack> t_spare_stack;

// Runs a call on its own stack, resuming whichever module suspended until it stops yielding.
Status CallToCompletion(const Limits& limits, Module& module, ModuleState& state,
                        uint32_t export_ordinal, std::span<const Value> args,
                        std::span<Value> results) {
  std::unique_ptr<Stack> owned = t_spare_stack ? std::move(t_spare_stack) : std::make_unique<Stack>();
  struct Recycle {
    std::unique_ptr<Stack>& stack;
    ~Recycle() {
      if (stack->reusable() && !t_spare_stack) t_spare_stack = std::move(stack);
    }
  } recycle{owned};
  Stack& stack = *owned;
  stack.set_limits(static_cast<size_t>(std::min<uint64_t>(limits.max_call_depth, SIZE_MAX)),
                   limits.max_call_steps);
  Status status = module.Call(stack, state, export_ordinal, args, results);
  while (status.code() == StatusCode::kDeferred) {
    Module* suspended = stack.suspended();
    if (suspended == nullptr) {
      return base::InternalError("the call yielded but no module is suspended on its stack");
    }
    status = suspended->Resume(stack, results);
  }
  return status;
}

std::string ImportName(const ImportInfo& import) {
  if (!import.full_name.empty()) return std::string(import.full_name);
  return base::StrCat(import.module_name, ".", import.function_name);
}

}  // namespace

Context::Context(base::Ref<Instance> instance) : instance_(std::move(instance)) {
  quota_.limits = instance_->limits();
  quota_.budget = base::MakeRef<base::MemoryBudget>(quota_.limits.max_context_memory);
}

void Context::set_limits(const Limits& limits) {
  quota_.limits = limits;
  quota_.budget->set_limit(limits.max_context_memory);
}

StatusOr<base::Ref<Context>> Context::Create(base::Ref<Instance> instance,
                                             std::span<const base::Ref<Module>> modules) {
  if (!instance) return base::InvalidArgumentError("a context needs an instance");
  base::Ref<Context> context = base::Ref<Context>::Adopt(new Context(std::move(instance)));
  for (size_t i = 0; i < modules.size(); ++i) {
    if (!modules[i]) return base::InvalidArgumentError("module ", i, " of the context is null");
    // On failure, releasing |context| deinitializes and frees the modules registered so far.
    RT_RETURN_IF_ERROR(context->Register(modules[i]));
  }
  return context;
}

Context::~Context() {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    // Teardown cannot report errors, and a destructor must not throw: out of memory, the
    // module's __deinit is skipped.
    try {
      RunOptional(*it, "__deinit").IgnoreError();
    } catch (const std::bad_alloc&) {
    }
  }
  // States may hold refs into earlier modules' objects, so they go first and newest first.
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) it->state.reset();
  while (!entries_.empty()) entries_.pop_back();
}

Status Context::Register(base::Ref<Module> module) {
  const std::string name(module->name());
  const std::string context = base::StrCat("while registering module '", name, "'");
  auto find_module = [this](std::string_view module_name) -> const Entry* {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      if (it->module->name() == module_name) return &*it;
    }
    return nullptr;
  };

  // Charged before the state exists: its globals are allocated when it is created.
  StatusOr<base::MemoryCharge> footprint = base::MemoryCharge::Take(
      quota_.budget.get(), module->state_footprint_bytes(), "the module's globals",
      base::MemoryKind::kGlobals);
  if (!footprint.ok()) {
    Status status = footprint.status();
    return status.Annotate(context);
  }
  StatusOr<std::unique_ptr<ModuleState>> state = module->CreateState(*instance_);
  if (!state.ok()) {
    Status status = state.status();
    return status.Annotate(context);
  }
  Entry entry{module, std::move(state).value(), {}, {}};
  entry.footprint = std::move(footprint).value();
  for (const ExportInfo& info : module->exports()) entry.cconvs.push_back(ParseCconv(info.cconv));
  if (!entry.state) return base::InternalError("module '", name, "' created a null state");
  entry.state->set_quota(&quota_);

  for (const Dependency& dependency : module->dependencies()) {
    const Entry* found = find_module(dependency.name);
    if (dependency.optional) continue;  // any version, or none at all, will do
    if (found == nullptr) {
      return base::NotFoundError("module '", dependency.name, "' required by '", name,
                                 "' is not registered");
    }
    if (found->module->version() < dependency.minimum_version) {
      return base::NotFoundError("module '", dependency.name, "' required by '", name,
                                 "' version mismatch; have ", found->module->version(),
                                 " but require ", dependency.minimum_version);
    }
  }

  std::span<const ImportInfo> imports = module->imports();
  for (uint32_t i = 0; i < imports.size(); ++i) {
    const ImportInfo& import = imports[i];
    ImportTarget target;
    Status status;
    if (const Entry* exporter = find_module(import.module_name)) {
      StatusOr<uint32_t> ordinal = exporter->module->FindExport(import.function_name);
      if (ordinal.ok()) {
        const ExportInfo& info = exporter->module->exports()[*ordinal];
        // A mismatch is an error even for optional imports: the module exists but is incompatible.
        if (!import.cconv.empty() && import.cconv != info.cconv) {
          return base::InternalError("import '", ImportName(import),
                                     "' signature mismatch: expected ", import.cconv, " but got ",
                                     info.cconv)
              .Annotate(context);
        }
        target = ImportTarget{exporter->module.get(), exporter->state.get(), *ordinal};
      } else {
        status = ordinal.status();
        status.Annotate(base::StrCat("resolving import '", ImportName(import), "'"));
      }
    } else {
      status = base::NotFoundError("module '", import.module_name, "' required for import '",
                                   ImportName(import), "' not registered with the context");
    }
    if (!status.ok()) {
      if (!import.optional) return status.Annotate(context);
      target = ImportTarget{};  // stays unresolved; calling it fails
    }
    status = module->BindImport(*entry.state, i, target);
    if (!status.ok()) {
      return status.Annotate(base::StrCat("binding import '", ImportName(import), "'"))
          .Annotate(context);
    }
  }

  Status status = RunOptional(entry, "__init");
  if (!status.ok()) return status.Annotate(context);
  entries_.push_back(std::move(entry));
  return Status();
}

Status Context::RunOptional(Entry& entry, std::string_view export_name) {
  StatusOr<uint32_t> ordinal = entry.module->FindExport(export_name);
  if (!ordinal.ok()) return Status();
  const ExportInfo& info = entry.module->exports()[*ordinal];
  StatusOr<Cconv> cconv = ParseCconv(info.cconv);
  if (!cconv.ok() || !cconv->arguments.empty() || !cconv->results.empty()) {
    return base::InvalidArgumentError("export '", export_name, "' of module '",
                                      entry.module->name(),
                                      "' must take no arguments and return nothing, but its "
                                      "calling convention is '",
                                      info.cconv, "'");
  }
  Status status = CallToCompletion(quota_.limits, *entry.module, *entry.state, *ordinal, {}, {});
  if (!status.ok()) status.Annotate(base::StrCat("invoking function '", export_name, "'"));
  return status;
}

StatusOr<Context::Function> Context::LookupFunction(std::string_view name) const {
  if (name.empty()) return base::InvalidArgumentError("function name is empty");
  if (entries_.empty()) {
    return base::NotFoundError("function '", name, "' not found: the context has no modules");
  }
  auto make = [](const Entry& entry, uint32_t ordinal) {
    return Function{entry.module.get(), entry.state.get(), ordinal,
                    &entry.module->exports()[ordinal]};
  };
  // Export names may contain dots, so "a.b" means module "a" only when such a module exists;
  // otherwise (or if it lacks the function) the whole name is tried in the last module.
  Status prefixed_error;
  if (size_t dot = name.find('.'); dot != std::string_view::npos) {
    const std::string_view module_name = name.substr(0, dot);
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      if (it->module->name() != module_name) continue;
      StatusOr<uint32_t> ordinal = it->module->FindExport(name.substr(dot + 1));
      if (ordinal.ok()) return make(*it, *ordinal);
      prefixed_error = ordinal.status();
      break;
    }
  }
  const Entry& last = entries_.back();
  StatusOr<uint32_t> ordinal = last.module->FindExport(name);
  if (ordinal.ok()) return make(last, *ordinal);
  return prefixed_error.ok() ? ordinal.status() : prefixed_error;
}

Status Context::Invoke(const Function& function, std::span<const Value> args,
                       std::vector<Value>* results) {
  if (results == nullptr) return base::InvalidArgumentError("Invoke needs a results vector");
  const Entry* owner = nullptr;
  for (const Entry& entry : entries_) {
    if (entry.module.get() == function.module && entry.state.get() == function.state) owner = &entry;
  }
  if (owner == nullptr || function.module == nullptr) {
    return base::InvalidArgumentError("the function was not looked up in this context");
  }
  std::span<const ExportInfo> exports = function.module->exports();
  if (function.export_ordinal >= exports.size()) {
    return base::OutOfRangeError("export ordinal ", function.export_ordinal,
                                 " out of range (module '", function.module->name(), "' has ",
                                 exports.size(), " exports)");
  }
  const ExportInfo& info = exports[function.export_ordinal];
  base::trace::Scope trace_scope("vm", "invoke");
  if (trace_scope.recording()) trace_scope.set_name(base::StrCat(function.module->name(), ".", info.name));

  Status status;
  const StatusOr<Cconv>& cconv = owner->cconvs[function.export_ordinal];
  if (!cconv.ok()) {
    status = cconv.status();
  } else {
    status = CheckValues("arguments", cconv->arguments, args);
  }
  if (status.ok()) {
    results->clear();
    results->resize(cconv->results.size());
    status = CallToCompletion(quota_.limits, *function.module, *function.state,
                              function.export_ordinal, args, *results);
  }
  // Failures recorded without stopping the program (check expectations) fail the call, after
  // it ran to completion, and are cleared either way so the next call starts clean.
  for (Entry& entry : entries_) {
    Status recorded = entry.state->TakeRecordedFailures();
    if (status.ok() && !recorded.ok()) status = recorded;
  }
  if (status.ok()) return status;

  results->clear();
  status.Annotate(base::StrCat("invoking function '", info.name, "'"));
  for (const Attr& attr : info.attrs) {
    if (attr.key == "iree.abi.declaration") status.Annotate(base::StrCat("`", attr.value, "`"));
  }
  return status;
}

}  // namespace iree_rt::vm
