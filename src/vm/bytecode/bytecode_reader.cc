// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/bytecode/bytecode_reader.h"

#include <cstdlib>

namespace iree_rt::vm::bytecode {

namespace {

// Not constexpr on purpose: reaching it while the table is built at compile time turns a
// malformed ops.def entry into a compile error. (The table is never built at run time.)
[[noreturn]] void OpsDefError(const char* /*reason, shown by the compile error*/) { std::abort(); }

constexpr OperandSpec Field(OperandKind kind, bool is_float = false) {
  OperandSpec spec;
  spec.kind = kind;
  spec.is_float = is_float;
  return spec;
}
constexpr OperandSpec Registers(OperandKind kind, Bank bank, uint8_t width, bool write,
                                bool move_allowed, bool is_float = false) {
  OperandSpec spec = Field(kind, is_float);
  spec.bank = bank;
  spec.width = width;
  spec.write = write;
  spec.move_allowed = move_allowed;
  return spec;
}
constexpr OperandSpec Reg(Bank bank, uint8_t width, bool write, bool move, bool f = false) {
  return Registers(OperandKind::kRegister, bank, width, write, move, f);
}
constexpr OperandSpec List(Bank bank, uint8_t width, bool write, bool move, bool f = false) {
  return Registers(OperandKind::kRegisterList, bank, width, write, move, f);
}

struct Token {
  std::string_view text;
  OperandSpec spec;
};

// Every operand token ops.def may use (its header documents them).
constexpr Token kTokens[] = {
    {"ri32", Reg(Bank::kI32, 1, false, false)},
    {"wi32", Reg(Bank::kI32, 1, true, false)},
    {"rf32", Reg(Bank::kI32, 1, false, false, true)},
    {"wf32", Reg(Bank::kI32, 1, true, false, true)},
    {"ri64", Reg(Bank::kI32, 2, false, false)},
    {"wi64", Reg(Bank::kI32, 2, true, false)},
    {"rf64", Reg(Bank::kI32, 2, false, false, true)},
    {"wf64", Reg(Bank::kI32, 2, true, false, true)},
    {"rRef", Reg(Bank::kRef, 1, false, false)},
    {"wRef", Reg(Bank::kRef, 1, true, false)},
    {"rRef*", Reg(Bank::kRef, 1, false, true)},
    {"wRef*", Reg(Bank::kRef, 1, true, true)},
    {"i32", Field(OperandKind::kImmediate32)},
    {"f32", Field(OperandKind::kImmediate32, true)},
    {"i64", Field(OperandKind::kImmediate64)},
    {"f64", Field(OperandKind::kImmediate64, true)},
    {"G32", Field(OperandKind::kGlobal)},
    {"F32", Field(OperandKind::kFunction)},
    {"K32", Field(OperandKind::kRodata)},
    {"T32", Field(OperandKind::kType)},
    {"STR", Field(OperandKind::kString)},
    {"PC32", Field(OperandKind::kBranchTarget)},
    {"REMAP", Field(OperandKind::kRemap)},
    {"u16", Field(OperandKind::kCaseCount)},
    {"CASES", Field(OperandKind::kCases)},
    {"SEG", Field(OperandKind::kSegments)},
    {"L[i32]", List(Bank::kI32, 1, false, false)},
    {"L[f32]", List(Bank::kI32, 1, false, false, true)},
    {"L[i64]", List(Bank::kI32, 2, false, false)},
    {"L[f64]", List(Bank::kI32, 2, false, false, true)},
    {"L[ref]", List(Bank::kRef, 1, false, false)},
    {"L[ref*]", List(Bank::kRef, 1, false, true)},
    {"L[any*]", List(Bank::kAny, 1, false, true)},
    {"L[w.any]", List(Bank::kAny, 1, true, false)},
};

constexpr OperandSpec ParseOperandToken(std::string_view text) {
  for (const Token& token : kTokens) {
    if (token.text == text) return token.spec;
  }
  OpsDefError("unknown operand token in ops.def");
}

constexpr OpSpec MakeOpSpec(std::string_view mnemonic, std::string_view operands) {
  OpSpec spec;
  spec.mnemonic = mnemonic;
  spec.operand_string = operands;
  size_t pos = 0;
  while (pos < operands.size()) {
    size_t end = operands.find(' ', pos);
    if (end == std::string_view::npos) end = operands.size();
    if (end > pos) {
      if (spec.operand_count == kMaxOperands) OpsDefError("too many operands in ops.def");
      spec.operands[spec.operand_count++] = ParseOperandToken(operands.substr(pos, end - pos));
    }
    pos = end + 1;
  }
  // A G32 field's access is implied by the operand after it: a T32 means a ref-global
  // ordinal, a register its width in bytes.
  for (int i = 0; i < spec.operand_count; ++i) {
    OperandSpec& op = spec.operands[i];
    if (op.kind != OperandKind::kGlobal) continue;
    if (i + 1 >= spec.operand_count) OpsDefError("G32 must be followed by T32 or a register");
    const OperandSpec& next = spec.operands[i + 1];
    if (next.kind == OperandKind::kType) {
      op.global_bytes = 0;
    } else if (next.kind == OperandKind::kRegister && next.bank == Bank::kI32) {
      op.global_bytes = static_cast<uint8_t>(4 * next.width);
    } else {
      OpsDefError("G32 must be followed by T32 or an i32-bank register");
    }
  }
  for (int i = 0; i < spec.operand_count; ++i) {
    const bool is_cases = spec.operands[i].kind == OperandKind::kCases;
    const bool after_count = i > 0 && spec.operands[i - 1].kind == OperandKind::kCaseCount;
    if (is_cases != after_count) OpsDefError("CASES must directly follow u16");
  }
  return spec;
}

constexpr bool IsTerminator(OpSet set, uint8_t opcode) {
  if (set != OpSet::kCore) return false;
  switch (static_cast<CoreOp>(opcode)) {
    case CoreOp::kBranch:
    case CoreOp::kCondBranch:
    case CoreOp::kBranchTable:
    case CoreOp::kReturn:
    case CoreOp::kFail:
    case CoreOp::kYield:
    case CoreOp::kBreak:
    case CoreOp::kCondBreak:
    case CoreOp::kCallYieldable:
    case CoreOp::kCallVariadicYieldable:
      return true;
    default:
      return false;
  }
}

constexpr std::array<std::array<OpSpec, 256>, kOpSetCount> BuildOpSpecs() {
  std::array<std::array<OpSpec, 256>, kOpSetCount> table{};
#define RT_VM_OP(set, opcode, symbol, mnemonic, operands)          \
  {                                                                \
    OpSpec& slot = table[static_cast<int>(OpSet::k##set)][opcode]; \
    if (slot.valid()) OpsDefError("duplicate opcode in ops.def");  \
    slot = MakeOpSpec(mnemonic, operands);                         \
    slot.terminator = IsTerminator(OpSet::k##set, opcode);         \
  }
#include "vm/bytecode/ops.def"
#undef RT_VM_OP
  // The prefixes are not opcodes of the core set; ops.def must not claim them.
  if (table[0][kPrefixExtF32].valid() || table[0][kPrefixExtF64].valid()) {
    OpsDefError("ops.def defines a core opcode on an extension prefix");
  }
  return table;
}

constexpr size_t CountOps() {
  size_t count = 1;  // the invalid spec at 0
  for (const auto& set : BuildOpSpecs()) {
    for (const OpSpec& spec : set) count += spec.valid() ? 1 : 0;
  }
  return count;
}
static_assert(CountOps() == kOpSpecCount, "set kOpSpecCount (bytecode_reader.h) to ops.def's entries + 1");
static_assert(kOpSpecCount <= 0xFFFF, "kOpIndex entries are 16-bit");

// Both walk BuildOpSpecs() in the same order, so the index and the specs agree.
constexpr std::array<OpSpec, kOpSpecCount> BuildDenseSpecs() {
  std::array<OpSpec, kOpSpecCount> specs{};
  size_t next = 1;
  for (const auto& set : BuildOpSpecs()) {
    for (const OpSpec& spec : set) {
      if (spec.valid()) specs[next++] = spec;
    }
  }
  return specs;
}

constexpr std::array<std::array<uint16_t, 256>, kOpSetCount> BuildOpIndex() {
  std::array<std::array<uint16_t, 256>, kOpSetCount> index{};
  const auto full = BuildOpSpecs();
  uint16_t next = 1;
  for (size_t set = 0; set < full.size(); ++set) {
    for (size_t opcode = 0; opcode < 256; ++opcode) {
      if (full[set][opcode].valid()) index[set][opcode] = next++;
    }
  }
  return index;
}

}  // namespace

extern constexpr std::array<OpSpec, kOpSpecCount> kOpSpecs = BuildDenseSpecs();
extern constexpr std::array<std::array<uint16_t, 256>, kOpSetCount> kOpIndex = BuildOpIndex();

DecodeError DecodeInstruction(std::span<const uint8_t> code, uint32_t pc, Instruction* out,
                              uint32_t* error_pc) {
  const uint32_t size = static_cast<uint32_t>(code.size());
  const uint8_t* bytes = code.data();
  out->pc = pc;
  out->spec = nullptr;
  uint32_t cursor = pc;
  // Each field is bounds-checked before it is read: |need| bytes from |cursor|.
  auto fits = [&](uint32_t need) { return need <= size - cursor; };
  auto overrun = [&](uint32_t at) {
    *error_pc = at;
    return DecodeError::kOverrun;
  };

  uint8_t opcode = bytes[cursor++];
  OpSet set = OpSet::kCore;
  if (opcode == kPrefixExtF32 || opcode == kPrefixExtF64) {
    set = opcode == kPrefixExtF32 ? OpSet::kExtF32 : OpSet::kExtF64;
    if (!fits(1)) return overrun(cursor);
    opcode = bytes[cursor++];
  }
  out->set = set;
  out->opcode = opcode;
  const OpSpec& spec = LookupOp(set, opcode);
  out->spec = &spec;
  if (!spec.valid()) {
    *error_pc = cursor - 1;
    return DecodeError::kUnknownOpcode;
  }

  auto read_u16 = [&](uint32_t at) {
    uint16_t v;
    std::memcpy(&v, bytes + at, 2);
    return v;
  };
  auto read_u32 = [&](uint32_t at) {
    uint32_t v;
    std::memcpy(&v, bytes + at, 4);
    return v;
  };
  // An aligned list: optional pad byte, u16 count, then count × |entry_bytes|.
  auto read_list = [&](uint32_t entry_bytes, OperandValue* value) {
    const uint32_t start = cursor;
    cursor += cursor & 1u;
    if (cursor > size || !fits(2)) return false;
    value->count = read_u16(cursor);
    cursor += 2;
    value->offset = cursor;
    if (!fits(entry_bytes * value->count)) {
      cursor = start;
      return false;
    }
    cursor += entry_bytes * value->count;
    return true;
  };

  for (int i = 0; i < spec.operand_count; ++i) {
    OperandValue& value = out->operands[i];
    value = OperandValue{};
    const uint32_t field_pc = cursor;
    switch (spec.operands[i].kind) {
      case OperandKind::kRegister:
      case OperandKind::kCaseCount:
        if (!fits(2)) return overrun(field_pc);
        value.value = read_u16(cursor);
        cursor += 2;
        break;
      case OperandKind::kImmediate32:
      case OperandKind::kGlobal:
      case OperandKind::kFunction:
      case OperandKind::kRodata:
      case OperandKind::kType:
      case OperandKind::kBranchTarget:
        if (!fits(4)) return overrun(field_pc);
        value.value = read_u32(cursor);
        cursor += 4;
        break;
      case OperandKind::kImmediate64:
        if (!fits(8)) return overrun(field_pc);
        std::memcpy(&value.value, bytes + cursor, 8);
        cursor += 8;
        break;
      case OperandKind::kString:
        if (!fits(2)) return overrun(field_pc);
        value.count = read_u16(cursor);
        cursor += 2;
        value.offset = cursor;
        if (!fits(value.count)) return overrun(field_pc);
        cursor += value.count;
        break;
      case OperandKind::kRemap:
        if (!read_list(4, &value)) return overrun(field_pc);
        break;
      case OperandKind::kSegments:
      case OperandKind::kRegisterList:
        if (!read_list(2, &value)) return overrun(field_pc);
        break;
      case OperandKind::kCases: {
        // MakeOpSpec guarantees the case count is the previous operand.
        value.count = static_cast<uint32_t>(out->operands[i - 1].value);
        value.offset = cursor;
        OperandValue remap;
        for (uint32_t c = 0; c < value.count; ++c) {
          if (!fits(4)) return overrun(cursor);
          cursor += 4;
          if (!read_list(4, &remap)) return overrun(cursor);
        }
        break;
      }
    }
  }
  out->next_pc = cursor;
  return DecodeError::kNone;
}

}  // namespace iree_rt::vm::bytecode
