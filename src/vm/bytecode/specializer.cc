// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/bytecode/specializer.h"

#include <cstring>
#include <vector>

#include "vm/bytecode/bytecode_reader.h"

namespace iree_rt::vm::bytecode {

namespace {

// The ops whose handlers leave their result in the loop's chained-operand register: the integer
// arithmetic, truncation and extension block of ops.def (add.i32 .. ext.i32.i64.u).
constexpr uint8_t kFirstSetter = static_cast<uint8_t>(CoreOp::kAddI32);
constexpr uint8_t kLastSetter = static_cast<uint8_t>(CoreOp::kExtI32I64U);
static_assert(kLastSetter - kFirstSetter == 0x26, "the setter block of ops.def moved");

int FusedCompare(uint8_t op) {
  switch (static_cast<CoreOp>(op)) {
#define RT_VM_X(symbol) \
  case CoreOp::k##symbol: return kFused##symbol;
    RT_VM_FUSED_COMPARES(RT_VM_X)
#undef RT_VM_X
    default: return -1;
  }
}

int ChainedOp(uint8_t op) {
  switch (static_cast<CoreOp>(op)) {
#define RT_VM_X(symbol) \
  case CoreOp::k##symbol: return kChained##symbol;
    RT_VM_CHAINED_OPS(RT_VM_X)
#undef RT_VM_X
    default: return -1;
  }
}

int FusedForwardOp(uint8_t op) {
  switch (static_cast<CoreOp>(op)) {
#define RT_VM_X(symbol) \
  case CoreOp::k##symbol: return kFusedForward##symbol;
    RT_VM_FUSED_COMPARES(RT_VM_X)
#undef RT_VM_X
    default: return -1;
  }
}

int DirectOp(OpSet set, uint8_t op) {
  if (set == OpSet::kExtF32) {
    switch (static_cast<ExtF32Op>(op)) {
#define RT_VM_X(symbol) \
  case ExtF32Op::k##symbol: return kDirect##symbol;
      RT_VM_DIRECT_F32_OPS(RT_VM_X)
#undef RT_VM_X
      default: return -1;
    }
  }
  if (set == OpSet::kExtF64) {
    switch (static_cast<ExtF64Op>(op)) {
#define RT_VM_X(symbol) \
  case ExtF64Op::k##symbol: return kDirect##symbol;
      RT_VM_DIRECT_F64_OPS(RT_VM_X)
#undef RT_VM_X
      default: return -1;
    }
  }
  return -1;
}

void Put32(std::span<uint8_t> out, uint32_t at, uint32_t value) {
  std::memcpy(out.data() + at, &value, sizeof(value));
}

bool Commutative(uint8_t op) {
  switch (static_cast<CoreOp>(op)) {
    case CoreOp::kAddI32: case CoreOp::kMulI32: case CoreOp::kAndI32: case CoreOp::kOrI32:
    case CoreOp::kXorI32: case CoreOp::kAddI64: case CoreOp::kMulI64: case CoreOp::kAndI64:
    case CoreOp::kOrI64: case CoreOp::kXorI64:
      return true;
    default:
      return false;
  }
}

// Whether a remap list can be planned: no ref pairs, and no source ordinal with the bit that
// marks a 64-bit copy.
bool Plannable(std::span<const uint8_t> code, const OperandValue& remap) {
  for (uint32_t i = 0; i < remap.count; ++i) {
    if (ReadU16(code, remap.offset + 4 * i) >= kWideRemapBit) return false;
  }
  return true;
}

// Whether the instruction at |pc| could take the value of register |reg| as a chained operand.
bool ReadByChained(std::span<const uint8_t> code, uint32_t pc, uint16_t reg) {
  Instruction ins;
  uint32_t error_pc = 0;
  if (pc >= code.size() || DecodeInstruction(code, pc, &ins, &error_pc) != DecodeError::kNone ||
      ins.set != OpSet::kCore || ChainedOp(ins.opcode) < 0) {
    return false;
  }
  return static_cast<uint16_t>(ins.operands[0].value) == reg ||
         static_cast<uint16_t>(ins.operands[1].value) == reg;
}

// What the loop's held register holds at a point of a block: the value of i32-bank register
// |reg| (|width| slots), or nothing.
struct Held {
  bool valid = false;
  uint16_t reg = 0;
  uint8_t width = 0;
  bool Overlaps(uint32_t other, uint32_t other_width) const {
    return valid && other < uint32_t{reg} + width && reg < other + other_width;
  }
};

// Whether |ins| (not a setter) leaves the held value valid: it writes no i32-bank register
// that overlaps it and is neither a block marker, a terminator nor anything with a list, remap
// or call (a callee's handlers set the held register too).
bool KeepsHeld(const Instruction& ins, const Held& held) {
  if (!held.valid || ins.spec->terminator) return false;
  if (ins.set == OpSet::kCore && ins.opcode == static_cast<uint8_t>(CoreOp::kBlock)) return false;
  for (int i = 0; i < ins.spec->operand_count; ++i) {
    const OperandSpec& operand = ins.spec->operands[i];
    switch (operand.kind) {
      case OperandKind::kRegister:
        if (operand.write && operand.bank != Bank::kRef &&
            held.Overlaps(static_cast<uint16_t>(ins.operands[i].value) & kI32OrdinalMask,
                          operand.width)) {
          return false;
        }
        break;
      case OperandKind::kImmediate32: case OperandKind::kImmediate64: case OperandKind::kGlobal:
      case OperandKind::kRodata: case OperandKind::kType:
        break;
      default:
        return false;
    }
  }
  return true;
}

// Rewrites a br with a plannable remap list to kPlannedBranch(Back): its operands become the
// target offset, the copy count and the copies (specializer.h), never longer than the original
// PC32 + aligned REMAP.
void PlanBranch(std::span<const uint8_t> code, std::span<uint8_t> out, const Instruction& ins,
                Held held, SpecializeStats* stats) {
  const uint32_t target = static_cast<uint32_t>(ins.operands[0].value);
  const OperandValue& remap = ins.operands[1];
  std::vector<uint32_t> copies;
  for (uint32_t i = 0; i < remap.count; ++i) {
    const uint32_t at = remap.offset + 4 * i;
    const uint16_t src = ReadU16(code, at), dst = ReadU16(code, at + 2);
    // Both pairs read before either writes is what pairs in order do here: dst is even, so it
    // cannot be src + 1.
    const bool wide = i + 1 < remap.count && (src & 1) == 0 && (dst & 1) == 0 &&
                      ReadU16(code, at + 4) == src + 1 && ReadU16(code, at + 6) == dst + 1;
    const uint8_t width = wide ? 2 : 1;
    // Copies apply in order: the held value is the register's only until a copy writes it.
    const bool from_held = held.valid && held.reg == src && held.width == width;
    copies.push_back(uint32_t{dst} << 16 | src | (wide ? kWideRemapBit : 0u) |
                     (from_held ? kHeldCopyBit : 0u));
    if (held.Overlaps(dst, width)) held.valid = false;
    stats->wide_remaps += wide ? 1 : 0;
    stats->held_copies += from_held ? 1 : 0;
    i += wide ? 1 : 0;
  }
  const uint32_t pc = ins.pc;
  if (target > pc) {
    out[pc] = kPlannedBranch;
  } else {
    const size_t n = copies.size();
    out[pc] = static_cast<uint8_t>(n <= 2 ? int{kPlannedBranchBack0} + static_cast<int>(n)
                                          : int{kPlannedBranchBack});
    if (n == 1 && (copies[0] & (kHeldCopyBit | kWideRemapBit)) == kHeldCopyBit) {
      out[pc] = kPlannedBranchBack1Held;
    }
  }
  Put32(out, pc + 1, target - pc);  // from the operands (pc + 1) to past the marker (target + 1)
  const uint16_t count = static_cast<uint16_t>(copies.size());
  std::memcpy(out.data() + pc + 5, &count, sizeof(count));
  for (uint32_t i = 0; i < count; ++i) Put32(out, pc + 7 + 4 * i, copies[i]);
  ++stats->planned_branches;
}

}  // namespace

base::Status Specialize(std::span<const uint8_t> code, std::span<uint8_t> out,
                        SpecializeStats* stats) {
  if (out.size() != code.size()) return base::InternalError("specialized copy size mismatch");
  Held held;  // what the held register holds before the instruction at |pc|
  for (uint32_t pc = 0; pc < code.size();) {
    Instruction ins;
    uint32_t error_pc = 0;
    if (DecodeInstruction(code, pc, &ins, &error_pc) != DecodeError::kNone) {
      return base::InternalError("verified bytecode does not decode at pc ", error_pc);
    }
    Held next = KeepsHeld(ins, held) ? held : Held{};
    if (ins.set == OpSet::kCore && out[pc] == ins.opcode) {  // call sites are already rewritten
      const uint8_t op = ins.opcode;
      const OpSpec& spec = *ins.spec;
      const int last = spec.operand_count - 1;
      if (const int fused = FusedCompare(op); fused >= 0) {
        const uint16_t result = static_cast<uint16_t>(ins.operands[last].value);
        Instruction branch;
        if (ins.next_pc < code.size() &&
            DecodeInstruction(code, ins.next_pc, &branch, &error_pc) == DecodeError::kNone &&
            branch.set == OpSet::kCore &&
            branch.opcode == static_cast<uint8_t>(CoreOp::kCondBranch) &&
            static_cast<uint16_t>(branch.operands[0].value) == result) {
          const uint32_t at = branch.pc;
          const uint32_t on_true = static_cast<uint32_t>(branch.operands[1].value);
          const uint32_t on_false = static_cast<uint32_t>(branch.operands[3].value);
          if (branch.operands[2].count == 0 && branch.operands[4].count == 0 && on_true > at &&
              on_false > at) {
            // 15+ bytes of operands: room for the two offsets at the cond_br's operands.
            out[pc] = static_cast<uint8_t>(FusedForwardOp(op));
            Put32(out, at + 1, on_true - at);
            Put32(out, at + 5, on_false - at);
          } else {
            out[pc] = static_cast<uint8_t>(fused);
          }
          ++stats->fused_compares;
        }
      }
      if (const int chained = ChainedOp(op); chained >= 0 && held.valid) {
        const uint16_t a = static_cast<uint16_t>(ins.operands[0].value);
        const uint16_t b = static_cast<uint16_t>(ins.operands[1].value);
        const bool a_held = a == held.reg && spec.operands[0].width == held.width;
        const bool b_held = b == held.reg && spec.operands[1].width == held.width;
        if (a_held || (b_held && Commutative(op))) {
          if (!a_held) {  // operands at pc + 1 and pc + 3
            std::memcpy(out.data() + pc + 1, &b, sizeof(b));
            std::memcpy(out.data() + pc + 3, &a, sizeof(a));
          }
          out[pc] = static_cast<uint8_t>(chained);
          ++stats->chained_ops;
        }
      }
      if (op >= kFirstSetter && op <= kLastSetter) {
        const Held result{true, static_cast<uint16_t>(ins.operands[last].value),
                          spec.operands[last].width};
        next = result;
        if (out[pc] == static_cast<uint8_t>(CoreOp::kAddI32) && held.valid &&
            !held.Overlaps(result.reg, result.width) && !ReadByChained(code, ins.next_pc, result.reg)) {
          out[pc] = kAddI32Quiet;
          next = held;
        }
      }
      if (op == static_cast<uint8_t>(CoreOp::kBranch) && Plannable(code, ins.operands[1])) {
        PlanBranch(code, out, ins, held, stats);
      }
    }
    if (ins.set != OpSet::kCore && out[pc] == code[pc]) {
      if (const int direct = DirectOp(ins.set, ins.opcode); direct >= 0) {
        out[pc] = static_cast<uint8_t>(direct);
        ++stats->direct_ext_ops;
      }
    }
    held = next;
    pc = ins.next_pc;
  }
  return base::Status();
}

}  // namespace iree_rt::vm::bytecode
