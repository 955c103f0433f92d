// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// BytecodeModule: a vm::Module whose functions are VM bytecode loaded from a .vmfb.
//
// Load() parses the archive (ModuleImage), resolves the type table through the Instance, and
// runs the bytecode verifier over every function, so the interpreter can trust every operand it
// decodes. The module is immutable afterwards and may be shared by many contexts; each context's
// globals, resolved imports and rodata buffers live in its BytecodeModuleState.
//
// Calls run in the interpreter (interpreter.h) on the caller's vm::Stack. A function that
// executes `vm.yield` returns DEFERRED with its frames kept on the stack, and
// stack.suspended() == this module: call Resume(stack, results) to continue it.
//
// Rodata buffers: `vm.const.ref.rodata` hands out read-only vm::Buffers that alias the module's
// bytes and keep the module alive. They are created per state on first use and owned by the
// state (which the context owns), never by the module, so module → buffer → module is no cycle.
//
// Thread-safety: the module is immutable and may be used from any thread; a state is externally
// synchronized (one invocation at a time, as vm::Context guarantees).
#ifndef IREE_RT_VM_BYTECODE_BYTECODE_MODULE_H_
#define IREE_RT_VM_BYTECODE_BYTECODE_MODULE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "vm/bytecode/call_site.h"
#include "vm/bytecode/interpreter_frame.h"
#include "vm/bytecode/specializer.h"
#include "vm/arg.h"
#include "vm/cconv.h"
#include "vm/module.h"
#include "vm/type.h"

namespace iree_rt::vm {
class Instance;
class NativeModule;
}

namespace iree_rt::vm::bytecode {

class ModuleImage;

// How one argument or result occupies registers.
enum class SlotKind : uint8_t {
  k32,   // i32/f32: one i32-bank slot
  k64,   // i64/f64: an even-aligned i32-bank slot pair, copied as one 64-bit value
  kRef,  // one ref-bank slot
};

// An internal function, prepared for the interpreter at load time.
struct CompiledFunction {
  struct Arg {
    SlotKind kind;
    uint16_t slot;  // register ordinal in the callee's bank (§4.5: banks count from 0)
  };
  const uint8_t* code = nullptr;  // bytecode, pc 0 = entry block marker
  const CallSite* call_sites = nullptr;  // indexed by the operand of kCallSiteOpcode in |code|
  const uint32_t* call_site_ops = nullptr;  // the module's op pool (CallSite::ops_offset)
  uint32_t code_length = 0;
  uint32_t ordinal = 0;
  uint32_t i32_slots = 0;   // allocated i32-bank slots (>= the declared count)
  uint32_t ref_slots = 0;   // allocated ref-bank slots
  uint32_t i32_bytes = 0;   // i32 bank size, multiple of 16
  uint32_t frame_bytes = 0;  // header + both banks
  std::vector<Arg> args;
  std::vector<SlotKind> results;
  std::vector<ValueType> arg_types;     // for the host boundary (Values)
  std::vector<ValueType> result_types;
  std::string name;  // debug name, else its first export name, else "func#N"
};

// Where an import goes, per state.
struct ImportBinding {
  enum class Kind : uint8_t {
    kUnresolved,  // optional import with no target (or never bound)
    kBytecode,    // an export of a BytecodeModule with the same signature: its frame is pushed
                  // onto the caller's frame stack, so yields propagate
    kCall,        // any other module: called synchronously through Module::Call
    kNative,      // a NativeModule export with the declared signature: Args are built straight
                  // from the registers the verifier checked (NativeModule::CallArgs)
  };
  Kind kind = Kind::kUnresolved;
  // kBytecode
  const CompiledFunction* function = nullptr;
  BytecodeModuleState* bytecode_state = nullptr;
  // kCall and kNative
  Module* module = nullptr;
  NativeModule* native = nullptr;  // kNative: |module| as a NativeModule
  // kNative, release builds: the export's plain-function handler, called directly (else null).
  base::Status (*handler)(ModuleState&, std::span<const Arg>, std::span<Value>) = nullptr;
  uint16_t span_count = 0;         // kNative: variadic arguments in |cconv| (one count Arg each)
  // kNative: per register of a call without spans, whether it is a 64-bit i64/f64 (the
  // verifier proved the banks, so that is all loading needs).
  std::vector<uint8_t> wide_arguments;
  ModuleState* state = nullptr;
  uint32_t export_ordinal = 0;
  Cconv cconv;  // the target export's calling convention
};

class BytecodeModule;

// Per-context state: globals, import bindings and lazily created rodata buffers.
class BytecodeModuleState final : public ModuleState {
 public:
  BytecodeModuleState(BytecodeModule& module, uint32_t global_bytes, uint32_t global_refs,
                      size_t import_count, size_t rodata_count);
  ~BytecodeModuleState() override;
  BytecodeModuleState(const BytecodeModuleState&) = delete;
  BytecodeModuleState& operator=(const BytecodeModuleState&) = delete;

  BytecodeModule& module() const { return module_; }
  uint8_t* global_bytes() const { return global_bytes_; }
  uint32_t global_bytes_size() const { return global_bytes_size_; }
  RefSlot* ref_globals() const { return ref_globals_.get(); }
  uint32_t ref_global_count() const { return ref_global_count_; }
  std::vector<ImportBinding>& imports() { return imports_; }
  // The retained rodata buffer |ordinal| of this state (created on first use).
  const RefSlot& Rodata(uint32_t ordinal) {
    const RefSlot& slot = rodata_[ordinal];
    return slot.object != nullptr ? slot : CreateRodata(ordinal);
  }

 private:
  BytecodeModule& module_;
  uint8_t* global_bytes_ = nullptr;  // 16-byte aligned, zeroed
  uint32_t global_bytes_size_ = 0;
  std::unique_ptr<RefSlot[]> ref_globals_;
  uint32_t ref_global_count_ = 0;
  std::vector<ImportBinding> imports_;
  const RefSlot& CreateRodata(uint32_t ordinal);

  std::vector<RefSlot> rodata_;
};

class BytecodeModule final : public Module {
 public:
  // Feature bits this runtime executes: EXT_F32 | EXT_F64 | YIELD | UNWIND.
  static const uint32_t kAvailableFeatures;

  // RESOURCE_EXHAUSTED if a module of |size| bytes is over |instance|'s module size limit (Load
  // checks it; callers that copy the bytes first check it before copying).
  static base::Status CheckSize(const Instance& instance, uint64_t size);

  // Parses, type-resolves and verifies |bytes| (either .vmfb layout; must start 8-byte aligned).
  // |keep_alive| owns the bytes (e.g. the base::MappedFile) and is held as long as the module or
  // anything handed out from it (rodata buffers) lives; pass null only when the caller keeps the
  // bytes alive and unchanged for longer than all of those.
  // Errors: INVALID_ARGUMENT (malformed module, failed verification), NOT_FOUND (a type name not
  // registered with |instance|); RESOURCE_EXHAUSTED past the instance's module size limit.
  static base::StatusOr<base::Ref<BytecodeModule>> Load(Instance& instance,
                                                        std::span<const uint8_t> bytes,
                                                        base::Ref<base::RefObject> keep_alive);

  std::string_view name() const override { return name_; }
  uint32_t version() const override { return version_; }
  std::span<const vm::Attr> attrs() const override { return attrs_; }
  std::span<const vm::ExportInfo> exports() const override { return exports_; }
  std::span<const vm::ImportInfo> imports() const override { return imports_; }
  std::span<const vm::Dependency> dependencies() const override { return dependencies_; }

  base::StatusOr<std::unique_ptr<ModuleState>> CreateState(Instance& instance) override;
  uint64_t state_footprint_bytes() const override {
    return uint64_t{global_bytes_} + uint64_t{global_refs_} * sizeof(RefSlot);
  }
  // Binds import |ordinal|. A BytecodeModule target whose export has this import's exact
  // calling convention is entered directly by the interpreter; anything else through
  // Module::Call. INTERNAL when the target's signature differs from the declared one.
  base::Status BindImport(ModuleState& state, uint32_t ordinal, const ImportTarget& target) override;
  base::Status Call(Stack& stack, ModuleState& state, uint32_t export_ordinal,
                    std::span<const Value> args, std::span<Value> results) override;
  base::Status Resume(Stack& stack, std::span<Value> results) override;

  ~BytecodeModule() override;

  // Interpreter access.
  const std::vector<CompiledFunction>& functions() const { return functions_; }
  const std::vector<Type>& types() const { return types_; }
  std::span<const uint8_t> rodata(uint32_t ordinal) const { return rodata_[ordinal]; }
  size_t rodata_count() const { return rodata_.size(); }
  const CompiledFunction& export_function(uint32_t export_ordinal) const {
    return functions_[export_functions_[export_ordinal]];
  }
  // The bytecode of all functions, and what the loaded module keeps to run it beside the
  // image: the private specialized copies of every body plus the call-site tables.
  uint64_t bytecode_bytes() const { return bytecode_bytes_; }
  uint64_t decoded_bytes() const { return decoded_bytes_; }
  const SpecializeStats& specialize_stats() const { return specialize_stats_; }
  // "file:line:col" for the op at |pc| of function |ordinal|, or "" without debug info.
  std::string SourceLocation(uint32_t ordinal, uint32_t pc) const;

 private:
  BytecodeModule() = default;
  base::Status Initialize(Instance& instance);
  // Decodes the import calls into call_sites_ and rewrites them in copies of the bodies.
  base::Status PrepareCallSites(const ModuleImage& image);

  base::Ref<base::RefObject> keep_alive_;
  std::unique_ptr<ModuleImage> image_;
  std::string_view name_;
  uint32_t version_ = 0;
  std::vector<vm::Attr> attrs_;
  std::vector<std::vector<vm::Attr>> export_attrs_;
  std::vector<vm::ExportInfo> exports_;
  std::vector<uint32_t> export_functions_;  // export ordinal → internal ordinal
  std::vector<vm::ImportInfo> imports_;
  std::vector<vm::Dependency> dependencies_;
  std::vector<CompiledFunction> functions_;
  // Every body's private copy: import calls rewritten to call sites, then specialized.
  std::vector<std::unique_ptr<uint8_t[]>> code_copies_;
  uint64_t bytecode_bytes_ = 0;
  uint64_t decoded_bytes_ = 0;
  SpecializeStats specialize_stats_;
  std::vector<CallSite> call_sites_;
  std::vector<uint32_t> call_site_ops_;
  std::vector<Type> types_;
  std::vector<std::span<const uint8_t>> rodata_;
  uint32_t global_bytes_ = 0;
  uint32_t global_refs_ = 0;
};

}  // namespace iree_rt::vm::bytecode

#endif  // IREE_RT_VM_BYTECODE_BYTECODE_MODULE_H_
