// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Interpreter fuzzer: mutated bytecode and rodata of real compiled modules that still load and
// verify are linked into a context (which runs __init) and every export is called, once with
// zeroed arguments and once with ones (null refs). Whatever the program computes, the call must
// end with a status: the verifier's guarantees plus the interpreter's run-time checks have to
// cover everything a verified module can do.
//
// Contexts run under tight limits (set on the instance), so a program that allocates without end or
// nests calls deeply fails with RESOURCE_EXHAUSTED instead of exhausting the fuzzer's memory.
// The step budget bounds loops too, but a loop body's work is not bounded by it (a fill of a
// whole buffer per iteration), so only functions whose run time is bounded by the module's size
// are called: no backward branch, no call cycle, no call to an unbounded function; a module whose
// __init or __deinit is unbounded is not run at all (see README.md). Imports
// are bound to stub native modules (one per imported module name, each function with the
// declared calling convention returning zeros and null refs).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "fuzz_vm_util.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/bytecode/bytecode_reader.h"
#include "vm/bytecode/module_image.h"
#include "vm/cconv.h"
#include "vm/context.h"
#include "vm/native_module.h"
#include "vm/value.h"

namespace iree_rt::fuzz {
namespace {

using vm::bytecode::CaseCursor;
using vm::bytecode::DecodeError;
using vm::bytecode::Instruction;
using vm::bytecode::ModuleImage;
using vm::bytecode::OperandKind;
using vm::bytecode::OperandValue;

// Which functions have a run time bounded by the module's size: no backward branch, and only
// calls to bounded functions with no cycle back to themselves. |Bounded()[f]| after Analyze.
class Boundedness {
 public:
  explicit Boundedness(const ModuleImage& image) : callees_(image.functions().size()) {
    loop_free_.assign(image.functions().size(), true);
    for (uint32_t f = 0; f < image.functions().size(); ++f) Scan(image, f);
    state_.assign(callees_.size(), kNew);
    bounded_.assign(callees_.size(), false);
    for (uint32_t f = 0; f < callees_.size(); ++f) Visit(f);
  }
  bool bounded(uint32_t f) const { return f < bounded_.size() && bounded_[f]; }

 private:
  enum : uint8_t { kNew, kActive, kDone };

  void Scan(const ModuleImage& image, uint32_t f) {
    std::span<const uint8_t> code = image.functions()[f].bytecode;
    for (uint32_t pc = 0; pc < code.size();) {
      Instruction inst;
      uint32_t error_pc = 0;
      if (vm::bytecode::DecodeInstruction(code, pc, &inst, &error_pc) != DecodeError::kNone) {
        loop_free_[f] = false;  // cannot happen after verification
        return;
      }
      for (int i = 0; i < inst.spec->operand_count; ++i) {
        const OperandKind kind = inst.spec->operands[i].kind;
        const OperandValue& operand = inst.operands[i];
        if (kind == OperandKind::kBranchTarget && operand.value <= inst.pc) loop_free_[f] = false;
        if (kind == OperandKind::kCases) {
          CaseCursor cursor(code, operand);
          uint32_t target;
          OperandValue remap;
          while (cursor.Next(&target, &remap)) {
            if (target <= inst.pc) loop_free_[f] = false;
          }
        }
        if (kind == OperandKind::kFunction && !(operand.value & vm::bytecode::kFunctionImportBit)) {
          callees_[f].push_back(static_cast<uint32_t>(operand.value));
        }
      }
      pc = inst.next_pc;
    }
  }

  // Iterative DFS (mutated modules may have long call chains); a function on a cycle, or calling
  // one, is unbounded.
  void Visit(uint32_t root) {
    if (state_[root] != kNew) return;
    std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
    state_[root] = kActive;
    bounded_[root] = loop_free_[root];
    while (!stack.empty()) {
      const uint32_t node = stack.back().first;
      const size_t next = stack.back().second++;
      if (next == callees_[node].size()) {
        state_[node] = kDone;
        stack.pop_back();
        if (!stack.empty() && !bounded_[node]) bounded_[stack.back().first] = false;
        continue;
      }
      const uint32_t callee = callees_[node][next];
      if (callee >= callees_.size() || state_[callee] == kActive) {
        bounded_[node] = false;
        for (auto& frame : stack) bounded_[frame.first] = false;
      } else if (state_[callee] == kDone) {
        if (!bounded_[callee]) bounded_[node] = false;
      } else {
        state_[callee] = kActive;
        bounded_[callee] = loop_free_[callee];
        stack.push_back({callee, 0});
      }
    }
  }

  std::vector<std::vector<uint32_t>> callees_;
  std::vector<bool> loop_free_;
  std::vector<uint8_t> state_;
  std::vector<bool> bounded_;
};

// Stands in for a module the program imports from: every imported function exists with the
// declared calling convention and returns zeros (null refs).
class StubModule final : public vm::NativeModule {
 public:
  static base::StatusOr<base::Ref<vm::Module>> Create(
      std::string_view name, std::span<const vm::ImportInfo> imports) {
    std::vector<FunctionDef> functions;
    std::set<std::string_view> seen;
    for (const vm::ImportInfo& import : imports) {
      if (import.module_name != name || !seen.insert(import.function_name).second) continue;
      RT_ASSIGN_OR_RETURN(vm::Cconv cconv, vm::ParseCconv(import.cconv));
      functions.push_back({std::string(import.function_name), std::string(import.cconv),
                           [results = cconv.results](vm::ModuleState&, std::span<const vm::Arg>,
                                                     std::span<vm::Value> out) {
                             for (size_t i = 0; i < out.size() && i < results.size(); ++i) {
                               out[i] = vm::Value::Zero(results[i]);
                             }
                             return base::Status();
                           },
                           {}});
    }
    auto module = base::Ref<StubModule>::Adopt(new StubModule(name, std::move(functions)));
    RT_RETURN_IF_ERROR(module->Validate());
    return base::Ref<vm::Module>(std::move(module));
  }

 private:
  StubModule(std::string_view name, std::vector<FunctionDef> functions)
      : NativeModule(std::string(name), UINT32_MAX, std::move(functions)) {}
};

vm::Value One(vm::ValueType type) {
  switch (type) {
    case vm::ValueType::kF32:
      return vm::Value::F32(1.0f);
    case vm::ValueType::kF64:
      return vm::Value::F64(1.0);
    case vm::ValueType::kI32:
      return vm::Value::I32(1);
    case vm::ValueType::kI64:
      return vm::Value::I64(1);
    default:
      return vm::Value::Zero(type);
  }
}

}  // namespace
}  // namespace iree_rt::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace iree_rt;
  // Far below the fuzzer's 2 GiB RSS limit: 32 MiB per context (buffers, lists, globals),
  // 16 MiB per allocation, 1M list elements, 100k backward branches and calls per call. The
  // compiled test modules need far less; a larger budget only lets a fuzzed module spend seconds
  // zeroing and releasing millions of ref globals under ASan (a timeout, not a bug).
  static base::Ref<vm::Instance> instance = [] {
    base::Ref<vm::Instance> created = fuzz::CreateFuzzInstance();
    vm::Limits limits;
    limits.max_context_memory = uint64_t{32} << 20;
    limits.max_allocation_size = uint64_t{16} << 20;
    limits.max_list_length = uint64_t{1} << 20;
    limits.max_call_steps = 100000;
    created->set_limits(limits);
    return created;
  }();
  auto bytes = base::MakeRef<fuzz::AlignedBytes>(data, size);
  std::span<const uint8_t> span = bytes->bytes();

  auto loaded = vm::bytecode::BytecodeModule::Load(*instance, span, bytes);
  if (!loaded.ok()) return 0;
  base::Ref<vm::bytecode::BytecodeModule> module = std::move(loaded).value();
  // RT_FUZZ_VERBOSE=1 says why each input is or is not run (for curating the corpus).
  static const bool verbose = std::getenv("RT_FUZZ_VERBOSE") != nullptr;
  // Load verified the same bytes; parse again for the raw function table.
  auto image = vm::bytecode::ModuleImage::Parse(span, vm::bytecode::kFeatureAll);
  if (!image.ok()) __builtin_trap();  // Load accepted what Parse rejects
  const fuzz::Boundedness boundedness(*image.value());
  // Context::Create runs __init and the context's destruction __deinit: both must be bounded.
  const auto exports = module->exports();
  for (uint32_t i = 0; i < exports.size(); ++i) {
    const vm::ExportInfo& e = exports[i];
    const uint32_t f = module->export_function(i).ordinal;
    if ((e.name == "__init" || e.name == "__deinit") && !boundedness.bounded(f)) {
      if (verbose) fprintf(stderr, "not run: %.*s has a loop\n", int(e.name.size()), e.name.data());
      return 0;
    }
  }

  std::vector<base::Ref<vm::Module>> modules;
  std::set<std::string_view> stubbed;
  for (const vm::ImportInfo& import : module->imports()) {
    if (import.module_name == module->name() || !stubbed.insert(import.module_name).second) {
      continue;
    }
    auto stub = fuzz::StubModule::Create(import.module_name, module->imports());
    if (!stub.ok()) {
      if (verbose) fprintf(stderr, "not run: %s\n", stub.status().ToString().c_str());
      return 0;
    }
    modules.push_back(std::move(stub).value());
  }
  modules.push_back(module);
  auto context = vm::Context::Create(instance, modules);
  if (!context.ok()) {
    if (verbose) fprintf(stderr, "not run: %s\n", context.status().ToString().c_str());
    return 0;
  }
  for (uint32_t i = 0; i < exports.size(); ++i) {
    const vm::ExportInfo& e = exports[i];
    const uint32_t f = module->export_function(i).ordinal;
    if (!boundedness.bounded(f)) {
      if (verbose) fprintf(stderr, "not run: %.*s has a loop\n", int(e.name.size()), e.name.data());
      continue;
    }
    auto function = context.value()->LookupFunction(std::string(module->name()) + "." +
                                                    std::string(e.name));
    if (!function.ok()) continue;
    const auto& compiled = module->export_function(function->export_ordinal);
    for (bool ones : {false, true}) {
      std::vector<vm::Value> args;
      for (vm::ValueType type : compiled.arg_types) {
        args.push_back(ones ? fuzz::One(type) : vm::Value::Zero(type));
      }
      std::vector<vm::Value> results;
      base::Status status = context.value()->Invoke(*function, args, &results);
      if (verbose) {
        fprintf(stderr, "ran %.*s: %s\n", int(e.name.size()), e.name.data(),
                status.ToString().substr(0, 100).c_str());
      }
    }
  }
  return 0;
}
