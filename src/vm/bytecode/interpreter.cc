// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The dispatch loop. Over the house soft limit on purpose: one function holds every opcode so
// that pc, the register banks and the frame stay in machine registers across instructions, and
// (GCC/Clang) each handler ends in its own indirect jump through a label table built from
// ops.def. Operands are decoded inline from the bytecode as Specialize (specializer.h) left it
// at load: its opcodes past the ISA (fused compare-and-branch, chained ops reading |held|,
// planned back edges, direct ext ops) have their handlers here too. Helpers are in
// interpreter_internal.h, calls that leave the loop in interpreter_calls.cc.
//
// Semantics chosen where the ISA leaves them open (also in docs/facts_corrections.md, "VM
// semantics chosen"):
//   * div/rem by zero trap with INVALID_ARGUMENT "integer division by zero"; INT_MIN / -1 wraps to
//     INT_MIN and INT_MIN % -1 is 0 (two's-complement, never host UB). abs(INT_MIN) = INT_MIN.
//   * Shift amounts are masked to the operand width (& 31, & 63).
//   * Float → int casts truncate toward zero (MLIR fptosi/fptoui, which iree-compile 3.13 lowers
//     straight to vm.cast.f32.si32/ui32/si64/ui64), saturate out-of-range values to the target
//     range, and map NaN to 0.
//   * rem.f32/f64 is fmod (result has the dividend's sign): arith.remf lowers to vm.rem.f*.
//   * min.f/max.f follow arith.minimumf/maximumf (which is what lowers to them): NaN if either
//     operand is NaN, and -0 < +0.
//   * round.f* is half away from zero, round.f*.even half to even (independent of the host's
//     rounding mode).
//   * `!vm.opaque` as the T32 of a checked ref op is the any-ref wildcard.
//   * switch.i64/f64 and 64-bit arguments/results copy whole 64-bit values.
//   * vm.fail with code 0, 17 (DEFERRED) or > 18 fails with UNKNOWN and says which code it had.
//   * A yield may pass through any bytecode frame (internal or cross-module call); calls into
//     other modules through Module::Call must complete without yielding.
#include "vm/bytecode/interpreter.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <string>

#include "vm/buffer.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/bytecode/interpreter_internal.h"
#include "vm/bytecode/specializer.h"
#include "vm/list.h"
#include "vm/module.h"

namespace iree_rt::vm::bytecode {

using base::Status;
using base::StatusCode;
using namespace internal;  // NOLINT: decoding helpers and value semantics

namespace {

// vm.fma.* as IREE's runtime computes it: fused only where the C library says fma is fast (FMA
// hardware at build time); otherwise a rounded multiply then a rounded add. Matching this keeps
// VMVX dispatches (whose matmul loops are vm.fma.f32) bit-identical to IREE on x86-64 builds.
inline float FmaF32(float a, float b, float c) {
#ifdef FP_FAST_FMAF
  return std::fma(a, b, c);
#else
  const float product = a * b;
  return product + c;
#endif
}
inline double FmaF64(double a, double b, double c) {
#ifdef FP_FAST_FMA
  return std::fma(a, b, c);
#else
  const double product = a * b;
  return product + c;
#endif
}

namespace core {
enum Op : uint8_t {
#define RT_VM_OP(set, opcode, symbol, mnemonic, operands) RT_VM_OP_##set(symbol, opcode)
#define RT_VM_OP_Core(symbol, opcode) symbol = opcode,
#define RT_VM_OP_ExtF32(symbol, opcode)
#define RT_VM_OP_ExtF64(symbol, opcode)
#include "vm/bytecode/ops.def"
#undef RT_VM_OP_Core
#undef RT_VM_OP_ExtF32
#undef RT_VM_OP_ExtF64
#undef RT_VM_OP
  CallSite = kCallSiteOpcode,  // internal: an import call rewritten at load (call_site.h)
  // internal: written at load by Specialize (specializer.h)
#define RT_VM_X(symbol) Fused##symbol = kFused##symbol,
  RT_VM_FUSED_COMPARES(RT_VM_X)
#undef RT_VM_X
#define RT_VM_X(symbol) Chained##symbol = kChained##symbol,
  RT_VM_CHAINED_OPS(RT_VM_X)
#undef RT_VM_X
#define RT_VM_X(symbol) FusedForward##symbol = kFusedForward##symbol,
  RT_VM_FUSED_COMPARES(RT_VM_X)
#undef RT_VM_X
  PlannedBranch = kPlannedBranch,
  PlannedBranchBack = kPlannedBranchBack,
  PlannedBranchBack0 = kPlannedBranchBack0,
  PlannedBranchBack1 = kPlannedBranchBack1,
  PlannedBranchBack2 = kPlannedBranchBack2,
  AddI32Quiet = kAddI32Quiet,
  PlannedBranchBack1Held = kPlannedBranchBack1Held,
#define RT_VM_X(symbol) Direct##symbol = kDirect##symbol,
  RT_VM_DIRECT_F32_OPS(RT_VM_X) RT_VM_DIRECT_F64_OPS(RT_VM_X)
#undef RT_VM_X
  PrefixExtF32 = 0xE0,
  PrefixExtF64 = 0xE1,
};
}  // namespace core

namespace f32 {
enum Op : uint8_t {
#define RT_VM_OP(set, opcode, symbol, mnemonic, operands) RT_VM_OP_##set(symbol, opcode)
#define RT_VM_OP_Core(symbol, opcode)
#define RT_VM_OP_ExtF32(symbol, opcode) symbol = opcode,
#define RT_VM_OP_ExtF64(symbol, opcode)
#include "vm/bytecode/ops.def"
#undef RT_VM_OP_Core
#undef RT_VM_OP_ExtF32
#undef RT_VM_OP_ExtF64
#undef RT_VM_OP
};
}  // namespace f32

namespace f64 {
enum Op : uint8_t {
#define RT_VM_OP(set, opcode, symbol, mnemonic, operands) RT_VM_OP_##set(symbol, opcode)
#define RT_VM_OP_Core(symbol, opcode)
#define RT_VM_OP_ExtF32(symbol, opcode)
#define RT_VM_OP_ExtF64(symbol, opcode) symbol = opcode,
#include "vm/bytecode/ops.def"
#undef RT_VM_OP_Core
#undef RT_VM_OP_ExtF32
#undef RT_VM_OP_ExtF64
#undef RT_VM_OP
};
}  // namespace f64

// The rest of a remap list from the first ref pair on (pairs stay in order). Out of line so the
// inlined i32 loop below makes no call and GCC keeps its cursor in a register.
[[gnu::noinline]] void RemapRest(const uint8_t* p, const uint8_t* end, uint32_t* r32,
                                 RefSlot* rr) {
  for (; p != end; p += 4) {
    const uint16_t src = U16(p);
    const uint16_t dst = U16(p + 2);
    if (src & kRefBit) {
      AssignSlot(rr[dst & kRefMask], rr[src & kRefMask], (src & kMoveBit) != 0);
    } else {
      r32[dst] = r32[src];
    }
  }
}

// Block arguments: pairs applied in order (the compiler orders them so that is correct). Inlined
// into every branch: most remap lists are empty or a few i32 copies.
[[gnu::always_inline]] inline void ApplyRemap(const uint8_t* p, const uint8_t* code,
                                              uint32_t* r32, RefSlot* rr) {
  p = Align2(p, code);
  const uint8_t* end = p + 2 + 4 * U16(p);
  for (p += 2; p != end; p += 4) {
    const uint32_t pair = U32(p);  // src | dst << 16
    if (pair & kRefBit) [[unlikely]] {
      RemapRest(p, end, r32, rr);
      return;
    }
    r32[pair >> 16] = r32[pair & 0xFFFF];
  }
}

// ---- refs of the VM object model ----------------------------------------------------------------

inline Buffer* AsBuffer(const RefSlot& slot) {
  return slot.type == &kBufferType ? static_cast<Buffer*>(slot.object) : nullptr;
}
inline List* AsList(const RefSlot& slot) {
  return slot.type == &kListType ? static_cast<List*>(slot.object) : nullptr;
}
Status WrongRef(const RefSlot& slot, std::string_view what, std::string_view expected) {
  if (slot.object == nullptr) return base::InvalidArgumentError(what, " is null");
  return base::InvalidArgumentError(what, " is a ", slot.type ? slot.type->name : "?",
                                    " but ", expected, " was expected");
}
std::string TypeName(const Type& type) {
  if (type.is_any()) return "any";
  if (type.is_ref()) return type.ref_type ? std::string(type.ref_type->name) : "any ref";
  return "a primitive";
}
Status TypeMismatch(const RefSlot& slot, const Type& expected) {
  return base::InvalidArgumentError("source ref type mismatch: ", slot.type ? slot.type->name : "?",
                                    " is not ", TypeName(expected));
}

// Element loads and stores with the bounds checks inline; failures re-run the Buffer API call to
// produce its canonical status.
template <typename T>
inline bool LoadElement(const Buffer& buffer, uint64_t index, T* out) {
  const std::span<const uint8_t> bytes = buffer.bytes();
  if (index >= bytes.size() / sizeof(T)) return false;
  std::memcpy(out, bytes.data() + index * sizeof(T), sizeof(T));
  return true;
}
template <typename T>
inline bool StoreElement(Buffer& buffer, uint64_t index, T value) {
  const std::span<const uint8_t> bytes = buffer.bytes();
  if (!buffer.is_mutable() || index >= bytes.size() / sizeof(T)) return false;
  // Mutable buffers own writable storage; only read-only (rodata) ones alias constant bytes.
  std::memcpy(const_cast<uint8_t*>(bytes.data()) + index * sizeof(T), &value, sizeof(T));
  return true;
}

Status FailStatus(uint32_t code, std::string_view message) {
  if (code == 0 || code == static_cast<uint32_t>(StatusCode::kDeferred) ||
      code > static_cast<uint32_t>(StatusCode::kIncompatible)) {
    return base::Status(StatusCode::kUnknown,
                        base::StrCat(message, " (vm.fail with status code ", code, ")"));
  }
  return base::Status(static_cast<StatusCode>(code), std::string(message));
}

std::string ImportName(const BytecodeModule& module, uint32_t ordinal) {
  return std::string(module.imports()[ordinal].full_name);
}

}  // namespace
// ---- dispatch ----------------------------------------------------------------------------------
// With GCC/Clang every handler ends in its own indirect jump through a label table (threaded code:
// each jump site gets its own branch history); elsewhere a switch in a loop. Handlers are written
// once for both: OPCODE* open a handler, DISPATCH() starts the next instruction, TRAP() leaves
// through the error path.
#ifndef RT_VM_THREADED_DISPATCH
#if defined(__GNUC__)
#define RT_VM_THREADED_DISPATCH 1
#else
#define RT_VM_THREADED_DISPATCH 0
#endif
#endif
#ifndef RT_VM_FUSE_COMPARE_BRANCH
#define RT_VM_FUSE_COMPARE_BRANCH 1
#endif

// The label tables are built from ops.def in opcode order, which must therefore be contiguous
// within each set (core 0x00..0x88, ext_f32 0x00..0x3D, ext_f64 0x00..0x3F).
constexpr bool OpcodesContiguous(std::initializer_list<int> opcodes) {
  int expected = 0;
  for (int opcode : opcodes) {
    if (opcode != expected++) return false;
  }
  return true;
}
#define RT_VM_OP(set, opcode, symbol, mnemonic, operands) RT_VM_OP_##set(symbol, opcode)
#define RT_VM_OP_Core(symbol, opcode) opcode,
#define RT_VM_OP_ExtF32(symbol, opcode)
#define RT_VM_OP_ExtF64(symbol, opcode)
static_assert(OpcodesContiguous({
#include "vm/bytecode/ops.def"
}), "core opcodes in ops.def must be contiguous from 0");
#undef RT_VM_OP_Core
#undef RT_VM_OP_ExtF32
#define RT_VM_OP_Core(symbol, opcode)
#define RT_VM_OP_ExtF32(symbol, opcode) opcode,
static_assert(OpcodesContiguous({
#include "vm/bytecode/ops.def"
}), "ext_f32 opcodes in ops.def must be contiguous from 0");
#undef RT_VM_OP_ExtF32
#undef RT_VM_OP_ExtF64
#define RT_VM_OP_ExtF32(symbol, opcode)
#define RT_VM_OP_ExtF64(symbol, opcode) opcode,
static_assert(OpcodesContiguous({
#include "vm/bytecode/ops.def"
}), "ext_f64 opcodes in ops.def must be contiguous from 0");
#undef RT_VM_OP_Core
#undef RT_VM_OP_ExtF32
#undef RT_VM_OP_ExtF64
#undef RT_VM_OP
static_assert(kSpecializedEnd == 0xCD, "the core label table below assumes 67 specialized opcodes");
static_assert(core::CallVariadicYieldable == 0x88 && f32::CastUI64F32 == 0x3D &&
              f64::RoundF64Even == 0x3F, "the label tables below assume these set sizes");

#define RT_X2(x) x, x
#define RT_X4(x) RT_X2(x), RT_X2(x)
#define RT_X8(x) RT_X4(x), RT_X4(x)
#define RT_X16(x) RT_X8(x), RT_X8(x)
#define RT_X32(x) RT_X16(x), RT_X16(x)
#define RT_X64(x) RT_X32(x), RT_X32(x)
#define RT_X128(x) RT_X64(x), RT_X64(x)

#if RT_VM_THREADED_DISPATCH
#define DISPATCH() goto* kCoreTable[*ip++]
#define OPCODE(name) L_Core_##name:
#define OPCODE_F32(name) L_F32_##name:
#define OPCODE_F64(name) L_F64_##name:
#define BEGIN_DISPATCH() \
  DISPATCH();            \
  {
#define END_DISPATCH() }
#define BEGIN_EXT_F32()                \
  L_Core_PrefixExtF32:                 \
  goto* kF32Table[*ip++];              \
  {
#define END_EXT_F32()
#define BEGIN_EXT_F64()                \
  L_Core_PrefixExtF64:                 \
  goto* kF64Table[*ip++];              \
  {
#define END_EXT_F64()
#else
#define DISPATCH() continue
#define OPCODE(name) case core::name:
#define OPCODE_F32(name) case f32::name: L_F32_##name:
#define OPCODE_F64(name) case f64::name: L_F64_##name:
#define BEGIN_DISPATCH() \
  for (;;) {             \
  dispatch:              \
    switch (static_cast<core::Op>(*ip++)) {
#define END_DISPATCH() \
  }                    \
  goto invalid_opcode; \
  }
#define BEGIN_EXT_F32() \
  case core::PrefixExtF32: switch (static_cast<f32::Op>(*ip++)) {
#define END_EXT_F32() goto invalid_ext_opcode;
#define BEGIN_EXT_F64() \
  case core::PrefixExtF64: switch (static_cast<f64::Op>(*ip++)) {
#define END_EXT_F64() goto invalid_ext_opcode;
#endif
#define TRAP() goto trap_core

// Operand access relative to the current instruction's operands (ip points past the opcode).
#define R16(o) U16(ip + (o))
#define R32(o) r32[R16(o)]
#define RS32(o) static_cast<int32_t>(R32(o))
#define GET64(o) Load64(r32 + R16(o))
#define SET64(o, v) Store64(r32 + R16(o), static_cast<uint64_t>(v))
#define GETF32(o) std::bit_cast<float>(R32(o))
#define SETF32(o, v) (R32(o) = std::bit_cast<uint32_t>(static_cast<float>(v)))
#define GETF64(o) std::bit_cast<double>(GET64(o))
#define SETF64(o, v) SET64(o, std::bit_cast<uint64_t>(static_cast<double>(v)))
#define REF(o) cold.rr[R16(o) & kRefMask]
#define NEXT(n) \
  {             \
    ip += (n);  \
    DISPATCH(); \
  }
// For handlers with locals that have destructors: a GNU computed goto leaving a scope does not
// run them, a plain goto does.
#if RT_VM_THREADED_DISPATCH
#define NEXT_SCOPED(n) \
  {                    \
    ip += (n);         \
    goto dispatch;     \
  }
#else
#define NEXT_SCOPED(n) NEXT(n)
#endif

// Integer results are also left in |held| (specializer.h): a chained op after them reads its
// first operand from there instead of a register just stored (LAST32/LAST64).
#define SET_I32(o, v) { const uint32_t v_ = (v); held = v_; R32(o) = v_; }
#define SET_I64(o, v) { const uint64_t v_ = static_cast<uint64_t>(v); held = v_; SET64(o, v_); }
#define LAST32 static_cast<uint32_t>(held)
#define LAST64 held
#define UN_I32(expr) { const uint32_t a = R32(0); SET_I32(2, (expr)); NEXT(4) }
#define BIN_I32_FROM(first, expr) { const uint32_t a = (first), b = R32(2); SET_I32(4, (expr)); NEXT(6) }
#define BIN_I32(expr) BIN_I32_FROM(R32(0), expr)
#define UN_I64(expr) { const uint64_t a = GET64(0); SET_I64(2, (expr)); NEXT(4) }
#define BIN_I64_FROM(first, expr) { const uint64_t a = (first), b = GET64(2); SET_I64(4, (expr)); NEXT(6) }
#define BIN_I64(expr) BIN_I64_FROM(GET64(0), expr)
// Integer division: by zero traps, INT_MIN / -1 wraps (semantics at the top of this file).
#define DIVIDE(T, U, first, load_b, store, expr) \
  {                                              \
    const T a = static_cast<T>(first);           \
    const T b = static_cast<T>(load_b);          \
    if (b == 0) goto division_by_zero;           \
    store(4, static_cast<U>(expr));              \
    NEXT(6)                                      \
  }
#define DIV_I32S(first) DIVIDE(int32_t, uint32_t, first, R32(2), SET_I32, \
                               b == -1 ? 0u - static_cast<uint32_t>(a) : static_cast<uint32_t>(a / b))
#define DIV_I32U(first) DIVIDE(uint32_t, uint32_t, first, R32(2), SET_I32, a / b)
#define REM_I32S(first) DIVIDE(int32_t, uint32_t, first, R32(2), SET_I32, \
                               b == -1 ? 0u : static_cast<uint32_t>(a % b))
#define REM_I32U(first) DIVIDE(uint32_t, uint32_t, first, R32(2), SET_I32, a % b)
#define DIV_I64S(first) DIVIDE(int64_t, uint64_t, first, GET64(2), SET_I64, \
                               b == -1 ? 0ull - static_cast<uint64_t>(a) : static_cast<uint64_t>(a / b))
#define DIV_I64U(first) DIVIDE(uint64_t, uint64_t, first, GET64(2), SET_I64, a / b)
#define REM_I64S(first) DIVIDE(int64_t, uint64_t, first, GET64(2), SET_I64, \
                               b == -1 ? 0ull : static_cast<uint64_t>(a % b))
#define REM_I64U(first) DIVIDE(uint64_t, uint64_t, first, GET64(2), SET_I64, a % b)
#define SHL_I64(first) { const uint64_t a = (first); SET_I64(4, a << (R32(2) & 63)); NEXT(6) }
#define SHRS_I64(first) { const int64_t a = static_cast<int64_t>(first); \
    SET_I64(4, static_cast<uint64_t>(a >> (R32(2) & 63))); NEXT(6) }
#define SHRU_I64(first) { const uint64_t a = (first); SET_I64(4, a >> (R32(2) & 63)); NEXT(6) }
// Compares write 1/0 and, when the next instruction is a cond_br testing that register (every
// loop header is), take the branch at once: one dispatch instead of two. |width| = operand bytes.
#define COMPARE_AND_MAYBE_BRANCH(value, width)                             \
  {                                                                        \
    const uint16_t result_reg = R16((width)-2);                           \
    branch_cond = (value) ? 1u : 0u;                                       \
    r32[result_reg] = branch_cond;                                         \
    ip += (width);                                                         \
    if (RT_VM_FUSE_COMPARE_BRANCH && ip[0] == core::CondBranch &&          \
        U16(ip + 1) == result_reg) {                                       \
      ++ip;                                                                \
      goto cond_branch;                                                    \
    }                                                                      \
    DISPATCH();                                                            \
  }
#define CMP_I32(expr) { const uint32_t a = R32(0), b = R32(2); COMPARE_AND_MAYBE_BRANCH(expr, 6) }
#define CMP_I64(expr) { const uint64_t a = GET64(0), b = GET64(2); COMPARE_AND_MAYBE_BRANCH(expr, 6) }
#define UN_F32(expr) { const float a = GETF32(0); SETF32(2, (expr)); NEXT(4) }
#define BIN_F32(expr) { const float a = GETF32(0), b = GETF32(2); SETF32(4, (expr)); NEXT(6) }
#define CMP_F32(expr) { const float a = GETF32(0), b = GETF32(2); COMPARE_AND_MAYBE_BRANCH(expr, 6) }
#define UN_F64(expr) { const double a = GETF64(0); SETF64(2, (expr)); NEXT(4) }
#define BIN_F64(expr) { const double a = GETF64(0), b = GETF64(2); SETF64(4, (expr)); NEXT(6) }
#define CMP_F64(expr) { const double a = GETF64(0), b = GETF64(2); COMPARE_AND_MAYBE_BRANCH(expr, 6) }

// Continues at block |target| (its marker skipped). Only a backward branch can loop, so only it
// spends the step budget: one decrement and compare on the stack, already in cache.
#define BRANCH_TO(target)                                              \
  {                                                                    \
    const uint8_t* next_ip_ = cold.code + (target) + 1;                \
    if (next_ip_ <= ip) {                                              \
      if (__builtin_expect(cold.stack->steps_left == 0, 0)) goto steps_exhausted; \
      --cold.stack->steps_left;                                        \
    }                                                                  \
    ip = next_ip_;                                                     \
    DISPATCH();                                                        \
  }

// Sets |status| and leaves the loop through the trap path when a StatusOr/Status failed.
#define TRAP_IF_ERROR(expr)   \
  {                           \
    Status s_ = (expr);       \
    if (!s_.ok()) {           \
      status = std::move(s_); \
      TRAP();                 \
    }                         \
  }

Status Execute(FrameStack& frames, uint32_t entry, std::span<Value> results) {
  // Only ip and r32 (and the label table) are wanted in machine registers. The rest of the
  // loop state lives in |cold|, pinned to memory by the empty asm, so that GCC's allocator, facing
  // one huge function, never spills ip to keep one of these instead (it did: +30% per op).
  struct {
    FrameStack* frames;
    Stack* stack;  // its steps_left is the step budget, spent on backward branches and calls
    uint32_t entry;
    std::span<Value> results;
    const uint8_t* code;  // the current function's bytecode (pc 0)
    uint32_t frame_offset;
    Frame* frame;
    const CompiledFunction* fn;
    RefSlot* rr;
    BytecodeModuleState* st;
    uint8_t* globals;
    // Set by the call instructions for the frame-push path below.
    const CompiledFunction* call_fn;
    BytecodeModuleState* call_state;
    const uint8_t* call_args;
    // The general call path's instruction (rewritten call sites keep theirs in the CallSite).
    uint8_t call_op;
    uint32_t call_callee;
  } cold = {};
  cold.frames = &frames;
  cold.stack = &frames.stack();
  cold.entry = entry;
  cold.results = results;
  asm volatile("" : : "r"(&cold) : "memory");
  // GCC otherwise tends to keep one of ip/r32 in a stack slot (reloaded by every handler) while
  // callee-saved registers sit unused; the register hints are honored in practice.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
  register const uint8_t* ip asm("r12") = nullptr;
  register uint32_t* r32 asm("r13") = nullptr;
  // The last integer result (specializer.h: chained ops); in memory it would cost more than
  // the reload it saves.
  register uint64_t held asm("r14") = 0;
#else
  const uint8_t* ip = nullptr;
  uint32_t* r32 = nullptr;
  uint64_t held = 0;
#endif
  const uint8_t* op_ip = nullptr;
  Status status;
  uint32_t branch_cond = 0;

#if RT_VM_THREADED_DISPATCH
#define RT_VM_OP(set, opcode, symbol, mnemonic, operands) RT_VM_OP_##set(symbol)
#define RT_VM_OP_Core(symbol) &&L_Core_##symbol,
#define RT_VM_OP_ExtF32(symbol)
#define RT_VM_OP_ExtF64(symbol)
  static const void* const kCoreTable[] = {
#include "vm/bytecode/ops.def"
      // 0x89 (call sites), 0x8A..0xCC (specialized), 0xCD..0xDF, the two prefixes, 0xE2..0xFF
      &&L_Core_CallSite,
#define RT_VM_X(symbol) &&L_Core_Fused##symbol,
      RT_VM_FUSED_COMPARES(RT_VM_X)
#undef RT_VM_X
#define RT_VM_X(symbol) &&L_Core_Chained##symbol,
      RT_VM_CHAINED_OPS(RT_VM_X)
#undef RT_VM_X
#define RT_VM_X(symbol) &&L_Core_FusedForward##symbol,
      RT_VM_FUSED_COMPARES(RT_VM_X)
#undef RT_VM_X
      &&L_Core_PlannedBranch, &&L_Core_PlannedBranchBack, &&L_Core_PlannedBranchBack0,
      &&L_Core_PlannedBranchBack1, &&L_Core_PlannedBranchBack2, &&L_Core_AddI32Quiet,
      &&L_Core_PlannedBranchBack1Held,
#define RT_VM_X(symbol) &&L_Core_Direct##symbol,
      RT_VM_DIRECT_F32_OPS(RT_VM_X) RT_VM_DIRECT_F64_OPS(RT_VM_X)
#undef RT_VM_X
      RT_X16(&&invalid_opcode), RT_X2(&&invalid_opcode), &&invalid_opcode, &&L_Core_PrefixExtF32,
      &&L_Core_PrefixExtF64,
      RT_X16(&&invalid_opcode), RT_X8(&&invalid_opcode), RT_X4(&&invalid_opcode),
      RT_X2(&&invalid_opcode)};
#undef RT_VM_OP_Core
#undef RT_VM_OP_ExtF32
#define RT_VM_OP_Core(symbol)
#define RT_VM_OP_ExtF32(symbol) &&L_F32_##symbol,
  static const void* const kF32Table[] = {
#include "vm/bytecode/ops.def"
      RT_X128(&&invalid_ext_opcode), RT_X64(&&invalid_ext_opcode), RT_X2(&&invalid_ext_opcode)};
#undef RT_VM_OP_ExtF32
#undef RT_VM_OP_ExtF64
#define RT_VM_OP_ExtF32(symbol)
#define RT_VM_OP_ExtF64(symbol) &&L_F64_##symbol,
  static const void* const kF64Table[] = {
#include "vm/bytecode/ops.def"
      RT_X128(&&invalid_ext_opcode), RT_X64(&&invalid_ext_opcode)};
  static_assert(std::size(kCoreTable) == 256 && std::size(kF32Table) == 256 &&
                std::size(kF64Table) == 256);
#undef RT_VM_OP_Core
#undef RT_VM_OP_ExtF32
#undef RT_VM_OP_ExtF64
#undef RT_VM_OP
#endif

#define LOAD_FRAME(offset)                                                                \
  do {                                                                                    \
    cold.frame_offset = (offset);                                                         \
    cold.frame = cold.frames->at(cold.frame_offset);                                            \
    cold.fn = cold.frame->function;                                                       \
    cold.code = cold.fn->code;                                                                 \
    r32 = reinterpret_cast<uint32_t*>(cold.frame->registers());                           \
    cold.rr = reinterpret_cast<RefSlot*>(cold.frame->registers() + cold.fn->i32_bytes);   \
    cold.st = cold.frame->state;                                                          \
    cold.globals = cold.st->global_bytes();                                               \
  } while (false)

  LOAD_FRAME(cold.frames->top());
  ip = cold.code + cold.frame->pc;

  BEGIN_DISPATCH()
      // ---- globals ----------------------------------------------------------------------------
      OPCODE(GlobalLoadI32) std::memcpy(&R32(4), cold.globals + U32(ip), 4); NEXT(6)
      OPCODE(GlobalStoreI32) std::memcpy(cold.globals + U32(ip), &R32(4), 4); NEXT(6)
      OPCODE(GlobalLoadI64) std::memcpy(r32 + R16(4), cold.globals + U32(ip), 8); NEXT(6)
      OPCODE(GlobalStoreI64) std::memcpy(cold.globals + U32(ip), r32 + R16(4), 8); NEXT(6)
      OPCODE(GlobalLoadIndirectI32)
      OPCODE(GlobalStoreIndirectI32)
      OPCODE(GlobalLoadIndirectI64)
      OPCODE(GlobalStoreIndirectI64) {
        const uint8_t op = ip[-1];
        const uint32_t width =
            (op == core::GlobalLoadIndirectI32 || op == core::GlobalStoreIndirectI32) ? 4 : 8;
        const uint32_t offset = R32(0);
        const uint32_t size = cold.st->global_bytes_size();
        if (offset > size || size - offset < width) {
          status = base::OutOfRangeError("global byte_offset ", offset, " out of range (", size,
                                         " bytes of cold.globals)");
          TRAP();
        }
        uint32_t* reg = r32 + R16(2);
        if (op == core::GlobalLoadIndirectI32 || op == core::GlobalLoadIndirectI64) {
          std::memcpy(reg, cold.globals + offset, width);
        } else {
          std::memcpy(cold.globals + offset, reg, width);
        }
        NEXT(4)
      }
      OPCODE(GlobalLoadRef)
      OPCODE(GlobalLoadIndirectRef) {
        // G32 is 4 bytes, the indirect form's ordinal register 2: |p| is where T32 would be - 4.
        uint32_t ordinal;
        const uint8_t* p = ip;
        if (ip[-1] == core::GlobalLoadRef) {
          ordinal = U32(ip);
        } else {
          ordinal = R32(0);
          p -= 2;
          if (ordinal >= cold.st->ref_global_count()) {
            status = base::OutOfRangeError("global ref ordinal ", ordinal, " out of range (",
                                           cold.st->ref_global_count(), " ref cold.globals)");
            TRAP();
          }
        }
        const Type& type = cold.st->module().types()[U32(p + 4)];
        RefSlot& global = cold.st->ref_globals()[ordinal];
        if (!RefTypeMatches(type, global)) {
          status = TypeMismatch(global, type);
          TRAP();
        }
        RetainSlot(cold.rr[U16(p + 8) & kRefMask], global);
        ip = p + 10;
        DISPATCH();
      }
      OPCODE(GlobalStoreRef)
      OPCODE(GlobalStoreIndirectRef) {
        uint32_t ordinal;
        const uint8_t* p = ip;
        if (ip[-1] == core::GlobalStoreRef) {
          ordinal = U32(ip);
        } else {
          ordinal = R32(0);
          p -= 2;
          if (ordinal >= cold.st->ref_global_count()) {
            status = base::OutOfRangeError("global ref ordinal ", ordinal, " out of range (",
                                           cold.st->ref_global_count(), " ref cold.globals)");
            TRAP();
          }
        }
        const Type& type = cold.st->module().types()[U32(p + 4)];
        const uint16_t reg = U16(p + 8);
        RefSlot& value = cold.rr[reg & kRefMask];
        if (!RefTypeMatches(type, value)) {
          status = TypeMismatch(value, type);
          TRAP();
        }
        AssignSlot(cold.st->ref_globals()[ordinal], value, (reg & kMoveBit) != 0);
        ip = p + 10;
        DISPATCH();
      }

      // ---- constants --------------------------------------------------------------------------
      OPCODE(ConstI32Zero) R32(0) = 0; NEXT(2)
      OPCODE(ConstI32) R32(4) = U32(ip); NEXT(6)
      OPCODE(ConstI64Zero) SET64(0, 0); NEXT(2)
      OPCODE(ConstI64) SET64(8, U64(ip)); NEXT(10)
      OPCODE(ConstRefZero) ReleaseSlot(REF(0)); NEXT(2)
      OPCODE(ConstRefRodata) RetainSlot(REF(4), cold.st->Rodata(U32(ip))); NEXT(6)

      // ---- lists ------------------------------------------------------------------------------
      OPCODE(ListAlloc) {
        const Type& element_type = cold.st->module().types()[U32(ip)];
        auto list = List::Create(element_type, R32(4), cold.st->quota());
        if (!list.ok()) {
          status = list.status();
          TRAP();
        }
        AdoptInto(REF(6), std::move(list).value());
        NEXT_SCOPED(8)
      }
      OPCODE(ListReserve)
      OPCODE(ListSize)
      OPCODE(ListResize) {
        List* list = AsList(REF(0));
        if (list == nullptr) {
          status = WrongRef(REF(0), "list", "vm.list");
          TRAP();
        }
        if (ip[-1] == core::ListSize) {
          R32(2) = static_cast<uint32_t>(list->size());
        } else if (ip[-1] == core::ListReserve) {
          TRAP_IF_ERROR(list->Reserve(R32(2)));
        } else {
          TRAP_IF_ERROR(list->Resize(R32(2)));
        }
        NEXT(4)
      }
      OPCODE(ListGetI32)
      OPCODE(ListGetI64) {
        List* list = AsList(REF(0));
        if (list == nullptr) {
          status = WrongRef(REF(0), "list", "vm.list");
          TRAP();
        }
        const bool wide = ip[-1] == core::ListGetI64;
        auto value = list->GetValue(R32(2), wide ? ValueType::kI64 : ValueType::kI32);
        if (!value.ok()) {
          status = value.status();
          TRAP();
        }
        if (wide) {
          SET64(4, value->i64());
        } else {
          R32(4) = static_cast<uint32_t>(value->i32());
        }
        NEXT_SCOPED(6)
      }
      OPCODE(ListSetI32)
      OPCODE(ListSetI64) {
        List* list = AsList(REF(0));
        if (list == nullptr) {
          status = WrongRef(REF(0), "list", "vm.list");
          TRAP();
        }
        const Value value = ip[-1] == core::ListSetI64
                                ? Value::I64(static_cast<int64_t>(GET64(4)))
                                : Value::I32(RS32(4));
        TRAP_IF_ERROR(list->SetValue(R32(2), value));
        NEXT_SCOPED(6)
      }
      OPCODE(ListGetRef) {
        List* list = AsList(REF(0));
        if (list == nullptr) {
          status = WrongRef(REF(0), "list", "vm.list");
          TRAP();
        }
        auto ref = list->GetRef(R32(2), cold.st->module().types()[U32(ip + 4)]);
        if (!ref.ok()) {
          status = ref.status();
          TRAP();
        }
        StoreRef(REF(8), *ref);
        NEXT_SCOPED(10)
      }
      OPCODE(ListSetRef) {
        List* list = AsList(REF(0));
        if (list == nullptr) {
          status = WrongRef(REF(0), "list", "vm.list");
          TRAP();
        }
        const uint16_t reg = R16(4);
        RefSlot& slot = cold.rr[reg & kRefMask];
        Ref ref = SlotToRef(slot);
        TRAP_IF_ERROR(list->SetRef(R32(2), std::move(ref)));
        if (reg & kMoveBit) ReleaseSlot(slot);
        NEXT_SCOPED(6)
      }

      // ---- select / switch --------------------------------------------------------------------
      OPCODE(SelectI32) R32(6) = R32(0) ? R32(2) : R32(4); NEXT(8)
      OPCODE(SelectI64) SET64(6, R32(0) ? GET64(2) : GET64(4)); NEXT(8)
      OPCODE(SelectRef) {
        const bool cond = R32(0) != 0;
        const Type& type = cold.st->module().types()[U32(ip + 2)];
        const uint16_t chosen = cond ? R16(6) : R16(8);
        const uint16_t other = cond ? R16(8) : R16(6);
        const uint16_t dst = R16(10) & kRefMask;
        RefSlot& value = cold.rr[chosen & kRefMask];
        if (!RefTypeMatches(type, value)) {
          status = TypeMismatch(value, type);
          TRAP();
        }
        AssignSlot(cold.rr[dst], value, (chosen & kMoveBit) != 0);
        // A last use on the untaken side ends here too.
        if ((other & kMoveBit) && (other & kRefMask) != dst && (other & kRefMask) != (chosen & kRefMask)) {
          ReleaseSlot(cold.rr[other & kRefMask]);
        }
        NEXT(12)
      }
      OPCODE(SwitchI32)
      OPCODE(SwitchI64) {
        const int32_t index = RS32(0);
        const uint16_t fallback = R16(2);
        const uint8_t* list = Align2(ip + 4, cold.code);
        const uint16_t count = U16(list);
        const uint16_t reg =
            (index >= 0 && index < count) ? U16(list + 2 + 2 * index) : fallback;
        const uint8_t* after = list + 2 + 2 * count;
        const uint16_t dst = U16(after);
        if (ip[-1] == core::SwitchI32) {
          r32[dst] = r32[reg];
        } else {
          Store64(r32 + dst, Load64(r32 + reg));
        }
        ip = after + 2;
        DISPATCH();
      }
      OPCODE(SwitchRef) {
        const int32_t index = RS32(0);
        const Type& type = cold.st->module().types()[U32(ip + 2)];
        const uint16_t fallback = R16(6);
        const uint8_t* list = Align2(ip + 8, cold.code);
        const uint16_t count = U16(list);
        const uint16_t chosen =
            (index >= 0 && index < count) ? U16(list + 2 + 2 * index) : fallback;
        const uint8_t* after = list + 2 + 2 * count;
        const uint16_t dst = U16(after) & kRefMask;
        RefSlot& value = cold.rr[chosen & kRefMask];
        if (!RefTypeMatches(type, value)) {
          status = TypeMismatch(value, type);
          TRAP();
        }
        AssignSlot(cold.rr[dst], value, (chosen & kMoveBit) != 0);
        for (int i = -1; i < count; ++i) {
          const uint16_t other = i < 0 ? fallback : U16(list + 2 + 2 * i);
          const uint16_t ordinal = other & kRefMask;
          if ((other & kMoveBit) && ordinal != dst && ordinal != (chosen & kRefMask)) {
            ReleaseSlot(cold.rr[ordinal]);
          }
        }
        ip = after + 2;
        DISPATCH();
      }

      // ---- i32 arithmetic ---------------------------------------------------------------------
      OPCODE(AddI32) BIN_I32(a + b)
      OPCODE(SubI32) BIN_I32(a - b)
      OPCODE(MulI32) BIN_I32(a * b)
      OPCODE(DivI32S) DIV_I32S(R32(0))
      OPCODE(DivI32U) DIV_I32U(R32(0))
      OPCODE(RemI32S) REM_I32S(R32(0))
      OPCODE(RemI32U) REM_I32U(R32(0))
      OPCODE(FMAI32) SET_I32(6, R32(0) * R32(2) + R32(4)); NEXT(8)
      OPCODE(AbsI32) UN_I32(static_cast<int32_t>(a) < 0 ? 0u - a : a)
      OPCODE(NotI32) UN_I32(~a)
      OPCODE(AndI32) BIN_I32(a & b)
      OPCODE(OrI32) BIN_I32(a | b)
      OPCODE(XorI32) BIN_I32(a ^ b)
      OPCODE(ShlI32) BIN_I32(a << (b & 31))
      OPCODE(ShrI32S) BIN_I32(static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31)))
      OPCODE(ShrI32U) BIN_I32(a >> (b & 31))
      OPCODE(CtlzI32) UN_I32(static_cast<uint32_t>(std::countl_zero(a)))
      OPCODE(MinI32S) BIN_I32(static_cast<int32_t>(a) < static_cast<int32_t>(b) ? a : b)
      OPCODE(MinI32U) BIN_I32(a < b ? a : b)
      OPCODE(MaxI32S) BIN_I32(static_cast<int32_t>(a) < static_cast<int32_t>(b) ? b : a)
      OPCODE(MaxI32U) BIN_I32(a < b ? b : a)

      // ---- i64 arithmetic ---------------------------------------------------------------------
      OPCODE(AddI64) BIN_I64(a + b)
      OPCODE(SubI64) BIN_I64(a - b)
      OPCODE(MulI64) BIN_I64(a * b)
      OPCODE(DivI64S) DIV_I64S(GET64(0))
      OPCODE(DivI64U) DIV_I64U(GET64(0))
      OPCODE(RemI64S) REM_I64S(GET64(0))
      OPCODE(RemI64U) REM_I64U(GET64(0))
      OPCODE(FMAI64) SET_I64(6, GET64(0) * GET64(2) + GET64(4)); NEXT(8)
      OPCODE(AbsI64) UN_I64(static_cast<int64_t>(a) < 0 ? 0ull - a : a)
      OPCODE(NotI64) UN_I64(~a)
      OPCODE(AndI64) BIN_I64(a & b)
      OPCODE(OrI64) BIN_I64(a | b)
      OPCODE(XorI64) BIN_I64(a ^ b)
      OPCODE(ShlI64) SHL_I64(GET64(0))
      OPCODE(ShrI64S) SHRS_I64(GET64(0))
      OPCODE(ShrI64U) SHRU_I64(GET64(0))
      OPCODE(CtlzI64) UN_I64(static_cast<uint64_t>(std::countl_zero(a)))
      OPCODE(MinI64S) BIN_I64(static_cast<int64_t>(a) < static_cast<int64_t>(b) ? a : b)
      OPCODE(MinI64U) BIN_I64(a < b ? a : b)
      OPCODE(MaxI64S) BIN_I64(static_cast<int64_t>(a) < static_cast<int64_t>(b) ? b : a)
      OPCODE(MaxI64U) BIN_I64(a < b ? b : a)

      // ---- truncation / extension -------------------------------------------------------------
      OPCODE(TruncI32I8) UN_I32(a & 0xFFu)
      OPCODE(TruncI32I16) UN_I32(a & 0xFFFFu)
      OPCODE(TruncI64I32) SET_I32(2, static_cast<uint32_t>(GET64(0))); NEXT(4)
      OPCODE(ExtI8I32S) UN_I32(static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(a))))
      OPCODE(ExtI8I32U) UN_I32(a & 0xFFu)
      OPCODE(ExtI16I32S) UN_I32(static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(a))))
      OPCODE(ExtI16I32U) UN_I32(a & 0xFFFFu)
      OPCODE(ExtI32I64S) SET_I64(2, static_cast<int64_t>(RS32(0))); NEXT(4)
      OPCODE(ExtI32I64U) SET_I64(2, static_cast<uint64_t>(R32(0))); NEXT(4)

      // ---- comparisons ------------------------------------------------------------------------
      OPCODE(CmpEQI32) CMP_I32(a == b)
      OPCODE(CmpNEI32) CMP_I32(a != b)
      OPCODE(CmpLTI32S) CMP_I32(static_cast<int32_t>(a) < static_cast<int32_t>(b))
      OPCODE(CmpLTI32U) CMP_I32(a < b)
      OPCODE(CmpNZI32) COMPARE_AND_MAYBE_BRANCH(R32(0) != 0, 4)
      OPCODE(CmpEQI64) CMP_I64(a == b)
      OPCODE(CmpNEI64) CMP_I64(a != b)
      OPCODE(CmpLTI64S) CMP_I64(static_cast<int64_t>(a) < static_cast<int64_t>(b))
      OPCODE(CmpLTI64U) CMP_I64(a < b)
      OPCODE(CmpNZI64) COMPARE_AND_MAYBE_BRANCH(GET64(0) != 0, 4)
      OPCODE(CmpEQRef)
      OPCODE(CmpNERef) {
        const RefSlot& a = REF(0);
        const RefSlot& b = REF(2);
        const bool equal = a.object == b.object && (a.object == nullptr || a.type == b.type);
        R32(4) = (equal == (ip[-1] == core::CmpEQRef)) ? 1u : 0u;
        NEXT(6)
      }
      OPCODE(CmpNZRef) R32(2) = REF(0).object != nullptr ? 1u : 0u; NEXT(4)

      // ---- specialized at load (specializer.h) ------------------------------------------------
      // A compare whose next instruction is a cond_br on its result: write it, take the branch.
#define FUSED_CMP(value, width)                  \
  {                                              \
    branch_cond = (value) ? 1u : 0u;             \
    r32[R16((width)-2)] = branch_cond;           \
    ip += (width) + 1;                           \
    goto cond_branch;                            \
  }
      OPCODE(FusedCmpEQI32) FUSED_CMP(R32(0) == R32(2), 6)
      OPCODE(FusedCmpNEI32) FUSED_CMP(R32(0) != R32(2), 6)
      OPCODE(FusedCmpLTI32S) FUSED_CMP(RS32(0) < RS32(2), 6)
      OPCODE(FusedCmpLTI32U) FUSED_CMP(R32(0) < R32(2), 6)
      OPCODE(FusedCmpNZI32) FUSED_CMP(R32(0) != 0, 4)
#undef FUSED_CMP
      // The first operand is the previous instruction's result, still in |held|.
      OPCODE(ChainedAddI32) BIN_I32_FROM(LAST32, a + b)
      OPCODE(ChainedSubI32) BIN_I32_FROM(LAST32, a - b)
      OPCODE(ChainedMulI32) BIN_I32_FROM(LAST32, a * b)
      OPCODE(ChainedAndI32) BIN_I32_FROM(LAST32, a & b)
      OPCODE(ChainedOrI32) BIN_I32_FROM(LAST32, a | b)
      OPCODE(ChainedXorI32) BIN_I32_FROM(LAST32, a ^ b)
      OPCODE(ChainedShlI32) BIN_I32_FROM(LAST32, a << (b & 31))
      OPCODE(ChainedShrI32S) BIN_I32_FROM(LAST32, static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31)))
      OPCODE(ChainedShrI32U) BIN_I32_FROM(LAST32, a >> (b & 31))
      OPCODE(ChainedDivI32S) DIV_I32S(LAST32)
      OPCODE(ChainedDivI32U) DIV_I32U(LAST32)
      OPCODE(ChainedRemI32S) REM_I32S(LAST32)
      OPCODE(ChainedRemI32U) REM_I32U(LAST32)
      OPCODE(ChainedAddI64) BIN_I64_FROM(LAST64, a + b)
      OPCODE(ChainedSubI64) BIN_I64_FROM(LAST64, a - b)
      OPCODE(ChainedMulI64) BIN_I64_FROM(LAST64, a * b)
      OPCODE(ChainedAndI64) BIN_I64_FROM(LAST64, a & b)
      OPCODE(ChainedOrI64) BIN_I64_FROM(LAST64, a | b)
      OPCODE(ChainedXorI64) BIN_I64_FROM(LAST64, a ^ b)
      OPCODE(ChainedShlI64) SHL_I64(LAST64)
      OPCODE(ChainedShrI64S) SHRS_I64(LAST64)
      OPCODE(ChainedShrI64U) SHRU_I64(LAST64)
      OPCODE(ChainedDivI64S) DIV_I64S(LAST64)
      OPCODE(ChainedDivI64U) DIV_I64U(LAST64)
      OPCODE(ChainedRemI64S) REM_I64S(LAST64)
      OPCODE(ChainedRemI64U) REM_I64U(LAST64)
      OPCODE(AddI32Quiet) R32(4) = R32(0) + R32(2); NEXT(6)  // leaves |held| alone
      // A fused compare whose cond_br has both targets ahead and no block arguments: the
      // cond_br's operands hold the two offsets (true, false) from themselves.
#define FUSED_CMP_FORWARD(value, width)                    \
  {                                                        \
    const uint32_t cond_ = (value) ? 1u : 0u;              \
    r32[R16((width)-2)] = cond_;                           \
    ip += (width) + 1;                                     \
    ip += static_cast<int32_t>(U32(ip + (cond_ ? 0 : 4))); \
    DISPATCH();                                            \
  }
      OPCODE(FusedForwardCmpEQI32) FUSED_CMP_FORWARD(R32(0) == R32(2), 6)
      OPCODE(FusedForwardCmpNEI32) FUSED_CMP_FORWARD(R32(0) != R32(2), 6)
      OPCODE(FusedForwardCmpLTI32S)
      fused_forward_lt_s:
        FUSED_CMP_FORWARD(RS32(0) < RS32(2), 6)
      OPCODE(FusedForwardCmpLTI32U) FUSED_CMP_FORWARD(R32(0) < R32(2), 6)
      OPCODE(FusedForwardCmpNZI32) FUSED_CMP_FORWARD(R32(0) != 0, 4)
#undef FUSED_CMP_FORWARD
      // A br with its block-argument copies planned: i32 offset, u16 count, the copies.
#define PLANNED_COPY(p)                                               \
  {                                                                   \
    const uint32_t copy_ = U32(p); /* src | dst << 16 */              \
    uint32_t* dst_ = r32 + (copy_ >> 16);                             \
    if (!(copy_ & (kWideRemapBit | kHeldCopyBit))) {                  \
      *dst_ = r32[copy_ & 0xFFFF];                                    \
    } else if (copy_ & kHeldCopyBit) {                                \
      if (copy_ & kWideRemapBit) {                                    \
        Store64(dst_, LAST64);                                        \
      } else {                                                        \
        *dst_ = LAST32;                                               \
      }                                                               \
    } else {                                                          \
      Store64(dst_, Load64(r32 + (copy_ & (kWideRemapBit - 1))));     \
    }                                                                 \
  }
#define SPEND_STEP()                                                                    \
  if (__builtin_expect(cold.stack->steps_left == 0, 0)) goto steps_exhausted;           \
  --cold.stack->steps_left;
      // A back edge goes to a loop header, most often `i < n`: entered by a direct jump.
#define TO_LOOP_HEADER()                                       \
  ip += static_cast<int32_t>(U32(ip));                         \
  if (ip[0] == core::FusedForwardCmpLTI32S) {                  \
    ++ip;                                                      \
    goto fused_forward_lt_s;                                   \
  }                                                            \
  DISPATCH();
      OPCODE(PlannedBranchBack0) SPEND_STEP() TO_LOOP_HEADER()
      OPCODE(PlannedBranchBack1)
        SPEND_STEP()
        PLANNED_COPY(ip + 6)
        TO_LOOP_HEADER()
      OPCODE(PlannedBranchBack1Held)
        SPEND_STEP()
        r32[U32(ip + 6) >> 16] = LAST32;
        TO_LOOP_HEADER()
      OPCODE(PlannedBranchBack2)
        SPEND_STEP()
        PLANNED_COPY(ip + 6)
        PLANNED_COPY(ip + 10)
        TO_LOOP_HEADER()
      OPCODE(PlannedBranchBack)
        SPEND_STEP()
        goto planned_branch;
      OPCODE(PlannedBranch)
      planned_branch: {
        const uint8_t* p = ip + 6;
        for (const uint8_t* end = p + 4 * U16(ip + 4); p != end; p += 4) PLANNED_COPY(p)
        ip += static_cast<int32_t>(U32(ip));
        DISPATCH();
      }
#undef TO_LOOP_HEADER
#undef SPEND_STEP
#undef PLANNED_COPY
      // ext_f32/ext_f64 ops without the second dispatch: skip the ext opcode byte.
#define RT_VM_X(symbol) \
  OPCODE(Direct##symbol) ++ip; goto L_F32_##symbol;
      RT_VM_DIRECT_F32_OPS(RT_VM_X)
#undef RT_VM_X
#define RT_VM_X(symbol) \
  OPCODE(Direct##symbol) ++ip; goto L_F64_##symbol;
      RT_VM_DIRECT_F64_OPS(RT_VM_X)
#undef RT_VM_X

      // ---- control flow -----------------------------------------------------------------------
      OPCODE(Block) DISPATCH();
      OPCODE(Branch)
      OPCODE(Break)
      OPCODE(CondBreak) {  // debugger hooks; 3.13 encodes cond_break without its condition
        const uint32_t target = U32(ip);
        ApplyRemap(ip + 4, cold.code, r32, cold.rr);
        BRANCH_TO(target);
      }
      OPCODE(CondBranch) {
        branch_cond = R32(0);
      cond_branch:  // ip at the operands, branch_cond set (also entered from compares)
        if (branch_cond != 0) {
          const uint32_t target = U32(ip + 2);
          ApplyRemap(ip + 6, cold.code, r32, cold.rr);
          BRANCH_TO(target);
        } else {
          const uint8_t* p = SkipList(ip + 6, cold.code, 4);
          const uint32_t target = U32(p);
          ApplyRemap(p + 4, cold.code, r32, cold.rr);
          BRANCH_TO(target);
        }
      }
      OPCODE(BranchTable) {
        const int32_t index = RS32(0);
        const uint8_t* p = ip + 2;  // default: PC32 REMAP
        const uint8_t* cases = SkipList(p + 4, cold.code, 4);
        const uint16_t count = U16(cases);
        if (index >= 0 && index < count) {
          p = cases + 2;
          for (int32_t i = 0; i < index; ++i) p = SkipList(p + 4, cold.code, 4);
        }
        const uint32_t target = U32(p);
        ApplyRemap(p + 4, cold.code, r32, cold.rr);
        BRANCH_TO(target);
      }

      // ---- calls ------------------------------------------------------------------------------
      OPCODE(Call) {  // the common case, an internal call: no segments, no resume pc
        const uint32_t callee = U32(ip);
        if (callee & kImportBit) {
          cold.call_op = core::Call;
          cold.call_callee = callee;
          goto call_general;
        }
        const uint8_t* code = cold.code;
        const uint8_t* args = Align2(ip + 4, code);
        const uint8_t* result_list = Align2(args + 2 + 2 * U16(args), code);
        Frame* frame = cold.frame;
        frame->pc = static_cast<uint32_t>(result_list + 2 + 2 * U16(result_list) - code);
        frame->call_pc = static_cast<uint32_t>(ip - 1 - code);
        frame->results_pc = static_cast<uint32_t>(result_list - code);
        cold.call_fn = &cold.st->module().functions()[callee];
        cold.call_state = cold.st;
        cold.call_args = args;
        goto push_frame;
      }
      OPCODE(CallSite) {  // an import call decoded at load; the operand indexes the function's sites
        const CallSite& site = cold.fn->call_sites[U32(ip)];
        const ImportBinding& binding = cold.st->imports()[site.callee & ~kImportBit];
        if (binding.kind != ImportBinding::Kind::kNative) {
          cold.call_op = site.opcode;
          cold.call_callee = site.callee;
          goto call_general;
        }
        cold.frame->call_pc = static_cast<uint32_t>(ip - 1 - cold.code);
        {  // scoped: the computed goto below would skip the destructor
          Status call_status = CallNativeSite(frames, cold.frame_offset, binding, site,
                                                 cold.fn->call_site_ops + site.ops_offset);
          if (!call_status.ok()) {
            status = std::move(call_status);
            status.Annotate(base::StrCat("while calling import '",
                                         ImportName(cold.st->module(), site.callee & ~kImportBit), "'"));
            TRAP();
          }
        }
        LOAD_FRAME(cold.frame_offset);  // the arena may have moved
        ip = cold.code + site.continue_pc;
        DISPATCH();
      }
      OPCODE(CallVariadic)
      OPCODE(CallYieldable)
      OPCODE(CallVariadicYieldable)
        cold.call_op = ip[-1];
        cold.call_callee = U32(ip);
      call_general: {  // ip at the operands; the opcode and callee in cold.call_op/call_callee
        const uint8_t op = cold.call_op;
        const bool variadic = op == core::CallVariadic || op == core::CallVariadicYieldable;
        const bool yieldable = op == core::CallYieldable || op == core::CallVariadicYieldable;
        const uint32_t callee = cold.call_callee;
        const uint8_t* p = ip + 4;
        const uint8_t* segments = nullptr;
        if (variadic) {
          segments = Align2(p, cold.code);
          p = SkipList(p, cold.code, 2);
        }
        cold.call_args = Align2(p, cold.code);
        p = SkipList(p, cold.code, 2);
        uint32_t resume_pc = 0;
        if (yieldable) {
          resume_pc = U32(p) + 1;
          p += 4;
        }
        const uint8_t* result_list = Align2(p, cold.code);
        p = SkipList(p, cold.code, 2);
        cold.frame->pc = yieldable ? resume_pc : static_cast<uint32_t>(p - cold.code);
        cold.frame->call_pc = static_cast<uint32_t>(ip - 1 - cold.code);
        cold.frame->results_pc = static_cast<uint32_t>(result_list - cold.code);
        if ((callee & kImportBit) == 0) {
          cold.call_fn = &cold.st->module().functions()[callee];
          cold.call_state = cold.st;
          goto push_frame;
        }
        const uint32_t ordinal = callee & ~kImportBit;
        const ImportBinding& binding = cold.st->imports()[ordinal];
        if (binding.kind == ImportBinding::Kind::kBytecode) {
          cold.call_fn = binding.function;
          cold.call_state = binding.bytecode_state;
          goto push_frame;
        }
        if (binding.kind == ImportBinding::Kind::kUnresolved) {
          status = base::NotFoundError("optional import '", ImportName(cold.st->module(), ordinal),
                                       "' (ordinal ", ordinal, ") not resolved");
          TRAP();
        }
        status = binding.kind == ImportBinding::Kind::kNative
                     ? CallNativeImport(frames, cold.frame_offset, binding, segments,
                                        cold.call_args, result_list)
                     : CallImport(frames, cold.frame_offset, binding, segments, cold.call_args,
                                  result_list);
        if (!status.ok()) {
          status.Annotate(base::StrCat("while calling import '", ImportName(cold.st->module(), ordinal), "'"));
          TRAP();
        }
        LOAD_FRAME(cold.frame_offset);  // the arena may have moved
        ip = cold.code + cold.frame->pc;
        DISPATCH();
      }
      OPCODE(Return) {
        const uint8_t* list = Align2(ip, cold.code);
        if (cold.frame->flags & kFrameEntry) {
          if (cold.frame_offset != cold.entry) {
            status = base::InternalError("returned through an cold.entry cold.frame of another invocation");
            TRAP();
          }
          ReturnToHost(*cold.fn, list, r32, cold.rr, cold.results);
          cold.frames->Pop();
          return Status();
        }
        Frame* caller = cold.frames->at(cold.frame->caller);
        const CompiledFunction& caller_fn = *caller->function;
        uint32_t* caller_r32 = reinterpret_cast<uint32_t*>(caller->registers());
        RefSlot* caller_rr = reinterpret_cast<RefSlot*>(caller->registers() + caller_fn.i32_bytes);
        const uint8_t* dst_list = caller_fn.code + caller->results_pc + 2;
        const uint8_t* src_list = list + 2;
        const size_t count = cold.fn->results.size();
        for (size_t i = 0; i < count; ++i) {
          const uint16_t src = U16(src_list + 2 * i);
          const uint16_t dst = U16(dst_list + 2 * i);
          switch (cold.fn->results[i]) {
            case SlotKind::k32: caller_r32[dst] = r32[src]; break;
            case SlotKind::k64: Store64(caller_r32 + dst, Load64(r32 + src)); break;
            case SlotKind::kRef:
              AssignSlot(caller_rr[dst & kRefMask], cold.rr[src & kRefMask], (src & kMoveBit) != 0);
              break;
          }
        }
        const uint32_t caller_offset = cold.frame->caller;
        cold.frames->Pop();
        LOAD_FRAME(caller_offset);
        ip = cold.code + cold.frame->pc;
        DISPATCH();
      }
      OPCODE(Yield) {
        const uint32_t target = U32(ip);
        ApplyRemap(ip + 4, cold.code, r32, cold.rr);
        cold.frame->pc = target + 1;
        cold.frame->call_pc = static_cast<uint32_t>(ip - 1 - cold.code);
        cold.frames->suspended_entry = cold.entry;
        return Status(StatusCode::kDeferred, "the program yielded");
      }
      OPCODE(ImportResolved)
        R32(4) = cold.st->imports()[U32(ip) & ~kImportBit].kind != ImportBinding::Kind::kUnresolved ? 1u : 0u;
        NEXT(6)
      OPCODE(Fail) {
        const uint16_t length = R16(2);
        status = FailStatus(R32(0), std::string_view(reinterpret_cast<const char*>(ip + 4), length));
        TRAP();
      }
      OPCODE(Trace)
      OPCODE(Print) {  // no output; last uses of listed refs still end here
        const uint8_t* list = Align2(ip + 2 + R16(0), cold.code);
        const uint16_t count = U16(list);
        for (uint16_t i = 0; i < count; ++i) {
          const uint16_t reg = U16(list + 2 + 2 * i);
          if ((reg & kRefBit) && (reg & kMoveBit)) ReleaseSlot(cold.rr[reg & kRefMask]);
        }
        ip = list + 2 + 2 * count;
        DISPATCH();
      }
      OPCODE(DiscardRefs) {
        const uint8_t* list = Align2(ip, cold.code);
        const uint16_t count = U16(list);
        for (uint16_t i = 0; i < count; ++i) {
          const uint16_t reg = U16(list + 2 + 2 * i);
          if (reg & kRefBit) ReleaseSlot(cold.rr[reg & kRefMask]);
        }
        ip = list + 2 + 2 * count;
        DISPATCH();
      }
      OPCODE(AssignRef) {
        const uint16_t src = R16(0);
        AssignSlot(REF(2), cold.rr[src & kRefMask], (src & kMoveBit) != 0);
        NEXT(4)
      }
      OPCODE(CastAnyRef) {
        const uint16_t src = R16(0);
        RefSlot& value = cold.rr[src & kRefMask];
        const Type& type = cold.st->module().types()[U32(ip + 2)];
        if (!RefTypeMatches(type, value)) {
          status = TypeMismatch(value, type);
          TRAP();
        }
        AssignSlot(REF(6), value, (src & kMoveBit) != 0);
        NEXT(8)
      }

      // ---- buffers ----------------------------------------------------------------------------
#define BUFFER_OPERAND(name, o)                            \
  Buffer* name = AsBuffer(REF(o));                         \
  if (name == nullptr) {                                   \
    status = WrongRef(REF(o), #name, "vm.buffer");         \
    TRAP();                                             \
  }
#define BUFFER_LOAD(T, assign)                                  \
  {                                                             \
    BUFFER_OPERAND(buffer, 0)                                   \
    const uint64_t index = GET64(2);                            \
    T value;                                                    \
    if (!LoadElement<T>(*buffer, index, &value)) {              \
      status = buffer->Load<T>(index).status();                 \
      TRAP();                                                \
    }                                                           \
    assign;                                                     \
    NEXT(6)                                                     \
  }
#define BUFFER_STORE(T, value_expr)                             \
  {                                                             \
    BUFFER_OPERAND(buffer, 0)                                   \
    const uint64_t index = GET64(2);                            \
    const T value = (value_expr);                               \
    if (!StoreElement<T>(*buffer, index, value)) {              \
      status = buffer->Store<T>(index, value);                  \
      TRAP();                                                \
    }                                                           \
    NEXT(6)                                                     \
  }
#define BUFFER_FILL(T, value_expr)                                    \
  {                                                                   \
    BUFFER_OPERAND(buffer, 0)                                         \
    TRAP_IF_ERROR(buffer->Fill<T>(GET64(2), GET64(4), (value_expr))); \
    NEXT(8)                                                           \
  }
      OPCODE(BufferLoadI8U) BUFFER_LOAD(uint8_t, R32(4) = value)
      OPCODE(BufferLoadI8S) BUFFER_LOAD(int8_t, R32(4) = static_cast<uint32_t>(static_cast<int32_t>(value)))
      OPCODE(BufferLoadI16U) BUFFER_LOAD(uint16_t, R32(4) = value)
      OPCODE(BufferLoadI16S) BUFFER_LOAD(int16_t, R32(4) = static_cast<uint32_t>(static_cast<int32_t>(value)))
      OPCODE(BufferLoadI32) BUFFER_LOAD(uint32_t, R32(4) = value)
      OPCODE(BufferLoadI64) BUFFER_LOAD(uint64_t, SET64(4, value))
      OPCODE(BufferStoreI8) BUFFER_STORE(uint8_t, static_cast<uint8_t>(R32(4)))
      OPCODE(BufferStoreI16) BUFFER_STORE(uint16_t, static_cast<uint16_t>(R32(4)))
      OPCODE(BufferStoreI32) BUFFER_STORE(uint32_t, R32(4))
      OPCODE(BufferStoreI64) BUFFER_STORE(uint64_t, GET64(4))
      OPCODE(BufferFillI8) BUFFER_FILL(uint8_t, static_cast<uint8_t>(R32(6)))
      OPCODE(BufferFillI16) BUFFER_FILL(uint16_t, static_cast<uint16_t>(R32(6)))
      OPCODE(BufferFillI32) BUFFER_FILL(uint32_t, R32(6))
      OPCODE(BufferFillI64) BUFFER_FILL(uint64_t, GET64(6))
      OPCODE(BufferAlloc) {
        auto buffer = Buffer::Allocate(GET64(0), R32(2), Buffer::kMutable | Buffer::kOriginGuest,
                                       cold.st->quota());
        if (!buffer.ok()) {
          status = buffer.status();
          TRAP();
        }
        AdoptInto(REF(4), std::move(buffer).value());
        NEXT_SCOPED(6)
      }
      OPCODE(BufferClone) {
        BUFFER_OPERAND(source, 0)
        auto clone = Buffer::Clone(*source, GET64(2), GET64(4), R32(6), cold.st->quota());
        if (!clone.ok()) {
          status = clone.status();
          TRAP();
        }
        AdoptInto(REF(8), std::move(clone).value());
        NEXT_SCOPED(10)
      }
      OPCODE(BufferLength) {
        BUFFER_OPERAND(buffer, 0)
        SET64(2, buffer->length());
        NEXT(4)
      }
      OPCODE(BufferCopy) {
        BUFFER_OPERAND(source_buffer, 0)
        BUFFER_OPERAND(target_buffer, 4)
        TRAP_IF_ERROR(Buffer::Copy(*source_buffer, GET64(2), *target_buffer, GET64(6), GET64(8)));
        NEXT(10)
      }
      OPCODE(BufferCompare) {
        BUFFER_OPERAND(lhs_buffer, 0)
        BUFFER_OPERAND(rhs_buffer, 4)
        auto equal = Buffer::Compare(*lhs_buffer, GET64(2), *rhs_buffer, GET64(6), GET64(8));
        if (!equal.ok()) {
          status = equal.status();
          TRAP();
        }
        R32(10) = *equal ? 1u : 0u;
        NEXT_SCOPED(12)
      }
      OPCODE(BufferHash) {
        BUFFER_OPERAND(buffer, 0)
        auto hash = buffer->Hash(GET64(2), GET64(4));
        if (!hash.ok()) {
          status = hash.status();
          TRAP();
        }
        SET64(6, *hash);
        NEXT_SCOPED(8)
      }

      // ---- ext_f32 ----------------------------------------------------------------------------
#undef TRAP
#define TRAP() goto trap_ext
      BEGIN_EXT_F32()
          OPCODE_F32(GlobalLoadF32) std::memcpy(&R32(4), cold.globals + U32(ip), 4); NEXT(6)
          OPCODE_F32(GlobalStoreF32) std::memcpy(cold.globals + U32(ip), &R32(4), 4); NEXT(6)
          OPCODE_F32(GlobalLoadIndirectF32)
          OPCODE_F32(GlobalStoreIndirectF32) {
            const uint32_t offset = R32(0);
            const uint32_t size = cold.st->global_bytes_size();
            if (offset > size || size - offset < 4) {
              status = base::OutOfRangeError("global byte_offset ", offset, " out of range (", size,
                                             " bytes of cold.globals)");
              TRAP();
            }
            if (ip[-1] == f32::GlobalLoadIndirectF32) {
              std::memcpy(&R32(2), cold.globals + offset, 4);
            } else {
              std::memcpy(cold.globals + offset, &R32(2), 4);
            }
            NEXT(4)
          }
          OPCODE_F32(ConstF32Zero) R32(0) = 0; NEXT(2)
          OPCODE_F32(ConstF32) R32(4) = U32(ip); NEXT(6)
          OPCODE_F32(ListGetF32) {
            List* list = AsList(REF(0));
            if (list == nullptr) {
              status = WrongRef(REF(0), "list", "vm.list");
              TRAP();
            }
            auto value = list->GetValue(R32(2), ValueType::kF32);
            if (!value.ok()) {
              status = value.status();
              TRAP();
            }
            SETF32(4, value->f32());
            NEXT_SCOPED(6)
          }
          OPCODE_F32(ListSetF32) {
            List* list = AsList(REF(0));
            if (list == nullptr) {
              status = WrongRef(REF(0), "list", "vm.list");
              TRAP();
            }
            TRAP_IF_ERROR(list->SetValue(R32(2), Value::F32(GETF32(4))));
            NEXT(6)
          }
          OPCODE_F32(SelectF32) R32(6) = R32(0) ? R32(2) : R32(4); NEXT(8)
          OPCODE_F32(SwitchF32) {
            const int32_t index = RS32(0);
            const uint8_t* list = Align2(ip + 4, cold.code);
            const uint16_t count = U16(list);
            const uint16_t reg = (index >= 0 && index < count) ? U16(list + 2 + 2 * index) : R16(2);
            const uint8_t* after = list + 2 + 2 * count;
            r32[U16(after)] = r32[reg];
            ip = after + 2;
            DISPATCH();
          }
          OPCODE_F32(AddF32) BIN_F32(a + b)
          OPCODE_F32(SubF32) BIN_F32(a - b)
          OPCODE_F32(MulF32) BIN_F32(a * b)
          OPCODE_F32(DivF32) BIN_F32(a / b)
          OPCODE_F32(RemF32) BIN_F32(std::fmod(a, b))
          OPCODE_F32(FMAF32) SETF32(6, FmaF32(GETF32(0), GETF32(2), GETF32(4))); NEXT(8)
          OPCODE_F32(AbsF32) UN_F32(std::fabs(a))
          OPCODE_F32(NegF32) UN_F32(-a)
          OPCODE_F32(CeilF32) UN_F32(std::ceil(a))
          OPCODE_F32(FloorF32) UN_F32(std::floor(a))
          OPCODE_F32(RoundF32) UN_F32(std::round(a))
          OPCODE_F32(RoundF32Even) UN_F32(RoundHalfEven(a))
          OPCODE_F32(MinF32) BIN_F32(MinimumF(a, b))
          OPCODE_F32(MaxF32) BIN_F32(MaximumF(a, b))
          OPCODE_F32(CastSI32F32) SETF32(2, static_cast<float>(RS32(0))); NEXT(4)
          OPCODE_F32(CastUI32F32) SETF32(2, static_cast<float>(R32(0))); NEXT(4)
          OPCODE_F32(CastF32SI32) R32(2) = static_cast<uint32_t>(TruncSat<int32_t>(GETF32(0))); NEXT(4)
          OPCODE_F32(CastF32UI32) R32(2) = TruncSat<uint32_t>(GETF32(0)); NEXT(4)
          OPCODE_F32(CastF32SI64) SET64(2, TruncSat<int64_t>(GETF32(0))); NEXT(4)
          OPCODE_F32(CastF32UI64) SET64(2, TruncSat<uint64_t>(GETF32(0))); NEXT(4)
          OPCODE_F32(CastSI64F32) SETF32(2, static_cast<float>(static_cast<int64_t>(GET64(0)))); NEXT(4)
          OPCODE_F32(CastUI64F32) SETF32(2, static_cast<float>(GET64(0))); NEXT(4)
          OPCODE_F32(BitcastI32F32) R32(2) = R32(0); NEXT(4)
          OPCODE_F32(BitcastF32I32) R32(2) = R32(0); NEXT(4)
          OPCODE_F32(AtanF32) UN_F32(std::atan(a))
          OPCODE_F32(Atan2F32) BIN_F32(std::atan2(a, b))
          OPCODE_F32(CosF32) UN_F32(std::cos(a))
          OPCODE_F32(SinF32) UN_F32(std::sin(a))
          OPCODE_F32(ExpF32) UN_F32(std::exp(a))
          OPCODE_F32(Exp2F32) UN_F32(std::exp2(a))
          OPCODE_F32(ExpM1F32) UN_F32(std::expm1(a))
          OPCODE_F32(LogF32) UN_F32(std::log(a))
          OPCODE_F32(Log10F32) UN_F32(std::log10(a))
          OPCODE_F32(Log1pF32) UN_F32(std::log1p(a))
          OPCODE_F32(Log2F32) UN_F32(std::log2(a))
          OPCODE_F32(PowF32) BIN_F32(std::pow(a, b))
          OPCODE_F32(RsqrtF32) UN_F32(1.0f / std::sqrt(a))
          OPCODE_F32(SqrtF32) UN_F32(std::sqrt(a))
          OPCODE_F32(TanhF32) UN_F32(std::tanh(a))
          OPCODE_F32(ErfF32) UN_F32(std::erf(a))
          OPCODE_F32(CmpEQF32O) CMP_F32(a == b)
          OPCODE_F32(CmpEQF32U) CMP_F32(std::isunordered(a, b) || a == b)
          OPCODE_F32(CmpNEF32O) CMP_F32(!std::isunordered(a, b) && a != b)
          OPCODE_F32(CmpNEF32U) CMP_F32(a != b)
          OPCODE_F32(CmpLTF32O) CMP_F32(a < b)
          OPCODE_F32(CmpLTF32U) CMP_F32(std::isunordered(a, b) || a < b)
          OPCODE_F32(CmpLTEF32O) CMP_F32(a <= b)
          OPCODE_F32(CmpLTEF32U) CMP_F32(std::isunordered(a, b) || a <= b)
          OPCODE_F32(CmpNaNF32) R32(2) = std::isnan(GETF32(0)) ? 1u : 0u; NEXT(4)
          OPCODE_F32(BufferLoadF32) BUFFER_LOAD(float, SETF32(4, value))
          OPCODE_F32(BufferStoreF32) BUFFER_STORE(float, GETF32(4))
          OPCODE_F32(BufferFillF32) BUFFER_FILL(float, GETF32(6))
        }
      END_EXT_F32()

      // ---- ext_f64 ----------------------------------------------------------------------------
      BEGIN_EXT_F64()
          OPCODE_F64(GlobalLoadF64) std::memcpy(r32 + R16(4), cold.globals + U32(ip), 8); NEXT(6)
          OPCODE_F64(GlobalStoreF64) std::memcpy(cold.globals + U32(ip), r32 + R16(4), 8); NEXT(6)
          OPCODE_F64(GlobalLoadIndirectF64)
          OPCODE_F64(GlobalStoreIndirectF64) {
            const uint32_t offset = R32(0);
            const uint32_t size = cold.st->global_bytes_size();
            if (offset > size || size - offset < 8) {
              status = base::OutOfRangeError("global byte_offset ", offset, " out of range (", size,
                                             " bytes of cold.globals)");
              TRAP();
            }
            if (ip[-1] == f64::GlobalLoadIndirectF64) {
              std::memcpy(r32 + R16(2), cold.globals + offset, 8);
            } else {
              std::memcpy(cold.globals + offset, r32 + R16(2), 8);
            }
            NEXT(4)
          }
          OPCODE_F64(ConstF64Zero) SET64(0, 0); NEXT(2)
          OPCODE_F64(ConstF64) SET64(8, U64(ip)); NEXT(10)
          OPCODE_F64(ListGetF64) {
            List* list = AsList(REF(0));
            if (list == nullptr) {
              status = WrongRef(REF(0), "list", "vm.list");
              TRAP();
            }
            auto value = list->GetValue(R32(2), ValueType::kF64);
            if (!value.ok()) {
              status = value.status();
              TRAP();
            }
            SETF64(4, value->f64());
            NEXT_SCOPED(6)
          }
          OPCODE_F64(ListSetF64) {
            List* list = AsList(REF(0));
            if (list == nullptr) {
              status = WrongRef(REF(0), "list", "vm.list");
              TRAP();
            }
            TRAP_IF_ERROR(list->SetValue(R32(2), Value::F64(GETF64(4))));
            NEXT(6)
          }
          OPCODE_F64(SelectF64) SET64(6, R32(0) ? GET64(2) : GET64(4)); NEXT(8)
          OPCODE_F64(SwitchF64) {
            const int32_t index = RS32(0);
            const uint8_t* list = Align2(ip + 4, cold.code);
            const uint16_t count = U16(list);
            const uint16_t reg = (index >= 0 && index < count) ? U16(list + 2 + 2 * index) : R16(2);
            const uint8_t* after = list + 2 + 2 * count;
            Store64(r32 + U16(after), Load64(r32 + reg));
            ip = after + 2;
            DISPATCH();
          }
          OPCODE_F64(AddF64) BIN_F64(a + b)
          OPCODE_F64(SubF64) BIN_F64(a - b)
          OPCODE_F64(MulF64) BIN_F64(a * b)
          OPCODE_F64(DivF64) BIN_F64(a / b)
          OPCODE_F64(RemF64) BIN_F64(std::fmod(a, b))
          OPCODE_F64(FMAF64) SETF64(6, FmaF64(GETF64(0), GETF64(2), GETF64(4))); NEXT(8)
          OPCODE_F64(AbsF64) UN_F64(std::fabs(a))
          OPCODE_F64(NegF64) UN_F64(-a)
          OPCODE_F64(CeilF64) UN_F64(std::ceil(a))
          OPCODE_F64(FloorF64) UN_F64(std::floor(a))
          OPCODE_F64(RoundF64) UN_F64(std::round(a))
          OPCODE_F64(RoundF64Even) UN_F64(RoundHalfEven(a))
          OPCODE_F64(MinF64) BIN_F64(MinimumF(a, b))
          OPCODE_F64(MaxF64) BIN_F64(MaximumF(a, b))
          OPCODE_F64(TruncF64F32) SETF32(2, static_cast<float>(GETF64(0))); NEXT(4)
          OPCODE_F64(ExtF32F64) SETF64(2, static_cast<double>(GETF32(0))); NEXT(4)
          OPCODE_F64(CastSI32F64) SETF64(2, static_cast<double>(RS32(0))); NEXT(4)
          OPCODE_F64(CastUI32F64) SETF64(2, static_cast<double>(R32(0))); NEXT(4)
          OPCODE_F64(CastF64SI32) R32(2) = static_cast<uint32_t>(TruncSat<int32_t>(GETF64(0))); NEXT(4)
          OPCODE_F64(CastF64UI32) R32(2) = TruncSat<uint32_t>(GETF64(0)); NEXT(4)
          OPCODE_F64(CastSI64F64) SETF64(2, static_cast<double>(static_cast<int64_t>(GET64(0)))); NEXT(4)
          OPCODE_F64(CastUI64F64) SETF64(2, static_cast<double>(GET64(0))); NEXT(4)
          OPCODE_F64(CastF64SI64) SET64(2, TruncSat<int64_t>(GETF64(0))); NEXT(4)
          OPCODE_F64(CastF64UI64) SET64(2, TruncSat<uint64_t>(GETF64(0))); NEXT(4)
          OPCODE_F64(BitcastI64F64) SET64(2, GET64(0)); NEXT(4)
          OPCODE_F64(BitcastF64I64) SET64(2, GET64(0)); NEXT(4)
          OPCODE_F64(AtanF64) UN_F64(std::atan(a))
          OPCODE_F64(Atan2F64) BIN_F64(std::atan2(a, b))
          OPCODE_F64(CosF64) UN_F64(std::cos(a))
          OPCODE_F64(SinF64) UN_F64(std::sin(a))
          OPCODE_F64(ExpF64) UN_F64(std::exp(a))
          OPCODE_F64(Exp2F64) UN_F64(std::exp2(a))
          OPCODE_F64(ExpM1F64) UN_F64(std::expm1(a))
          OPCODE_F64(LogF64) UN_F64(std::log(a))
          OPCODE_F64(Log10F64) UN_F64(std::log10(a))
          OPCODE_F64(Log1pF64) UN_F64(std::log1p(a))
          OPCODE_F64(Log2F64) UN_F64(std::log2(a))
          OPCODE_F64(PowF64) BIN_F64(std::pow(a, b))
          OPCODE_F64(RsqrtF64) UN_F64(1.0 / std::sqrt(a))
          OPCODE_F64(SqrtF64) UN_F64(std::sqrt(a))
          OPCODE_F64(TanhF64) UN_F64(std::tanh(a))
          OPCODE_F64(ErfF64) UN_F64(std::erf(a))
          OPCODE_F64(CmpEQF64O) CMP_F64(a == b)
          OPCODE_F64(CmpEQF64U) CMP_F64(std::isunordered(a, b) || a == b)
          OPCODE_F64(CmpNEF64O) CMP_F64(!std::isunordered(a, b) && a != b)
          OPCODE_F64(CmpNEF64U) CMP_F64(a != b)
          OPCODE_F64(CmpLTF64O) CMP_F64(a < b)
          OPCODE_F64(CmpLTF64U) CMP_F64(std::isunordered(a, b) || a < b)
          OPCODE_F64(CmpLTEF64O) CMP_F64(a <= b)
          OPCODE_F64(CmpLTEF64U) CMP_F64(std::isunordered(a, b) || a <= b)
          OPCODE_F64(CmpNaNF64) R32(2) = std::isnan(GETF64(0)) ? 1u : 0u; NEXT(4)
          OPCODE_F64(BufferLoadF64) BUFFER_LOAD(double, SETF64(4, value))
          OPCODE_F64(BufferStoreF64) BUFFER_STORE(double, GETF64(4))
          OPCODE_F64(BufferFillF64) BUFFER_FILL(double, GETF64(6))
        }
      END_EXT_F64()
#undef TRAP
#define TRAP() goto trap_core
  END_DISPATCH()

  // Only opcodes the verifier would have rejected get here.
#if RT_VM_THREADED_DISPATCH
dispatch:
  DISPATCH();
#endif

invalid_opcode:
  status = base::InternalError("invalid opcode 0x", std::hex, static_cast<int>(ip[-1]), " at pc ",
                               std::dec, ip - 1 - cold.code);
  TRAP();
invalid_ext_opcode:
  status = base::InternalError("invalid opcode 0x", std::hex, static_cast<int>(ip[-2]), " 0x",
                               static_cast<int>(ip[-1]), " at pc ", std::dec, ip - 2 - cold.code);
  goto trap_ext;

push_frame : {
  if (__builtin_expect(cold.stack->steps_left == 0, 0)) goto steps_exhausted;
  --cold.stack->steps_left;
  uint32_t callee_offset;
  if (!cold.frames->TryPush(cold.call_fn, cold.call_fn->frame_bytes, cold.call_fn->i32_bytes, cold.call_fn->ref_slots,
                      cold.call_state, 0, &callee_offset)) {
    status = cold.frames->Push(*cold.call_fn, cold.call_state, 0, &callee_offset);
    if (!status.ok()) TRAP();
  }
  Frame* caller = cold.frames->at(cold.frame_offset);
  uint32_t* caller_r32 = reinterpret_cast<uint32_t*>(caller->registers());
  RefSlot* caller_rr = reinterpret_cast<RefSlot*>(caller->registers() + cold.fn->i32_bytes);
  LOAD_FRAME(callee_offset);
  const uint8_t* arg_regs = cold.call_args + 2;
  const size_t count = cold.fn->args.size();
  for (size_t i = 0; i < count; ++i) {
    const uint16_t src = U16(arg_regs + 2 * i);
    const CompiledFunction::Arg& arg = cold.fn->args[i];
    switch (arg.kind) {
      case SlotKind::k32: r32[arg.slot] = caller_r32[src]; break;
      case SlotKind::k64: Store64(r32 + arg.slot, Load64(caller_r32 + src)); break;
      case SlotKind::kRef: {
        RefSlot& value = caller_rr[src & kRefMask];
        cold.rr[arg.slot] = value;  // the callee's registers start null
        if (src & kMoveBit) {
          value = RefSlot{nullptr, nullptr};
        } else if (value.object) {
          value.object->AddRef();
        }
        break;
      }
    }
  }
  ip = cold.code + 1;  // past the entry block marker
  goto dispatch;
}

division_by_zero:
  status = base::InvalidArgumentError("integer division by zero");
  TRAP();

steps_exhausted:
  status = cold.stack->StepsExhausted();
  TRAP();

  // |ip| is still at the failing instruction's operands: one opcode byte back, or two for ext.
trap_core:
  op_ip = ip - 1;
  goto trap;
trap_ext:
  op_ip = ip - 2;
trap:
  cold.frame = cold.frames->at(cold.frame_offset);  // an arena move (nested call, failed push) may have happened
  cold.frame->call_pc = static_cast<uint32_t>(op_ip - cold.code);
  status.Annotate(FormatBacktrace(frames, cold.entry));
  cold.frames->UnwindThrough(cold.entry);
  return status;
}

}  // namespace iree_rt::vm::bytecode
