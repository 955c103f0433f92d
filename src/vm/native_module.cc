// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/native_module.h"

#include <algorithm>

#include "base/inline_vector.h"
#include "vm/stack.h"

namespace iree_rt::vm {

using base::Status;
using base::StatusCode;
using base::StatusOr;

namespace {

// Balances Stack::Enter on every exit path.
class DepthScope {
 public:
  explicit DepthScope(Stack& stack) : stack_(stack) {}
  ~DepthScope() { stack_.Leave(); }

 private:
  Stack& stack_;
};

}  // namespace

NativeModule::NativeModule(std::string name, uint32_t version, std::vector<FunctionDef> functions)
    : name_(std::move(name)), version_(version) {
  entries_.reserve(functions.size());
  for (FunctionDef& def : functions) entries_.push_back(Entry{std::move(def), {}, {}});
  // Views into entries_ are taken only now that it will never reallocate again.
  exports_.reserve(entries_.size());
  for (Entry& entry : entries_) {
    for (const auto& [key, value] : entry.def.attrs) entry.attrs.push_back(Attr{key, value});
    std::sort(entry.attrs.begin(), entry.attrs.end(),
              [](const Attr& a, const Attr& b) { return a.key < b.key; });
    exports_.push_back(ExportInfo{entry.def.name, entry.def.cconv, entry.attrs});
  }
}

Status NativeModule::Validate() {
  if (name_.empty()) return base::InvalidArgumentError("native module name is empty");
  for (size_t i = 0; i < entries_.size(); ++i) {
    Entry& entry = entries_[i];
    if (entry.def.name.empty()) {
      return base::InvalidArgumentError("native module ", name_, ": function ", i, " has no name");
    }
    for (size_t j = 0; j < i; ++j) {
      if (entries_[j].def.name == entry.def.name) {
        return base::InvalidArgumentError("native module ", name_, " defines function '",
                                          entry.def.name, "' twice");
      }
    }
    if (!entry.def.handler) {
      return base::InvalidArgumentError("native function ", name_, ".", entry.def.name,
                                        " has no handler");
    }
    StatusOr<Cconv> cconv = ParseCconv(entry.def.cconv);
    if (!cconv.ok()) {
      Status status = cconv.status();
      return status.Annotate(base::StrCat("in native function ", name_, ".", entry.def.name));
    }
    entry.cconv = std::move(cconv).value();
    if (const HandlerFn* fn = entry.def.handler.target<HandlerFn>()) entry.fn = *fn;
  }
  validated_ = true;
  return Status();
}

StatusOr<std::unique_ptr<ModuleState>> NativeModule::CreateState(Instance& instance) {
  return std::make_unique<ModuleState>();
}

Status NativeModule::Call(Stack& stack, ModuleState& state, uint32_t export_ordinal,
                          std::span<const Value> args, std::span<Value> results) {
  RT_ASSIGN_OR_RETURN(const Entry* entry, Lookup(export_ordinal));
  Status status = CheckValues("arguments", entry->cconv.arguments, args);
  if (status.ok() && results.size() != entry->cconv.results.size()) {
    status = base::InvalidArgumentError("results: expected ", entry->cconv.results.size(),
                                        " values but got ", results.size());
  }
  if (!status.ok()) return status.Annotate(ErrorContext(*entry));
  return InvokeValues(stack, state, *entry, args, results);
}

Status NativeModule::CallTyped(Stack& stack, ModuleState& state, uint32_t export_ordinal,
                               std::span<const Value> args, std::span<Value> results) {
  if (!validated_ || export_ordinal >= entries_.size()) {
    return Lookup(export_ordinal).status();  // the error
  }
  return InvokeValues(stack, state, entries_[export_ordinal], args, results);
}

Status NativeModule::CallArgs(Stack& stack, ModuleState& state, uint32_t export_ordinal,
                              std::span<const Arg> args, std::span<Value> results) {
  if (!validated_ || export_ordinal >= entries_.size()) {
    return Lookup(export_ordinal).status();  // the error
  }
  return Invoke(stack, state, entries_[export_ordinal], args, results);
}

NativeModule::HandlerFn NativeModule::direct_handler(uint32_t export_ordinal) const {
  if (!validated_ || export_ordinal >= entries_.size()) return nullptr;
  return entries_[export_ordinal].fn;
}

Status NativeModule::Failed(uint32_t export_ordinal, Status status, std::span<Value> results) const {
  const Entry& entry = entries_[export_ordinal];
  if (status.code() == StatusCode::kDeferred) {
    status = base::InternalError("returned DEFERRED, but native functions must run to completion");
  }
  for (Value& result : results) result = Value();
  return status.Annotate(ErrorContext(entry));
}

Status NativeModule::InvokeValues(Stack& stack, ModuleState& state, const Entry& entry,
                                  std::span<const Value> args, std::span<Value> results) {
  base::InlineVector<Arg, 16> converted;
  for (const Value& value : args) converted.push_back(Arg::From(value));
  // Typed zeros, so a handler that leaves a result alone still returns a well-typed Value (the
  // interpreter reads untouched kNone results as zeros of the register's type).
  for (size_t i = 0; i < results.size(); ++i) results[i] = Value::Zero(entry.cconv.results[i]);
  return Invoke(stack, state, entry, converted, results);
}

StatusOr<const NativeModule::Entry*> NativeModule::Lookup(uint32_t export_ordinal) const {
  if (!validated_) {
    return base::FailedPreconditionError("native module ", name_,
                                         " is used before Validate() succeeded");
  }
  if (export_ordinal >= entries_.size()) {
    return base::OutOfRangeError("export ordinal ", export_ordinal, " out of range (module ", name_,
                                 " has ", entries_.size(), " exports)");
  }
  return &entries_[export_ordinal];
}

// Built only on failure: calls run for every import call of every program.
std::string NativeModule::ErrorContext(const Entry& entry) const {
  return base::StrCat("while invoking native function ", name_, ".", entry.def.name);
}

Status NativeModule::Invoke(Stack& stack, ModuleState& state, const Entry& entry,
                            std::span<const Arg> args, std::span<Value> results) {
  if (!stack.TryEnter()) return stack.Enter().Annotate(ErrorContext(entry));
  Status status;
  {
    DepthScope depth(stack);
    status = entry.fn ? entry.fn(state, args, results) : entry.def.handler(state, args, results);
  }
#ifndef NDEBUG
  // Handlers are trusted in release builds; in debug builds a wrongly typed result is our bug.
  for (size_t i = 0; status.ok() && i < results.size(); ++i) {
    if (results[i].is_none()) continue;  // left alone: a zero
    Status check = CheckResults("results", std::span<const ValueType>(entry.cconv.results).subspan(i, 1),
                                results.subspan(i, 1));
    if (!check.ok()) status = base::InternalError(check.message());
  }
#endif
  if (status.ok()) return status;
  return Failed(static_cast<uint32_t>(&entry - entries_.data()), std::move(status), results);
}

}  // namespace iree_rt::vm
