// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The bytecode verifier: proves every function of a ModuleImage safe to interpret by an
// interpreter that checks none of the properties below again.
//
// Rules (docs: vm_format_facts.md §3; iree-compile 3.13.0 output satisfies all of them):
//  * Decoding: every opcode is in ops.def; every field lies inside bytecode_length (overruns
//    are OUT_OF_RANGE); ext_f32/ext_f64 opcodes need EXT_F32/EXT_F64 in the function's
//    requirements.
//  * Registers: the bank bit matches the operand (i32 bank / ref bank), ordinals are below the
//    function's declared register counts (exactly: the compiler never exceeds them, so the
//    reference runtime's power-of-two slack is not granted), 64-bit operands (i64/f64) use an
//    even ordinal n with n+1 in range, the MOVE bit appears only on operands ops.def marks `*`.
//    Register lists, remap lists (both sides in the same bank, MOVE only on the source) and
//    segment lists are aligned per the even-pc rule (the decoder follows it).
//  * Control flow: a linear walk finds the blocks: pc 0 is a block marker, markers appear only
//    after terminators, every instruction after a terminator is a marker, the last instruction
//    is a terminator, and the number of markers equals the descriptor's block_count. Every
//    branch target (PC32, br_table cases, the resume target of yieldable calls) is the pc of a
//    marker.
//  * Calls: internal ordinals < function count, import ordinals < import count. Argument and
//    result register lists match the callee's calling convention element by element (count,
//    bank, 64-bit even alignment; MOVE only on argument refs): the function signature for an
//    internal callee, the import's declared cconv for an import. A non-variadic call cannot
//    target an import with spans. Variadic calls target imports only; their SEG list has one
//    entry per top-level argument (0xFFFF for a scalar, the tuple count for a span) and the
//    argument list is exactly the flattened result. `return` matches the function's result
//    cconv. import.resolved names an import.
//    An import without a declared cconv (the compiler always writes one) is checked for
//    register ranges and banks only; the interpreter marshals by the resolved export's cconv,
//    so those call sites must be checked against it with VerifyImportCallSites() at link
//    time, before the module runs.
//  * The function's own cconv parses, has no spans, and its arguments (i32/f32 one slot,
//    i64/f64 an even-aligned pair, refs one ref slot) fit the register counts.
//  * Ordinals: G32 byte offsets are naturally aligned with offset + width <= the module's
//    global_bytes_capacity; ref-global ordinals < global_ref_count; K32 < rodata count; T32 <
//    type count, and the type of a ref operation (global.*.ref, list.get.ref, select.ref,
//    switch.ref, cast.any.ref) is a ref type or the any type (list.alloc takes any type).
//  Not checked (no memory-safety consequence, left to the interpreter or not needed): the
//  value of padding bytes; the widths of registers in trace/print lists (they are never read);
//  whether yield and yieldable calls appear only in functions requiring YIELD (the compiler's
//  attribute propagation does not follow hand-written yieldable calls, so a rule could reject
//  valid modules); a fail whose code register holds 0 at run time (the interpreter traps it).
//
// Errors are INVALID_ARGUMENT (OUT_OF_RANGE for a truncated instruction) with a message naming
// the function (debug name, else export name, and ordinal) and the pc, then the instruction
// as disassembled, e.g. "function 'add' (ordinal 3) pc 42: register i17 out of range (8 i32
// registers); at `add.i32 %i17, %i1 -> %i2`". Cost is linear in the bytecode size.
//
// Thread-safety: stateless; may run concurrently on the same image.
#ifndef IREE_RT_VM_BYTECODE_VERIFIER_H_
#define IREE_RT_VM_BYTECODE_VERIFIER_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "base/status.h"
#include "vm/bytecode/module_image.h"
#include "vm/type.h"

namespace iree_rt::vm::bytecode {

// Verifies every function of |image|. |types| is the resolved type table, one entry per
// image.type_names() in the same order.
base::Status VerifyModule(const ModuleImage& image, std::span<const vm::Type> types);

// Verifies internal function |function_ordinal| (< image.functions().size(), else
// INVALID_ARGUMENT) alone.
base::Status VerifyFunction(const ModuleImage& image, std::span<const vm::Type> types,
                            uint32_t function_ordinal);

// Link-time check: for every import i whose |resolved_cconvs[i]| (the cconv of the export it
// resolved to; empty for an unresolved optional import, which is never called successfully)
// differs from its declared cconv, checks every call site of i against the resolved cconv with
// the rules above. Needed for imports declared without a cconv; imports whose resolved cconv
// equals the declared one (what linking requires otherwise) cost nothing. Call after
// VerifyModule succeeded. |resolved_cconvs| has one entry per import.
base::Status VerifyImportCallSites(const ModuleImage& image,
                                   std::span<const std::string_view> resolved_cconvs);

// "function 'name' (ordinal N)", or "function ordinal N" when the function has neither a debug
// name nor an export: the prefix of every verifier message.
std::string DescribeFunction(const ModuleImage& image, uint32_t function_ordinal);

}  // namespace iree_rt::vm::bytecode

#endif  // IREE_RT_VM_BYTECODE_VERIFIER_H_
