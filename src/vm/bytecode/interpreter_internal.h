// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Interpreter internals shared by the dispatch loop (interpreter.cc) and the call marshaling
// (interpreter_calls.cc): operand decoding, the value semantics chosen for ops the ISA leaves
// open (docs/facts_corrections.md, "VM semantics chosen"), and calls through Module::Call.
#ifndef IREE_RT_VM_BYTECODE_INTERPRETER_INTERNAL_H_
#define IREE_RT_VM_BYTECODE_INTERPRETER_INTERNAL_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <type_traits>

#include "base/status.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/bytecode/interpreter_frame.h"
#include "vm/value.h"

namespace iree_rt::vm::bytecode::internal {

// ---- operand decoding ----------------------------------------------------------------------------
constexpr uint16_t kRefBit = 0x8000;
constexpr uint16_t kMoveBit = 0x4000;
constexpr uint16_t kRefMask = 0x3FFF;
constexpr uint32_t kImportBit = 0x80000000u;

inline uint16_t U16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline uint32_t U32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline uint64_t U64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline uint64_t Load64(const uint32_t* slot) {
  uint64_t v;
  std::memcpy(&v, slot, sizeof(v));
  return v;
}
inline void Store64(uint32_t* slot, uint64_t v) { std::memcpy(slot, &v, sizeof(v)); }

// Lists (register lists, remaps, segment sizes) start at an even function-relative pc; function
// bodies start at even addresses (BytecodeModule guarantees it), so the address parity decides.
inline const uint8_t* Align2(const uint8_t* p, const uint8_t* /*code*/) {
  return p + (reinterpret_cast<uintptr_t>(p) & 1);
}
// Past an aligned u16-counted list of |width|-byte entries.
inline const uint8_t* SkipList(const uint8_t* p, const uint8_t* code, int width) {
  p = Align2(p, code);
  return p + 2 + width * U16(p);
}

// ---- value semantics -------------------------------------------------------------------------------
// Truncates toward zero, saturating to I's range; NaN -> 0. The bounds are powers of two, exact
// in both float types.
template <typename I, typename F>
inline I TruncSat(F x) {
  constexpr F hi = F(2) * static_cast<F>(I(1) << (std::numeric_limits<I>::digits - 1));
  constexpr F lo = std::is_signed_v<I> ? -hi : F(0);
  if (std::isnan(x)) return 0;
  if (x <= lo) return std::numeric_limits<I>::min();
  if (x >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(x);
}

// arith.minimumf / maximumf: NaN if either operand is NaN, and -0 < +0.
template <typename F>
inline F MinimumF(F a, F b) {
  if (std::isnan(a) || std::isnan(b)) return a + b;  // a quiet NaN
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <typename F>
inline F MaximumF(F a, F b) {
  if (std::isnan(a) || std::isnan(b)) return a + b;
  if (a == b) return std::signbit(a) ? b : a;
  return a < b ? b : a;
}

// Half to even without depending on the host's rounding mode.
template <typename F>
inline F RoundHalfEven(F x) {
  if (std::fabs(x - std::trunc(x)) == F(0.5)) return F(2) * std::round(x / F(2));
  return std::round(x);
}

// Calls an import bound as ImportBinding::Kind::kCall through Module::Call: registers -> Values
// per the target's cconv (a C...D span becomes an i32 count and its flattened tuples), then the
// results back into the caller's result registers. |segments|/|arg_list|/|result_list| point at
// the call instruction's SEG (or null) and register lists.
base::Status CallImport(FrameStack& frames, uint32_t frame_offset, const ImportBinding& binding,
                        const uint8_t* segments, const uint8_t* arg_list, const uint8_t* result_list);
// The same for ImportBinding::Kind::kNative, with borrowed vm::Args instead of Values.
base::Status CallNativeImport(FrameStack& frames, uint32_t frame_offset,
                              const ImportBinding& binding, const uint8_t* segments,
                              const uint8_t* arg_list, const uint8_t* result_list);

// The same for a call site (call_site.h) whose import is bound kNative: Args from the site's
// pre-decoded op words (|ops|: its first).
base::Status CallNativeSite(FrameStack& frames, uint32_t frame_offset, const ImportBinding& binding,
                            const CallSite& site, const uint32_t* ops);

// Writes an entry frame's return values (register list at |list|) to the host's Values.
void ReturnToHost(const CompiledFunction& fn, const uint8_t* list, uint32_t* r32, RefSlot* rr,
                  std::span<Value> results);

}  // namespace iree_rt::vm::bytecode::internal

#endif  // IREE_RT_VM_BYTECODE_INTERPRETER_INTERNAL_H_
