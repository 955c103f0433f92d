// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/bytecode/call_site.h"

#include "vm/bytecode/bytecode_reader.h"

namespace iree_rt::vm::bytecode {

namespace {

uint32_t Word(CallSiteArg kind, uint32_t value) { return static_cast<uint32_t>(kind) << 16 | value; }

enum class Decoded { kSite, kTooWide, kMismatch };

// The site of one import call; kTooWide past CallSite's limits (checked before the counts are
// narrowed to 16 bits: a list of 65,535 registers plus span counts is more words than that);
// kMismatch when it does not match its cconv (the verifier guarantees it does, so that is a
// bug). |site->ops_offset| is left to the caller.
Decoded DecodeSite(std::span<const uint8_t> code, const Instruction& ins, bool variadic,
                bool yieldable, const Cconv& cconv, std::vector<uint32_t>* words,
                CallSite* site) {
  int next = 1;  // operands after F32: [SEG] L[args] [PC32] L[results]
  const OperandValue segments = variadic ? ins.operands[next++] : OperandValue{};
  const OperandValue args = ins.operands[next++];
  const uint32_t resume_pc = yieldable ? static_cast<uint32_t>(ins.operands[next++].value) : 0;
  const OperandValue results = ins.operands[next];

  uint32_t moved = 0;
  uint32_t reg_index = 0;
  auto take = [&](ValueType type) {
    if (reg_index == args.count) return false;
    const uint16_t reg = ReadU16(code, args.offset + 2 * reg_index++);
    const bool is_ref = (reg & kRegisterRefBit) != 0;
    if (is_ref != (type == ValueType::kRef)) return false;
    if (is_ref) {
      const bool move = (reg & kRegisterMoveBit) != 0;
      words->push_back(Word(CallSiteArg::kRef, (reg & kRefOrdinalMask) | (move ? kCallSiteMoved : 0)));
      moved += move ? 1 : 0;
    } else {
      const bool wide = type == ValueType::kI64 || type == ValueType::kF64;
      words->push_back(Word(wide ? CallSiteArg::k64 : CallSiteArg::k32, reg));
    }
    return true;
  };
  for (size_t i = 0; i < cconv.arguments.size(); ++i) {
    const CconvItem& item = cconv.arguments[i];
    if (!item.is_span()) {
      if (!take(item.type)) return Decoded::kMismatch;
      continue;
    }
    if (i >= segments.count) return Decoded::kMismatch;
    const uint16_t tuples = ReadU16(code, segments.offset + 2 * static_cast<uint32_t>(i));
    words->push_back(Word(CallSiteArg::kCount, tuples));
    for (uint16_t t = 0; t < tuples; ++t) {
      for (ValueType type : item.tuple) {
        if (!take(type)) return Decoded::kMismatch;
      }
    }
  }
  if (reg_index != args.count || results.count != cconv.results.size()) return Decoded::kMismatch;
  if (words->size() > CallSite::kMaxArgs || results.count > CallSite::kMaxResults) {
    return Decoded::kTooWide;
  }
  site->arg_count = static_cast<uint8_t>(words->size());
  site->moved_count = static_cast<uint8_t>(moved);
  site->result_count = static_cast<uint8_t>(results.count);
  for (uint32_t i = 0; i < results.count; ++i) {
    const uint32_t type = static_cast<uint32_t>(cconv.results[i]);
    words->push_back(type << 16 | ReadU16(code, results.offset + 2 * i));
  }
  site->opcode = ins.opcode;
  site->callee = static_cast<uint32_t>(ins.operands[0].value);
  site->continue_pc = yieldable ? resume_pc + 1 : ins.next_pc;
  return Decoded::kSite;
}

}  // namespace

base::Status DecodeCallSites(std::span<const uint8_t> code,
                             std::span<const Cconv* const> import_cconvs,
                             std::vector<uint32_t>* ops, FunctionCallSites* out) {
  for (uint32_t pc = 0; pc < code.size();) {
    Instruction ins;
    uint32_t error_pc = 0;
    if (DecodeInstruction(code, pc, &ins, &error_pc) != DecodeError::kNone) {
      return base::InternalError("verified bytecode does not decode at pc ", error_pc);
    }
    pc = ins.next_pc;
    if (ins.set != OpSet::kCore) continue;
    bool variadic = false, yieldable = false;
    switch (static_cast<CoreOp>(ins.opcode)) {
      case CoreOp::kCall: break;
      case CoreOp::kCallVariadic: variadic = true; break;
      case CoreOp::kCallYieldable: yieldable = true; break;
      case CoreOp::kCallVariadicYieldable: variadic = yieldable = true; break;
      default: continue;
    }
    const uint32_t callee = static_cast<uint32_t>(ins.operands[0].value);
    if ((callee & kFunctionImportBit) == 0) continue;
    const uint32_t ordinal = callee & ~kFunctionImportBit;
    if (ordinal >= import_cconvs.size()) {
      return base::InternalError("verified call at pc ", ins.pc, " names import ", ordinal,
                                 " of ", import_cconvs.size());
    }
    if (import_cconvs[ordinal] == nullptr) continue;

    std::vector<uint32_t> words;
    CallSite site;
    switch (DecodeSite(code, ins, variadic, yieldable, *import_cconvs[ordinal], &words, &site)) {
      case Decoded::kSite: break;
      case Decoded::kTooWide: continue;
      case Decoded::kMismatch:
        return base::InternalError("verified call at pc ", ins.pc,
                                   " does not match the import's calling convention");
    }
    site.ops_offset = static_cast<uint32_t>(ops->size());
    ops->insert(ops->end(), words.begin(), words.end());
    out->pcs.push_back(ins.pc);
    out->sites.push_back(site);
  }
  return base::Status();
}

}  // namespace iree_rt::vm::bytecode
