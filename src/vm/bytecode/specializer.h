// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Specialize: the load-time decoding of a verified function body into the form the dispatch
// loop runs, written over the module's private copy of the body.
//
// Interpreting the bytecode as it is costs, per instruction, operand decoding (list alignment,
// counts, block-argument pairs checked for refs, branch direction), a second dispatch for every
// ext_f32/ext_f64 op, and a store-to-load round trip through the frame for a value one
// instruction computes and the next reads. Specialize rewrites, keeping every instruction's
// pc and length (source locations, call sites, yields and backtraces see the bytecode the
// verifier saw) and, unless said otherwise, its operand bytes:
//   * cmp.{eq,ne,lt}.i32 / cmp.nz.i32 followed by a cond_br on its result: a fused
//     compare-and-branch opcode (one dispatch, no look-ahead test); where both targets lie ahead
//     and take no block arguments (a loop header), the cond_br's operand bytes are rewritten to
//     the two targets as offsets from the cond_br's operands (kFusedForward*);
//   * an i32/i64 arithmetic op whose first operand is the result of an earlier instruction of
//     its block (a "setter": an arithmetic op of ops.def 0x22..0x48) with only instructions
//     between them that write neither that register nor the held value (no calls, no lists):
//     a chained opcode that takes that operand from the machine register the setter's handler
//     left it in ("held"); a commutative op whose second operand is that result has its operands
//     swapped. An add.i32 that no chained op reads and that would replace a held value becomes
//     kAddI32Quiet, which leaves it alone;
//   * br whose block arguments are all i32-bank (source ordinals < kWideRemapBit): its operand
//     bytes rewritten to a planned copy list (kPlannedBranch: i32 offset from the operands to
//     past the target's marker, u16 count, count x u32 copies src | dst << 16), where the two
//     pairs copying both halves of a 64-bit register become one 64-bit copy (kWideRemapBit on
//     its src) and a copy of the held register takes the held value (kHeldCopyBit on its src:
//     no store-to-load round trip on the loop-carried value); kPlannedBranchBack
//     (kPlannedBranchBack0/1/2 for that many copies) when the target lies behind (it spends the
//     step budget);
//   * the common ext_f32/ext_f64 ops: the prefix byte becomes a direct opcode (kDirect*), the
//     ext opcode byte is skipped, so one dispatch instead of two.
// The new opcodes lie outside the ISA (the verifier rejects them in any module), next to
// kCallSiteOpcode; only this rewrite produces them.
#ifndef IREE_RT_VM_BYTECODE_SPECIALIZER_H_
#define IREE_RT_VM_BYTECODE_SPECIALIZER_H_

#include <cstdint>
#include <span>

#include "base/status.h"
#include "vm/bytecode/call_site.h"

namespace iree_rt::vm::bytecode {

// Compares fused with the cond_br after them, and ops with a chained (register-held) first
// operand; each X(Symbol) names the ops.def op it specializes.
#define RT_VM_FUSED_COMPARES(X) X(CmpEQI32) X(CmpNEI32) X(CmpLTI32S) X(CmpLTI32U) X(CmpNZI32)
#define RT_VM_CHAINED_OPS(X)                                                                  \
  X(AddI32) X(SubI32) X(MulI32) X(AndI32) X(OrI32) X(XorI32) X(ShlI32) X(ShrI32S) X(ShrI32U) \
  X(DivI32S) X(DivI32U) X(RemI32S) X(RemI32U) X(AddI64) X(SubI64) X(MulI64) X(AndI64)        \
  X(OrI64) X(XorI64) X(ShlI64) X(ShrI64S) X(ShrI64U) X(DivI64S) X(DivI64U) X(RemI64S)        \
  X(RemI64U)
#define RT_VM_DIRECT_F32_OPS(X)                                                                \
  X(AddF32) X(SubF32) X(MulF32) X(DivF32) X(FMAF32) X(AbsF32) X(NegF32) X(MinF32) X(MaxF32)    \
  X(ConstF32) X(ConstF32Zero) X(CmpEQF32O) X(CmpLTF32O) X(CmpLTEF32O) X(CastSI32F32)           \
  X(CastF32SI32) X(BitcastI32F32) X(BitcastF32I32) X(SelectF32)
#define RT_VM_DIRECT_F64_OPS(X) X(AddF64) X(SubF64) X(MulF64) X(DivF64) X(FMAF64)

enum SpecializedOpcode : uint8_t {
  kSpecializedBefore = kCallSiteOpcode,
#define RT_VM_X(symbol) kFused##symbol,
  RT_VM_FUSED_COMPARES(RT_VM_X)
#undef RT_VM_X
#define RT_VM_X(symbol) kChained##symbol,
  RT_VM_CHAINED_OPS(RT_VM_X)
#undef RT_VM_X
#define RT_VM_X(symbol) kFusedForward##symbol,
  RT_VM_FUSED_COMPARES(RT_VM_X)
#undef RT_VM_X
  kPlannedBranch,
  kPlannedBranchBack,
  kPlannedBranchBack0,  // ...with exactly 0, 1 or 2 copies (no loop)
  kPlannedBranchBack1,
  kPlannedBranchBack2,
  kAddI32Quiet,  // add.i32 that leaves the held operand alone (a loop's increment)
  kPlannedBranchBack1Held,  // kPlannedBranchBack1 whose copy is a narrow kHeldCopyBit one
#define RT_VM_X(symbol) kDirect##symbol,
  RT_VM_DIRECT_F32_OPS(RT_VM_X) RT_VM_DIRECT_F64_OPS(RT_VM_X)
#undef RT_VM_X
  kSpecializedEnd,  // first opcode after the specialized ones
};

// On a planned copy's source: the copy is of a 64-bit register.
inline constexpr uint16_t kWideRemapBit = 0x4000;
// On a planned copy's source: the value is the held one (the register's current contents).
inline constexpr uint16_t kHeldCopyBit = 0x8000;

struct SpecializeStats {
  uint32_t fused_compares = 0;
  uint32_t chained_ops = 0;
  uint32_t wide_remaps = 0;
  uint32_t planned_branches = 0;
  uint32_t direct_ext_ops = 0;
  uint32_t held_copies = 0;
};

// Rewrites |out| (a copy of |code|, possibly with call sites already rewritten; same length)
// from the instructions of |code|, a function body the verifier accepted. INTERNAL if |code|
// does not decode as verified code would.
base::Status Specialize(std::span<const uint8_t> code, std::span<uint8_t> out,
                        SpecializeStats* stats);

}  // namespace iree_rt::vm::bytecode

#endif  // IREE_RT_VM_BYTECODE_SPECIALIZER_H_
