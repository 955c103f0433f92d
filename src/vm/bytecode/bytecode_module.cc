// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/bytecode/bytecode_module.h"

#include <cstdlib>
#include <cstring>
#include <utility>

#include "base/fault_hook.h"
#include "vm/buffer.h"
#include "vm/bytecode/interpreter.h"
#include "vm/bytecode/module_image.h"
#include "vm/bytecode/specializer.h"
#include "vm/bytecode/verifier.h"
#include "vm/instance.h"
#include "vm/native_module.h"
#include "vm/stack.h"

namespace iree_rt::vm::bytecode {

using base::Status;
using base::StatusCode;
using base::StatusOr;

const uint32_t BytecodeModule::kAvailableFeatures =
    kFeatureExtF32 | kFeatureExtF64 | kFeatureYield | kFeatureUnwind;

namespace {

SlotKind KindOf(ValueType type) {
  switch (type) {
    case ValueType::kI64:
    case ValueType::kF64: return SlotKind::k64;
    case ValueType::kRef: return SlotKind::kRef;
    default: return SlotKind::k32;
  }
}

uint32_t RoundUp16(uint32_t n) { return (n + 15u) & ~15u; }

// Builds the interpreter's view of one function: register file size and where each argument
// lands (§4.5: i/f one slot, I/F an even-aligned pair, r the next ref slot; banks from 0).
Status Compile(const FunctionInfo& info, uint32_t ordinal, CompiledFunction* out) {
  RT_ASSIGN_OR_RETURN(Cconv cconv, ParseCconv(info.cconv));
  if (cconv.has_spans()) {
    return base::InvalidArgumentError("function ", ordinal, " has a variadic calling convention '",
                                      info.cconv, "'");
  }
  out->code = info.bytecode.data();
  out->code_length = static_cast<uint32_t>(info.bytecode.size());
  out->ordinal = ordinal;
  out->name = info.debug_name.empty() ? base::StrCat("func#", ordinal) : std::string(info.debug_name);
  uint32_t next_i32 = 0, next_ref = 0;
  for (const CconvItem& item : cconv.arguments) {
    const SlotKind kind = KindOf(item.type);
    uint32_t slot;
    if (kind == SlotKind::kRef) {
      slot = next_ref++;
    } else if (kind == SlotKind::k64) {
      slot = (next_i32 + 1) & ~1u;
      next_i32 = slot + 2;
    } else {
      slot = next_i32++;
    }
    out->args.push_back({kind, static_cast<uint16_t>(slot)});
    out->arg_types.push_back(item.type);
  }
  // The verifier checks this too; the interpreter writes these slots without bounds checks.
  if (next_i32 > info.i32_register_count || next_ref > info.ref_register_count) {
    return base::InvalidArgumentError("function ", ordinal, ": arguments of '", info.cconv,
                                      "' do not fit its registers");
  }
  for (ValueType type : cconv.results) {
    out->results.push_back(KindOf(type));
    out->result_types.push_back(type);
  }
  out->i32_slots = info.i32_register_count;
  out->ref_slots = info.ref_register_count;
  out->i32_bytes = RoundUp16(out->i32_slots * 4u);
  out->frame_bytes = static_cast<uint32_t>(sizeof(Frame)) + out->i32_bytes +
                     RoundUp16(out->ref_slots * static_cast<uint32_t>(sizeof(RefSlot)));
  return Status();
}

// Checks host arguments against a function's flat cconv (exports never have spans).
Status CheckArguments(const CompiledFunction& fn, std::span<const Value> args) {
  if (args.size() != fn.arg_types.size()) {
    return base::InvalidArgumentError("function '", fn.name, "' takes ", fn.arg_types.size(),
                                      " arguments but got ", args.size());
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const ValueType expected = fn.arg_types[i];
    const bool ok = expected == ValueType::kRef ? (args[i].is_ref() || args[i].is_none())
                                                : args[i].type() == expected;
    if (!ok) {
      return base::InvalidArgumentError("argument ", i, " of function '", fn.name,
                                        "' has the wrong type for its calling convention");
    }
  }
  return Status();
}

}  // namespace

// ---- BytecodeModuleState ----------------------------------------------------------------------

BytecodeModuleState::BytecodeModuleState(BytecodeModule& module, uint32_t global_bytes,
                                         uint32_t global_refs, size_t import_count,
                                         size_t rodata_count)
    : module_(module),
      global_bytes_size_(global_bytes),
      ref_globals_(new RefSlot[global_refs]()),
      ref_global_count_(global_refs),
      imports_(import_count),
      rodata_(rodata_count, RefSlot{nullptr, nullptr}) {
  if (global_bytes != 0) {
    // The size was bounded by the loader (an i32), so this cannot overflow.
    const size_t size = RoundUp16(global_bytes);
    global_bytes_ = base::AllocationFaultInjected()
                        ? nullptr
                        : static_cast<uint8_t*>(std::aligned_alloc(16, size));
    if (global_bytes_) std::memset(global_bytes_, 0, size);
  }
}

BytecodeModuleState::~BytecodeModuleState() {
  for (uint32_t i = 0; i < ref_global_count_; ++i) ReleaseSlot(ref_globals_[i]);
  for (RefSlot& slot : rodata_) ReleaseSlot(slot);
  std::free(global_bytes_);
}

const RefSlot& BytecodeModuleState::CreateRodata(uint32_t ordinal) {
  RefSlot& slot = rodata_[ordinal];
  // The buffer keeps the module (and through it the bytes) alive; the module never holds it.
  AdoptInto(slot, Buffer::WrapReadOnly(module_.rodata(ordinal),
                                       base::Ref<base::RefObject>::Retain(&module_)));
  return slot;
}

// ---- BytecodeModule ---------------------------------------------------------------------------

Status BytecodeModule::CheckSize(const Instance& instance, uint64_t size) {
  const uint64_t max_size = instance.limits().max_module_size;
  if (size > max_size) return LimitExceeded("module size", size, "bytes", max_size, "MAX_MODULE_SIZE");
  return Status();
}

StatusOr<base::Ref<BytecodeModule>> BytecodeModule::Load(Instance& instance,
                                                         std::span<const uint8_t> bytes,
                                                         base::Ref<base::RefObject> keep_alive) {
  RT_RETURN_IF_ERROR(CheckSize(instance, bytes.size()));
  base::Ref<BytecodeModule> module = base::Ref<BytecodeModule>::Adopt(new BytecodeModule());
  module->keep_alive_ = std::move(keep_alive);
  RT_ASSIGN_OR_RETURN(module->image_, ModuleImage::Parse(bytes, kAvailableFeatures));
  RT_RETURN_IF_ERROR(module->Initialize(instance));
  return module;
}

BytecodeModule::~BytecodeModule() = default;

Status BytecodeModule::Initialize(Instance& instance) {
  const ModuleImage& image = *image_;
  name_ = image.name();
  version_ = image.version();
  for (const auto& attr : image.attrs()) attrs_.push_back(vm::Attr{attr.key, attr.value});

  types_.reserve(image.type_names().size());
  for (std::string_view type_name : image.type_names()) {
    RT_ASSIGN_OR_RETURN(Type type, instance.ResolveTypeName(type_name));
    types_.push_back(type);
  }
  {
    Status status = VerifyModule(image, types_);
    if (!status.ok()) return status.Annotate(base::StrCat("verifying module '", name_, "'"));
  }

  functions_.resize(image.functions().size());
  for (uint32_t i = 0; i < functions_.size(); ++i) {
    RT_RETURN_IF_ERROR(Compile(image.functions()[i], i, &functions_[i]));
  }
  RT_RETURN_IF_ERROR(PrepareCallSites(image));
  // 3.13 keeps debug names for single-function modules only; exported functions can still be
  // named in backtraces by their (first) export name.
  for (auto it = image.exports().rbegin(); it != image.exports().rend(); ++it) {
    CompiledFunction& function = functions_[it->internal_ordinal];
    if (image.functions()[it->internal_ordinal].debug_name.empty()) function.name = std::string(it->name);
  }

  // Views into export_attrs_ are taken only once it is complete.
  export_attrs_.resize(image.exports().size());
  for (size_t i = 0; i < image.exports().size(); ++i) {
    const FunctionInfo& info = image.functions()[image.exports()[i].internal_ordinal];
    for (const auto& attr : info.attrs) export_attrs_[i].push_back(vm::Attr{attr.key, attr.value});
  }
  for (size_t i = 0; i < image.exports().size(); ++i) {
    const auto& exported = image.exports()[i];
    const FunctionInfo& info = image.functions()[exported.internal_ordinal];
    exports_.push_back(vm::ExportInfo{exported.name, info.cconv, export_attrs_[i]});
    export_functions_.push_back(exported.internal_ordinal);
  }
  for (const auto& imported : image.imports()) {
    imports_.push_back(vm::ImportInfo{imported.full_name, imported.module_name, imported.function_name,
                                  imported.cconv, imported.optional});
  }
  for (const auto& dependency : image.dependencies()) {
    dependencies_.push_back(vm::Dependency{dependency.name, dependency.minimum_version, dependency.optional});
  }
  rodata_ = image.rodata();
  global_bytes_ = image.global_bytes_capacity();
  global_refs_ = image.global_ref_count();
  return Status();
}

Status BytecodeModule::PrepareCallSites(const ModuleImage& image) {
  // Sites exist only for imports that declare their cconv (the verifier checked those calls).
  std::vector<Cconv> parsed(image.imports().size());
  std::vector<const Cconv*> cconvs(image.imports().size(), nullptr);
  for (size_t i = 0; i < image.imports().size(); ++i) {
    if (image.imports()[i].cconv.empty()) continue;
    StatusOr<Cconv> cconv = ParseCconv(image.imports()[i].cconv);
    if (!cconv.ok()) continue;  // unreachable: verification parsed it
    parsed[i] = std::move(cconv.value());
    cconvs[i] = &parsed[i];
  }
  std::vector<FunctionCallSites> per_function(functions_.size());
  for (size_t f = 0; f < functions_.size(); ++f) {
    RT_RETURN_IF_ERROR(DecodeCallSites(image.functions()[f].bytecode, cconvs, &call_site_ops_,
                                       &per_function[f]));
  }
  std::vector<size_t> first_site(functions_.size());
  for (size_t f = 0; f < functions_.size(); ++f) {
    first_site[f] = call_sites_.size();
    call_sites_.insert(call_sites_.end(), per_function[f].sites.begin(), per_function[f].sites.end());
  }

  call_site_ops_.shrink_to_fit();  // complete: functions point into it from here on
  // A body runs from a private copy: its import calls rewritten to call sites, then the whole
  // body specialized (specializer.h). The copy also starts even, which the interpreter's list
  // alignment (from address parity) needs; a body that neither rewrite changed and that starts
  // even (FlatBuffer byte vectors start 4-aligned, bodies at multiples of 8 in them) runs from
  // the image.
  for (size_t f = 0; f < functions_.size(); ++f) {
    CompiledFunction& function = functions_[f];
    const std::vector<uint32_t>& pcs = per_function[f].pcs;
    function.call_sites = call_sites_.data() + first_site[f];
    function.call_site_ops = call_site_ops_.data();
    auto copy = std::make_unique<uint8_t[]>(function.code_length);
    std::memcpy(copy.get(), function.code, function.code_length);
    for (uint32_t i = 0; i < pcs.size(); ++i) {
      copy[pcs[i]] = kCallSiteOpcode;
      std::memcpy(copy.get() + pcs[i] + 1, &i, sizeof(i));  // replaces the F32 callee operand
    }
    RT_RETURN_IF_ERROR(Specialize(image.functions()[f].bytecode,
                                  std::span<uint8_t>(copy.get(), function.code_length),
                                  &specialize_stats_));
    bytecode_bytes_ += function.code_length;
    if ((reinterpret_cast<uintptr_t>(function.code) & 1) == 0 &&
        std::memcmp(copy.get(), function.code, function.code_length) == 0) {
      continue;
    }
    function.code = copy.get();
    code_copies_.push_back(std::move(copy));
    decoded_bytes_ += function.code_length;
  }
  decoded_bytes_ += call_sites_.size() * sizeof(CallSite) + call_site_ops_.size() * sizeof(uint32_t);
  return Status();
}

std::string BytecodeModule::SourceLocation(uint32_t ordinal, uint32_t pc) const {
  return image_->SourceLocation(ordinal, pc);
}

StatusOr<std::unique_ptr<ModuleState>> BytecodeModule::CreateState(Instance& instance) {
  auto state = std::make_unique<BytecodeModuleState>(*this, global_bytes_, global_refs_,
                                                     imports_.size(), rodata_.size());
  if (global_bytes_ != 0 && state->global_bytes() == nullptr) {
    return base::ResourceExhaustedError("out of memory allocating ", global_bytes_,
                                        " bytes of globals for module '", name_, "'");
  }
  return std::unique_ptr<ModuleState>(std::move(state));
}

Status BytecodeModule::BindImport(ModuleState& state, uint32_t ordinal, const ImportTarget& target) {
  auto& bytecode_state = static_cast<BytecodeModuleState&>(state);
  if (&bytecode_state.module() != this) {
    return base::InvalidArgumentError("state of module '", bytecode_state.module().name(),
                                      "' passed to module '", name_, "'");
  }
  if (ordinal >= imports_.size()) {
    return base::OutOfRangeError("import ordinal ", ordinal, " out of range (module '", name_,
                                 "' has ", imports_.size(), " imports)");
  }
  ImportBinding& binding = bytecode_state.imports()[ordinal];
  binding = ImportBinding();
  if (target.module == nullptr) return Status();  // an optional import left unresolved
  if (target.state == nullptr) {
    return base::InvalidArgumentError("import '", imports_[ordinal].full_name, "' bound without a state");
  }
  std::span<const vm::ExportInfo> exports = target.module->exports();
  if (target.export_ordinal >= exports.size()) {
    return base::OutOfRangeError("import '", imports_[ordinal].full_name, "' bound to export ",
                                 target.export_ordinal, " of module '", target.module->name(),
                                 "', which has ", exports.size(), " exports");
  }
  const vm::ImportInfo& import = imports_[ordinal];
  const std::string_view cconv = exports[target.export_ordinal].cconv;
  if (!import.cconv.empty() && import.cconv != cconv) {
    return base::InternalError("import function '", import.full_name, "' signature mismatch: expected ",
                               import.cconv, " but got ", cconv);
  }
  // Same signature as the verifier checked at the call sites: the callee's frame can go on the
  // caller's stack, registers copied directly. Without a declared signature, go through Values.
  auto* bytecode = dynamic_cast<BytecodeModule*>(target.module);
  if (bytecode != nullptr && !import.cconv.empty()) {
    binding.kind = ImportBinding::Kind::kBytecode;
    binding.function = &bytecode->export_function(target.export_ordinal);
    binding.bytecode_state = static_cast<BytecodeModuleState*>(target.state);
    return Status();
  }
  RT_ASSIGN_OR_RETURN(binding.cconv, ParseCconv(cconv));
  binding.kind = ImportBinding::Kind::kCall;
  // A native target with the declared signature: no Values in between (the verifier checked
  // the call sites' registers against this cconv).
  auto* native = dynamic_cast<NativeModule*>(target.module);
  if (native != nullptr && !import.cconv.empty()) {
    binding.kind = ImportBinding::Kind::kNative;
    binding.native = native;
#ifdef NDEBUG  // debug builds go through CallArgs, which checks the handler's results
    binding.handler = native->direct_handler(target.export_ordinal);
#endif
    for (const CconvItem& item : binding.cconv.arguments) binding.span_count += item.is_span();
    if (binding.span_count == 0) {
      for (const CconvItem& item : binding.cconv.arguments) {
        binding.wide_arguments.push_back(item.type == ValueType::kI64 || item.type == ValueType::kF64);
      }
    }
  }
  binding.module = target.module;
  binding.state = target.state;
  binding.export_ordinal = target.export_ordinal;
  return Status();
}

Status BytecodeModule::Call(Stack& stack, ModuleState& state, uint32_t export_ordinal,
                            std::span<const Value> args, std::span<Value> results) {
  if (export_ordinal >= exports_.size()) {
    return base::OutOfRangeError("export ordinal ", export_ordinal, " out of range (module '", name_,
                                 "' has ", exports_.size(), " exports)");
  }
  auto& bytecode_state = static_cast<BytecodeModuleState&>(state);
  if (&bytecode_state.module() != this) {
    return base::InvalidArgumentError("state of module '", bytecode_state.module().name(),
                                      "' passed to module '", name_, "'");
  }
  const CompiledFunction& function = export_function(export_ordinal);
  RT_RETURN_IF_ERROR(CheckArguments(function, args));
  if (results.size() != function.result_types.size()) {
    return base::InvalidArgumentError("function '", exports_[export_ordinal].name, "' returns ",
                                      function.result_types.size(), " results but ", results.size(),
                                      " were asked for");
  }
  FrameStack* frames = FrameStack::Of(stack);
  if (frames == nullptr) {
    return base::FailedPreconditionError("the stack carries another module's extension");
  }
  uint32_t entry;
  RT_RETURN_IF_ERROR(EnterFunction(*frames, function, bytecode_state, args, &entry));
  Status status = Execute(*frames, entry, results);
  if (status.code() == StatusCode::kDeferred) stack.set_suspended(this);
  return status;
}

Status BytecodeModule::Resume(Stack& stack, std::span<Value> results) {
  FrameStack* frames = FrameStack::Cast(stack.extension());
  if (frames == nullptr || frames->suspended_entry == kNoFrame) {
    return base::FailedPreconditionError("module '", name_, "' has no suspended call on this stack");
  }
  const uint32_t entry = frames->suspended_entry;
  if (results.size() != frames->at(entry)->function->result_types.size()) {
    return base::InvalidArgumentError("resumed with ", results.size(), " results but the call returns ",
                                      frames->at(entry)->function->result_types.size());
  }
  frames->suspended_entry = kNoFrame;
  stack.set_suspended(nullptr);
  Status status = Execute(*frames, entry, results);
  if (status.code() == StatusCode::kDeferred) stack.set_suspended(this);
  return status;
}

}  // namespace iree_rt::vm::bytecode
