// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decoding of VM bytecode instructions, shared by the verifier and the disassembler.
//
// ops.def is expanded once, at compile time, into a table of OpSpec (one per opcode of each
// opcode set): the operand strings are parsed by constexpr code, so a malformed ops.def entry
// fails the build and decoding never looks at a string. DecodeInstruction() then walks one
// instruction's operand fields, bounds-checking every read against the function's bytecode,
// and records each field's value (or, for lists, where its entries start and how many there
// are). It checks only the *shape* of an instruction (known opcode, fields inside the
// bytecode); what the fields mean (register ranges, branch targets, ordinals) is the
// verifier's business.
//
// Encoding facts (docs: vm_format_facts.md §3): little-endian, unaligned fields; register
// lists, remap lists and segment lists start at an even pc (one padding byte is skipped when
// the pc is odd); ext_f32/ext_f64 opcodes follow a 0xE0/0xE1 prefix byte.
#ifndef IREE_RT_VM_BYTECODE_BYTECODE_READER_H_
#define IREE_RT_VM_BYTECODE_BYTECODE_READER_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

namespace iree_rt::vm::bytecode {

enum class OpSet : uint8_t { kCore = 0, kExtF32 = 1, kExtF64 = 2 };
inline constexpr int kOpSetCount = 3;

inline constexpr uint8_t kPrefixExtF32 = 0xE0;
inline constexpr uint8_t kPrefixExtF64 = 0xE1;

// Opcode enums per set, generated from ops.def (e.g. CoreOp::kBranch, ExtF32Op::kAddF32).
#define RT_VM_OP_Core(symbol, opcode) k##symbol = opcode,
#define RT_VM_OP_ExtF32(symbol, opcode)
#define RT_VM_OP_ExtF64(symbol, opcode)
#define RT_VM_OP(set, opcode, symbol, mnemonic, operands) RT_VM_OP_##set(symbol, opcode)
enum class CoreOp : uint8_t {
#include "vm/bytecode/ops.def"
};
#undef RT_VM_OP_Core
#undef RT_VM_OP_ExtF32
#define RT_VM_OP_Core(symbol, opcode)
#define RT_VM_OP_ExtF32(symbol, opcode) k##symbol = opcode,
enum class ExtF32Op : uint8_t {
#include "vm/bytecode/ops.def"
};
#undef RT_VM_OP_ExtF32
#undef RT_VM_OP_ExtF64
#define RT_VM_OP_ExtF32(symbol, opcode)
#define RT_VM_OP_ExtF64(symbol, opcode) k##symbol = opcode,
enum class ExtF64Op : uint8_t {
#include "vm/bytecode/ops.def"
};
#undef RT_VM_OP
#undef RT_VM_OP_Core
#undef RT_VM_OP_ExtF32
#undef RT_VM_OP_ExtF64

// Register operand encoding (u16): bit 15 selects the ref bank; in the ref bank bit 14 is the
// MOVE flag and bits 13..0 the ordinal; in the i32 bank bits 14..0 are the ordinal.
inline constexpr uint16_t kRegisterRefBit = 0x8000;
inline constexpr uint16_t kRegisterMoveBit = 0x4000;
inline constexpr uint16_t kI32OrdinalMask = 0x7FFF;
inline constexpr uint16_t kRefOrdinalMask = 0x3FFF;
// F32 operands: bit 31 marks an import ordinal.
inline constexpr uint32_t kFunctionImportBit = 0x80000000u;
// SEG entries: an ordinary (non-span) argument of a variadic call.
inline constexpr uint16_t kSegmentScalar = 0xFFFF;

enum class OperandKind : uint8_t {
  kRegister,      // u16 register
  kImmediate32,   // 4-byte constant
  kImmediate64,   // 8-byte constant
  kGlobal,        // u32 byte offset (primitive globals) or ref-global ordinal
  kFunction,      // u32 function ordinal (kFunctionImportBit: import)
  kRodata,        // u32 rodata ordinal
  kType,          // u32 type-table index
  kString,        // u16 length + bytes
  kBranchTarget,  // u32 pc of a block marker
  kRemap,         // aligned u16 pair count + (source, destination) register pairs
  kCaseCount,     // u16 (br_table)
  kCases,         // kCaseCount × (u32 target, remap list)
  kSegments,      // aligned u16 count + u16 segment sizes (variadic calls)
  kRegisterList,  // aligned u16 count + u16 registers
};

enum class Bank : uint8_t { kI32, kRef, kAny };

struct OperandSpec {
  OperandKind kind = OperandKind::kRegister;
  Bank bank = Bank::kI32;     // registers and register-list entries
  uint8_t width = 1;          // i32-bank slots per value: 2 for i64/f64 (even ordinal)
  bool write = false;         // a result register (list)
  bool move_allowed = false;  // the MOVE bit may be set (ref registers)
  bool is_float = false;      // f32/f64 registers and immediates (for printing)
  uint8_t global_bytes = 0;   // kGlobal: bytes accessed, or 0 for a ref-global ordinal
};

inline constexpr int kMaxOperands = 6;

struct OpSpec {
  std::string_view mnemonic;  // empty: not an opcode
  std::string_view operand_string;
  uint8_t operand_count = 0;
  bool terminator = false;
  std::array<OperandSpec, kMaxOperands> operands{};
  constexpr bool valid() const { return !mnemonic.empty(); }
};

// The tables built from ops.def (defined in bytecode_reader.cc, constant-initialized): the
// specs of the defined opcodes only, kOpSpecs[0] being the invalid one, and per set and opcode
// an index into them. (A full 3 x 256 table of specs was 61 KB, mostly empty slots.)
// kOpSpecCount: ops.def's entries + 1 (a static_assert in bytecode_reader.cc keeps it so).
inline constexpr size_t kOpSpecCount = 264;
extern const std::array<OpSpec, kOpSpecCount> kOpSpecs;
extern const std::array<std::array<uint16_t, 256>, kOpSetCount> kOpIndex;

inline const OpSpec& LookupOp(OpSet set, uint8_t opcode) {
  return kOpSpecs[kOpIndex[static_cast<int>(set)][opcode]];
}

// One decoded operand field.
struct OperandValue {
  uint64_t value = 0;   // register (raw u16), immediate, ordinal, branch target, case count
  uint32_t offset = 0;  // lists/remaps/segments: pc of the first entry (after the count);
                        // cases: pc of the first case; strings: pc of the first byte
  uint32_t count = 0;   // lists/segments: entries; remaps: pairs; cases: cases; strings: bytes
};

struct Instruction {
  uint32_t pc = 0;       // of the first byte (the prefix for ext ops)
  uint32_t next_pc = 0;  // one past the last operand byte
  OpSet set = OpSet::kCore;
  uint8_t opcode = 0;
  const OpSpec* spec = nullptr;
  std::array<OperandValue, kMaxOperands> operands{};
};

enum class DecodeError : uint8_t {
  kNone,
  kUnknownOpcode,  // Instruction::set/opcode name it
  kOverrun,        // a field runs past the end; |error_pc| is where it starts
};

// Decodes the instruction at |pc| (< code.size()) of one function's bytecode into |out|.
// On kUnknownOpcode and kOverrun, |*error_pc| is the pc of the offending byte or field.
DecodeError DecodeInstruction(std::span<const uint8_t> code, uint32_t pc, Instruction* out,
                              uint32_t* error_pc);

// Unchecked little-endian reads of fields DecodeInstruction has already bounds-checked.
inline uint16_t ReadU16(std::span<const uint8_t> code, uint32_t offset) {
  uint16_t value;
  std::memcpy(&value, code.data() + offset, sizeof(value));
  return value;
}
inline uint32_t ReadU32(std::span<const uint8_t> code, uint32_t offset) {
  uint32_t value;
  std::memcpy(&value, code.data() + offset, sizeof(value));
  return value;
}

// Iterates the cases of a decoded kCases operand: target pc and remap list of each.
class CaseCursor {
 public:
  CaseCursor(std::span<const uint8_t> code, const OperandValue& cases)
      : code_(code), pc_(cases.offset), remaining_(cases.count) {}
  bool Next(uint32_t* target, OperandValue* remap) {
    if (remaining_ == 0) return false;
    --remaining_;
    *target = ReadU32(code_, pc_);
    pc_ += 4;
    pc_ += pc_ & 1u;
    remap->count = ReadU16(code_, pc_);
    remap->offset = pc_ + 2;
    pc_ = remap->offset + 4u * remap->count;
    return true;
  }

 private:
  std::span<const uint8_t> code_;
  uint32_t pc_;
  uint32_t remaining_;
};

}  // namespace iree_rt::vm::bytecode

#endif  // IREE_RT_VM_BYTECODE_BYTECODE_READER_H_
