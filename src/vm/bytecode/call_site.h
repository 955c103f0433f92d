// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CallSite: an import call instruction decoded once, when the module loads.
//
// A tensor program makes a dozen `hal` import calls per invocation, and decoding each call's
// operand lists and walking the callee's cconv again on every call cost about 300 instructions
// per import. After verification, BytecodeModule decodes every import call whose import declares
// its signature into a CallSite and rewrites the instruction, in the module's private copy of
// the bytecode, to kCallSiteOpcode with the site's index (in its function) as the 4-byte callee
// operand; the instruction keeps its length and every other byte. kCallSiteOpcode is outside the
// ISA (the verifier rejects it in any module), so only this rewrite produces it.
//
// The interpreter then builds a native target's Args in one pass over |ops|; any other target
// (bytecode, Module::Call, unresolved) takes the general call path from |opcode| and |callee|.
#ifndef IREE_RT_VM_BYTECODE_CALL_SITE_H_
#define IREE_RT_VM_BYTECODE_CALL_SITE_H_

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.h"
#include "vm/cconv.h"

namespace iree_rt::vm::bytecode {

inline constexpr uint8_t kCallSiteOpcode = 0x89;  // first core opcode the ISA leaves unused

// One op word: kind << 16 | 16-bit value.
enum class CallSiteArg : uint32_t {
  k32 = 0,     // an i32/f32 register: value = i32-bank ordinal
  k64 = 1,     // an i64/f64 register pair: value = even i32-bank ordinal
  kRef = 2,    // a ref register, borrowed for the call: value = ref-bank ordinal, with
               // kCallSiteMoved set for a MOVE argument (released after the call)
  kCount = 3,  // a span's tuple count (from the SEG list): value = the count
};
inline constexpr uint32_t kCallSiteMoved = 0x8000;

struct CallSite {
  // Sites with more Args or results keep their instruction (the general path handles them).
  static constexpr uint16_t kMaxArgs = 32;
  static constexpr uint16_t kMaxResults = 2;

  // 16 bytes: a loaded module keeps one per import call (its memory bound is tested).
  uint32_t callee = 0;       // the F32 operand: the import bit | the import ordinal
  uint32_t continue_pc = 0;  // where the caller goes on after the call (a yieldable call's
                             // resume block, past its marker)
  uint32_t ops_offset = 0;   // of the first op word in the module's op pool
  uint8_t opcode = 0;        // the instruction's own opcode (call, call.variadic, ...yieldable)
  uint8_t arg_count = 0;     // op words: Args (CallSiteArg)...
  uint8_t moved_count = 0;   // (of them kCallSiteMoved refs, released after the call)...
  uint8_t result_count = 0;  // ...then results: ValueType << 16 | the raw result register
};
static_assert(sizeof(CallSite) == 16);

// The import calls of one verified function body, in pc order.
struct FunctionCallSites {
  std::vector<uint32_t> pcs;  // of each site's instruction
  std::vector<CallSite> sites;
};

// Decodes the import calls in |code| (a function body the verifier accepted). |import_cconvs|
// holds each import's parsed declared cconv, or null where it declares none (no site: such
// calls are marshalled by the bound target's cconv). Op words are appended to |ops|.
// INTERNAL if the body does not decode as verified code would.
base::Status DecodeCallSites(std::span<const uint8_t> code,
                             std::span<const Cconv* const> import_cconvs,
                             std::vector<uint32_t>* ops, FunctionCallSites* out);

}  // namespace iree_rt::vm::bytecode

#endif  // IREE_RT_VM_BYTECODE_CALL_SITE_H_
