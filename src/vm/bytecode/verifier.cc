// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/bytecode/verifier.h"

#include <memory>
#include <utility>
#include <vector>

#include "vm/bytecode/bytecode_reader.h"
#include "vm/bytecode/disassembler.h"
#include "vm/cconv.h"

namespace iree_rt::vm::bytecode {

using base::Status;

namespace {

// A callee's calling convention as the verifier needs it. |known| is false for an import
// declared without a cconv: its call sites are only range-checked.
struct Signature {
  bool known = false;
  Status error;  // the cconv did not parse
  Cconv cconv;
  std::vector<ValueType> argument_types;  // one per argument (meaningful without spans)
};

// A branch target to check once the walk has found every block marker.
struct BranchTarget {
  uint32_t target;
  uint32_t instruction_pc;
};

class ModuleVerifier {
 public:
  ModuleVerifier(const ModuleImage& image, std::span<const vm::Type> types,
                 std::span<const std::string_view> resolved_import_cconvs)
      : image_(image),
        types_(types),
        resolved_import_cconvs_(resolved_import_cconvs),
        function_signatures_(image.functions().size()),
        import_signatures_(image.imports().size()) {}

  Status VerifyFunction(uint32_t ordinal);

 private:
  // Caches below are filled lazily; block_starts_ and branch_targets_ are scratch space
  // reused by every function.
  friend class FunctionVerifier;

  const Signature& FunctionSignature(uint32_t ordinal) {
    auto& slot = function_signatures_[ordinal];
    if (!slot) slot = Parse(image_.functions()[ordinal].cconv, /*known=*/true);
    return *slot;
  }
  const Signature& ImportSignature(uint32_t ordinal) {
    auto& slot = import_signatures_[ordinal];
    if (!slot) {
      std::string_view cconv = image_.imports()[ordinal].cconv;
      if (ordinal < resolved_import_cconvs_.size() && !resolved_import_cconvs_[ordinal].empty()) {
        cconv = resolved_import_cconvs_[ordinal];
      }
      slot = Parse(cconv, /*known=*/!cconv.empty());
    }
    return *slot;
  }
  static std::unique_ptr<Signature> Parse(std::string_view cconv, bool known) {
    auto signature = std::make_unique<Signature>();
    signature->known = known;
    if (!known) return signature;
    auto parsed = ParseCconv(cconv);
    if (parsed.ok()) {
      signature->cconv = std::move(parsed.value());
      for (const CconvItem& item : signature->cconv.arguments) {
        signature->argument_types.push_back(item.type);
      }
    } else {
      signature->error = parsed.status();
    }
    return signature;
  }

  const ModuleImage& image_;
  std::span<const vm::Type> types_;
  std::span<const std::string_view> resolved_import_cconvs_;
  std::vector<std::unique_ptr<Signature>> function_signatures_;
  std::vector<std::unique_ptr<Signature>> import_signatures_;
  std::vector<uint8_t> block_starts_;
  std::vector<BranchTarget> branch_targets_;
};

bool Is64Bit(ValueType type) { return type == ValueType::kI64 || type == ValueType::kF64; }

class FunctionVerifier {
 public:
  FunctionVerifier(ModuleVerifier& module, uint32_t ordinal)
      : module_(module),
        image_(module.image_),
        ordinal_(ordinal),
        function_(image_.functions()[ordinal]),
        code_(function_.bytecode) {}

  Status Run();

 private:
  // Names the list element being checked, for messages: "argument 2 (i64): ...".
  struct ElementContext {
    const char* what = nullptr;
    uint32_t index = 0;
    ValueType type = ValueType::kNone;
  };

  // An error at |pc|; |instruction| (when decoded) is appended in disassembled form.
  template <typename... Args>
  Status Fail(const Instruction* instruction, uint32_t pc, const Args&... args) {
    std::string message = base::StrCat(DescribeFunction(image_, ordinal_), " pc ", pc, ": ");
    if (element_.what) {
      message += base::StrCat(element_.what, " ", element_.index);
      if (element_.type != ValueType::kNone) {
        message += base::StrCat(" (", ValueTypeName(element_.type), ")");
      }
      message += ": ";
    }
    message += base::StrCat(args...);
    if (instruction) {
      message += "; at `" + FormatInstruction(image_, code_, *instruction) + "`";
    }
    return base::InvalidArgumentError(message);
  }
  template <typename... Args>
  Status Fail(const Instruction& instruction, const Args&... args) {
    return Fail(&instruction, instruction.pc, args...);
  }

  Status VerifySignature();
  Status VerifyInstruction(const Instruction& inst);
  Status CheckRegister(const Instruction& inst, uint16_t raw, Bank bank, uint8_t width,
                       bool move_allowed);
  Status CheckTypedRegister(const Instruction& inst, uint16_t raw, ValueType type,
                            bool move_allowed);
  Status CheckList(const Instruction& inst, const OperandSpec& spec, const OperandValue& list);
  Status CheckRemap(const Instruction& inst, const OperandValue& remap);
  Status CheckTypedList(const Instruction& inst, const OperandValue& list,
                        std::span<const ValueType> types, bool move_allowed, const char* what);
  Status CheckCall(const Instruction& inst, bool variadic);
  Status CheckVariadicArguments(const Instruction& inst, const Cconv& cconv,
                                const OperandValue& segments, const OperandValue& arguments);
  void AddBranchTarget(uint32_t target, uint32_t instruction_pc) {
    module_.branch_targets_.push_back({target, instruction_pc});
  }

  ModuleVerifier& module_;
  const ModuleImage& image_;
  uint32_t ordinal_;
  const FunctionInfo& function_;
  std::span<const uint8_t> code_;
  std::span<const ValueType> result_types_;
  ElementContext element_;
};

Status FunctionVerifier::VerifySignature() {
  const Signature& signature = module_.FunctionSignature(ordinal_);
  if (!signature.error.ok()) {
    return Fail(nullptr, 0, "bad calling convention: ", signature.error.message());
  }
  const Cconv& cconv = signature.cconv;
  if (cconv.has_spans()) {
    return Fail(nullptr, 0, "calling convention '", function_.cconv,
                "' has variadic spans, which only imports may have");
  }
  // Arguments arrive in registers assigned in cconv order; 64-bit values take an even pair.
  uint32_t i32_slots = 0, ref_slots = 0;
  for (const CconvItem& item : cconv.arguments) {
    if (item.type == ValueType::kRef) {
      ++ref_slots;
    } else if (Is64Bit(item.type)) {
      i32_slots = ((i32_slots + 1) & ~1u) + 2;
    } else {
      ++i32_slots;
    }
  }
  if (i32_slots > function_.i32_register_count || ref_slots > function_.ref_register_count) {
    return Fail(nullptr, 0, "arguments of calling convention '", function_.cconv, "' need ",
                i32_slots, " i32 and ", ref_slots, " ref registers but the function has ",
                function_.i32_register_count, " and ", function_.ref_register_count);
  }
  result_types_ = cconv.results;
  return Status();
}

Status FunctionVerifier::CheckRegister(const Instruction& inst, uint16_t raw, Bank bank,
                                       uint8_t width, bool move_allowed) {
  if (raw & kRegisterRefBit) {
    if (bank == Bank::kI32) {
      return Fail(inst, "ref register r", raw & kRefOrdinalMask,
                  " where an i32-bank register is required");
    }
    if ((raw & kRegisterMoveBit) && !move_allowed) {
      return Fail(inst, "MOVE bit on register r", raw & kRefOrdinalMask,
                  ", an operand that does not allow it");
    }
    const uint32_t ordinal = raw & kRefOrdinalMask;
    if (ordinal >= function_.ref_register_count) {
      return Fail(inst, "register r", ordinal, " out of range (", function_.ref_register_count,
                  " ref registers)");
    }
    return Status();
  }
  if (bank == Bank::kRef) {
    return Fail(inst, "i32-bank register i", raw, " where a ref register is required");
  }
  if (width == 2 && (raw & 1u)) {
    return Fail(inst, "64-bit register i", raw, " is odd (64-bit values use an even pair)");
  }
  if (static_cast<uint32_t>(raw) + width > function_.i32_register_count) {
    if (width == 2) {
      return Fail(inst, "register pair i", raw, ":", raw + 1, " out of range (",
                  function_.i32_register_count, " i32 registers)");
    }
    return Fail(inst, "register i", raw, " out of range (", function_.i32_register_count,
                " i32 registers)");
  }
  return Status();
}

Status FunctionVerifier::CheckTypedRegister(const Instruction& inst, uint16_t raw, ValueType type,
                                            bool move_allowed) {
  if (type == ValueType::kRef) return CheckRegister(inst, raw, Bank::kRef, 1, move_allowed);
  return CheckRegister(inst, raw, Bank::kI32, Is64Bit(type) ? 2 : 1, false);
}

Status FunctionVerifier::CheckList(const Instruction& inst, const OperandSpec& spec,
                                   const OperandValue& list) {
  for (uint32_t i = 0; i < list.count; ++i) {
    const uint16_t raw = ReadU16(code_, list.offset + 2 * i);
    // Mixed lists carry no width; each entry is checked in the bank its bit names.
    const Bank bank =
        spec.bank != Bank::kAny ? spec.bank : ((raw & kRegisterRefBit) ? Bank::kRef : Bank::kI32);
    element_ = {"list entry", i, ValueType::kNone};
    RT_RETURN_IF_ERROR(CheckRegister(inst, raw, bank, spec.width, spec.move_allowed));
  }
  element_ = {};
  return Status();
}

Status FunctionVerifier::CheckRemap(const Instruction& inst, const OperandValue& remap) {
  for (uint32_t i = 0; i < remap.count; ++i) {
    const uint16_t source = ReadU16(code_, remap.offset + 4 * i);
    const uint16_t target = ReadU16(code_, remap.offset + 4 * i + 2);
    if ((source ^ target) & kRegisterRefBit) {
      return Fail(inst, "branch argument ", i, " copies between register banks");
    }
    const Bank bank = (source & kRegisterRefBit) ? Bank::kRef : Bank::kI32;
    element_ = {"branch argument", i, ValueType::kNone};
    RT_RETURN_IF_ERROR(CheckRegister(inst, source, bank, 1, /*move_allowed=*/true));
    RT_RETURN_IF_ERROR(CheckRegister(inst, target, bank, 1, /*move_allowed=*/false));
  }
  element_ = {};
  return Status();
}

Status FunctionVerifier::CheckTypedList(const Instruction& inst, const OperandValue& list,
                                        std::span<const ValueType> types, bool move_allowed,
                                        const char* what) {
  if (list.count != types.size()) {
    return Fail(inst, what, " list has ", list.count, " registers but the calling convention has ",
                types.size());
  }
  for (uint32_t i = 0; i < list.count; ++i) {
    const uint16_t raw = ReadU16(code_, list.offset + 2 * i);
    element_ = {what, i, types[i]};
    RT_RETURN_IF_ERROR(CheckTypedRegister(inst, raw, types[i], move_allowed));
  }
  element_ = {};
  return Status();
}

Status FunctionVerifier::CheckVariadicArguments(const Instruction& inst, const Cconv& cconv,
                                                const OperandValue& segments,
                                                const OperandValue& arguments) {
  if (segments.count != cconv.arguments.size()) {
    return Fail(inst, "segment list has ", segments.count,
                " entries but the callee's calling convention has ", cconv.arguments.size(),
                " arguments");
  }
  uint64_t expected = 0;  // registers the segments cover
  for (uint32_t i = 0; i < segments.count; ++i) {
    const uint16_t segment = ReadU16(code_, segments.offset + 2 * i);
    const CconvItem& item = cconv.arguments[i];
    if (!item.is_span()) {
      if (segment != kSegmentScalar) {
        return Fail(inst, "segment ", i, " is ", segment, " but argument ", i,
                    " is not a variadic span");
      }
      expected += 1;
    } else {
      if (segment == kSegmentScalar) {
        return Fail(inst, "segment ", i, " gives no tuple count for variadic argument ", i);
      }
      expected += static_cast<uint64_t>(segment) * item.tuple.size();
    }
  }
  if (expected != arguments.count) {
    return Fail(inst, "argument list has ", arguments.count,
                " registers but the segment list covers ", expected);
  }
  uint32_t next = 0;
  auto check = [&](ValueType type) {
    const uint16_t raw = ReadU16(code_, arguments.offset + 2 * next);
    element_ = {"argument", next++, type};
    return CheckTypedRegister(inst, raw, type, /*move_allowed=*/true);
  };
  for (uint32_t i = 0; i < segments.count; ++i) {
    const CconvItem& item = cconv.arguments[i];
    if (!item.is_span()) {
      RT_RETURN_IF_ERROR(check(item.type));
      continue;
    }
    const uint16_t segment = ReadU16(code_, segments.offset + 2 * i);
    for (uint32_t t = 0; t < segment; ++t) {
      for (ValueType type : item.tuple) RT_RETURN_IF_ERROR(check(type));
    }
  }
  element_ = {};
  return Status();
}

Status FunctionVerifier::CheckCall(const Instruction& inst, bool variadic) {
  const uint32_t function = static_cast<uint32_t>(inst.operands[0].value);
  const OperandValue& segments = inst.operands[1];
  const OperandValue& arguments = inst.operands[variadic ? 2 : 1];
  // Yieldable calls carry the resume target between the argument and result lists.
  const auto& spec = *inst.spec;
  const OperandValue& results = inst.operands[spec.operand_count - 1];

  const Signature* signature;
  if (function & kFunctionImportBit) {
    const uint32_t import = function & ~kFunctionImportBit;
    if (import >= image_.imports().size()) {
      return Fail(inst, "import ordinal ", import, " out of range (", image_.imports().size(),
                  " imports)");
    }
    signature = &module_.ImportSignature(import);
  } else {
    if (function >= image_.functions().size()) {
      return Fail(inst, "function ordinal ", function, " out of range (", image_.functions().size(),
                  " functions)");
    }
    if (variadic) {
      return Fail(inst, "variadic call to internal function ", function,
                  " (only imports take variadic arguments)");
    }
    signature = &module_.FunctionSignature(function);
  }

  if (!signature->known) {
    // No declared cconv: check ranges and banks only (VerifyImportCallSites does the rest).
    OperandSpec any_in{OperandKind::kRegisterList, Bank::kAny, 1, false, true};
    OperandSpec any_out{OperandKind::kRegisterList, Bank::kAny, 1, true, false};
    RT_RETURN_IF_ERROR(CheckList(inst, any_in, arguments));
    return CheckList(inst, any_out, results);
  }
  if (!signature->error.ok()) {
    return Fail(inst, "callee has a bad calling convention: ", signature->error.message());
  }
  const Cconv& cconv = signature->cconv;
  if (variadic) {
    RT_RETURN_IF_ERROR(CheckVariadicArguments(inst, cconv, segments, arguments));
  } else {
    if (cconv.has_spans()) {
      return Fail(inst, "non-variadic call to a callee with variadic arguments");
    }
    RT_RETURN_IF_ERROR(
        CheckTypedList(inst, arguments, signature->argument_types, true, "argument"));
  }
  return CheckTypedList(inst, results, cconv.results, false, "result");
}

Status FunctionVerifier::VerifyInstruction(const Instruction& inst) {
  const OpSpec& spec = *inst.spec;
  if (inst.set == OpSet::kExtF32 && !(function_.requirements & kFeatureExtF32)) {
    return Fail(inst, "f32 extension opcode but the function does not require EXT_F32");
  }
  if (inst.set == OpSet::kExtF64 && !(function_.requirements & kFeatureExtF64)) {
    return Fail(inst, "f64 extension opcode but the function does not require EXT_F64");
  }

  // Calls and returns check their register lists against calling conventions.
  bool lists_checked = false;
  if (inst.set == OpSet::kCore) {
    switch (static_cast<CoreOp>(inst.opcode)) {
      case CoreOp::kCall:
      case CoreOp::kCallYieldable:
        RT_RETURN_IF_ERROR(CheckCall(inst, /*variadic=*/false));
        lists_checked = true;
        break;
      case CoreOp::kCallVariadic:
      case CoreOp::kCallVariadicYieldable:
        RT_RETURN_IF_ERROR(CheckCall(inst, /*variadic=*/true));
        lists_checked = true;
        break;
      case CoreOp::kReturn:
        RT_RETURN_IF_ERROR(CheckTypedList(inst, inst.operands[0], result_types_, true, "result"));
        lists_checked = true;
        break;
      case CoreOp::kImportResolved: {
        const uint32_t function = static_cast<uint32_t>(inst.operands[0].value);
        if (!(function & kFunctionImportBit)) {
          return Fail(inst, "import.resolved names internal function ", function);
        }
        if ((function & ~kFunctionImportBit) >= image_.imports().size()) {
          return Fail(inst, "import ordinal ", function & ~kFunctionImportBit, " out of range (",
                      image_.imports().size(), " imports)");
        }
        break;
      }
      default:
        break;
    }
  }

  for (int i = 0; i < spec.operand_count; ++i) {
    const OperandSpec& op = spec.operands[i];
    const OperandValue& value = inst.operands[i];
    switch (op.kind) {
      case OperandKind::kRegister:
        RT_RETURN_IF_ERROR(CheckRegister(inst, static_cast<uint16_t>(value.value), op.bank,
                                         op.width, op.move_allowed));
        break;
      case OperandKind::kGlobal:
        if (op.global_bytes == 0) {
          if (value.value >= image_.global_ref_count()) {
            return Fail(inst, "ref global ", value.value, " out of range (",
                        image_.global_ref_count(), " ref globals)");
          }
        } else if (value.value + op.global_bytes > image_.global_bytes_capacity()) {
          return Fail(inst, "global byte offset ", value.value, " + ", +op.global_bytes,
                      " out of range (", image_.global_bytes_capacity(), " bytes of globals)");
        } else if (value.value % op.global_bytes != 0) {
          return Fail(inst, "global byte offset ", value.value, " is not ", +op.global_bytes,
                      "-byte aligned");
        }
        break;
      case OperandKind::kRodata:
        if (value.value >= image_.rodata().size()) {
          return Fail(inst, "rodata ordinal ", value.value, " out of range (",
                      image_.rodata().size(), " rodata segments)");
        }
        break;
      case OperandKind::kType: {
        if (value.value >= module_.types_.size()) {
          return Fail(inst, "type ", value.value, " out of range (", module_.types_.size(),
                      " types)");
        }
        const vm::Type& type = module_.types_[value.value];
        const bool list_alloc =
            inst.set == OpSet::kCore && inst.opcode == static_cast<uint8_t>(CoreOp::kListAlloc);
        if (!list_alloc && type.is_value()) {
          return Fail(inst, "type ", value.value, " ('", image_.type_names()[value.value],
                      "') is not a ref type");
        }
        break;
      }
      case OperandKind::kBranchTarget:
        AddBranchTarget(static_cast<uint32_t>(value.value), inst.pc);
        break;
      case OperandKind::kRemap:
        RT_RETURN_IF_ERROR(CheckRemap(inst, value));
        break;
      case OperandKind::kCases: {
        CaseCursor cursor(code_, value);
        uint32_t target;
        OperandValue remap;
        while (cursor.Next(&target, &remap)) {
          AddBranchTarget(target, inst.pc);
          RT_RETURN_IF_ERROR(CheckRemap(inst, remap));
        }
        break;
      }
      case OperandKind::kRegisterList:
        if (!lists_checked) RT_RETURN_IF_ERROR(CheckList(inst, op, value));
        break;
      case OperandKind::kImmediate32:
      case OperandKind::kImmediate64:
      case OperandKind::kFunction:  // checked with the call / import.resolved above
      case OperandKind::kString:
      case OperandKind::kCaseCount:
      case OperandKind::kSegments:
        break;
    }
  }
  return Status();
}

Status FunctionVerifier::Run() {
  RT_RETURN_IF_ERROR(VerifySignature());

  const uint32_t size = static_cast<uint32_t>(code_.size());
  if (size == 0) return Fail(nullptr, 0, "empty function");
  std::vector<uint8_t>& block_starts = module_.block_starts_;
  block_starts.assign(size, 0);
  module_.branch_targets_.clear();

  uint32_t block_count = 0;
  bool expect_block = true;  // at pc 0 and after every terminator
  uint32_t pc = 0;
  Instruction inst;
  while (pc < size) {
    uint32_t error_pc = 0;
    switch (DecodeInstruction(code_, pc, &inst, &error_pc)) {
      case DecodeError::kNone:
        break;
      case DecodeError::kUnknownOpcode:
        return Fail(nullptr, pc, "unknown opcode 0x", std::hex, +inst.opcode, std::dec,
                    inst.set == OpSet::kCore     ? ""
                    : inst.set == OpSet::kExtF32 ? " in the ext_f32 set"
                                                 : " in the ext_f64 set");
      case DecodeError::kOverrun:
        return base::OutOfRangeError(
            DescribeFunction(image_, ordinal_), " pc ", pc, ": truncated instruction",
            inst.spec ? base::StrCat(" ", inst.spec->mnemonic) : std::string(), " (field at pc ",
            error_pc, " runs past the end of the ", size, "-byte bytecode)");
    }
    const bool is_block =
        inst.set == OpSet::kCore && inst.opcode == static_cast<uint8_t>(CoreOp::kBlock);
    if (is_block) {
      if (!expect_block) {
        return Fail(inst, "block marker after a non-terminator (no fall-through into blocks)");
      }
      block_starts[pc] = 1;
      ++block_count;
      expect_block = false;
    } else {
      if (expect_block) {
        return Fail(inst, pc == 0 ? "the function does not start with a block marker"
                                  : "instruction after a terminator is not a block marker");
      }
      RT_RETURN_IF_ERROR(VerifyInstruction(inst));
      expect_block = inst.spec->terminator;
    }
    pc = inst.next_pc;
  }
  if (!expect_block) return Fail(inst, "the last instruction is not a terminator");
  if (block_count != function_.block_count) {
    return Fail(nullptr, 0, "found ", block_count, " blocks but the descriptor declares ",
                function_.block_count);
  }
  for (const BranchTarget& branch : module_.branch_targets_) {
    if (branch.target >= size || !block_starts[branch.target]) {
      Instruction at;
      uint32_t unused;
      const bool decoded =
          DecodeInstruction(code_, branch.instruction_pc, &at, &unused) == DecodeError::kNone;
      return Fail(decoded ? &at : nullptr, branch.instruction_pc, "branch target pc ",
                  branch.target, " is not a block marker");
    }
  }
  return Status();
}

Status ModuleVerifier::VerifyFunction(uint32_t ordinal) {
  if (ordinal >= image_.functions().size()) {
    return base::InvalidArgumentError("function ordinal ", ordinal, " out of range (",
                                      image_.functions().size(), " functions)");
  }
  if (types_.size() != image_.type_names().size()) {
    return base::InvalidArgumentError("verifier given ", types_.size(),
                                      " resolved types for a type table of ",
                                      image_.type_names().size());
  }
  return FunctionVerifier(*this, ordinal).Run();
}

}  // namespace

std::string DescribeFunction(const ModuleImage& image, uint32_t function_ordinal) {
  std::string_view name;
  if (function_ordinal < image.functions().size()) {
    name = image.functions()[function_ordinal].debug_name;
  }
  if (name.empty()) {
    for (const ExportInfo& exported : image.exports()) {
      if (exported.internal_ordinal == function_ordinal) {
        name = exported.name;
        break;
      }
    }
  }
  if (name.empty()) return base::StrCat("function ordinal ", function_ordinal);
  return base::StrCat("function '", name, "' (ordinal ", function_ordinal, ")");
}

Status VerifyModule(const ModuleImage& image, std::span<const vm::Type> types) {
  ModuleVerifier verifier(image, types, {});
  for (uint32_t i = 0; i < image.functions().size(); ++i) {
    RT_RETURN_IF_ERROR(verifier.VerifyFunction(i));
  }
  return Status();
}

Status VerifyFunction(const ModuleImage& image, std::span<const vm::Type> types,
                      uint32_t function_ordinal) {
  ModuleVerifier verifier(image, types, {});
  return verifier.VerifyFunction(function_ordinal);
}

Status VerifyImportCallSites(const ModuleImage& image,
                             std::span<const std::string_view> resolved_cconvs) {
  if (resolved_cconvs.size() != image.imports().size()) {
    return base::InvalidArgumentError("given ", resolved_cconvs.size(), " resolved cconvs for ",
                                      image.imports().size(), " imports");
  }
  bool any_differs = false;
  for (size_t i = 0; i < image.imports().size(); ++i) {
    if (!resolved_cconvs[i].empty() && resolved_cconvs[i] != image.imports()[i].cconv) {
      any_differs = true;
    }
  }
  if (!any_differs) return Status();
  // Verify again with the resolved cconvs standing in for the declared ones. Types were checked
  // by VerifyModule already; treat every entry as the any type so only calls can fail anew.
  std::vector<vm::Type> any_types(image.type_names().size(), vm::Type::Any());
  ModuleVerifier verifier(image, any_types, resolved_cconvs);
  for (uint32_t i = 0; i < image.functions().size(); ++i) {
    RT_RETURN_IF_ERROR(verifier.VerifyFunction(i));
  }
  return Status();
}

}  // namespace iree_rt::vm::bytecode
