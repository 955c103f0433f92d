// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A small disassembler for VM bytecode, built on the same ops.def table as the verifier.
//
// Output is one line per instruction, "pc: mnemonic operands", operands in encoding order:
//   0: block
//   1: add.i32 %i0, %i1 -> %i1
//   8: call @native.scalar, [%i0, %i2:3, %r0(move)] -> [%i4:5, %i1]
//   30: cond_br %i2, ^52, ^69(%i1 -> %i2, %r0(move) -> %r1)
//   45: br_table %i2, ^52, [^69, ^70(%i1 -> %i0)]
// Registers print as %iN (i32 bank), %iN:N+1 (64-bit pair), %rN (ref bank), with "(move)" when
// the MOVE bit is set; results follow "->". Branch targets are ^pc of the target block marker,
// with their remap list in parentheses. Functions print as @name (debug or export name, or the
// import's full name), globals as @global[byte offset] / @ref_global[ordinal], rodata as
// @rodata[N], types by their type-table name. Bytes that do not decode end the listing with a
// "<...>" line. Meant for people (error messages, debugging), not for round-tripping.
#ifndef IREE_RT_VM_BYTECODE_DISASSEMBLER_H_
#define IREE_RT_VM_BYTECODE_DISASSEMBLER_H_

#include <cstdint>
#include <span>
#include <string>

#include "vm/bytecode/bytecode_reader.h"
#include "vm/bytecode/module_image.h"

namespace iree_rt::vm::bytecode {

// The listing of internal function |function_ordinal|; empty if there is no such function.
std::string Disassemble(const ModuleImage& image, uint32_t function_ordinal);

// One decoded instruction of |code| (a function of |image|), without the "pc: " prefix.
std::string FormatInstruction(const ModuleImage& image, std::span<const uint8_t> code,
                              const Instruction& instruction);

}  // namespace iree_rt::vm::bytecode

#endif  // IREE_RT_VM_BYTECODE_DISASSEMBLER_H_
