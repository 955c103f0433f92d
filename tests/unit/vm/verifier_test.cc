// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The bytecode verifier on real iree-compile output: every compiled function verifies, hand-
// broken copies of real functions are rejected with a message naming function and pc, random
// byte mutations never crash it, and it is fast on a large module.
#include "vm/bytecode/verifier.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "verifier_test_util.h"
#include "vm/bytecode/archive.h"
#include "vm/bytecode/bytecode_reader.h"
#include "vm/bytecode/disassembler.h"
#include "vm/bytecode/schema/module_def_generated.h"

#include "base/sanitizer.h"
#if defined(IREE_RT_ASAN)  // gcc's and clang's ASan alike
#include <sanitizer/asan_interface.h>
#define RT_TEST_ASAN 1
#endif

namespace iree_rt::vm::bytecode {
namespace {

using base::StatusCode;
using testing::LoadedModule;
using testing::LoadVerifierModule;

::testing::AssertionResult IsRejected(const base::Status& status, StatusCode code,
                                      std::initializer_list<std::string_view> parts) {
  if (status.code() != code) {
    return ::testing::AssertionFailure()
           << "expected " << base::StatusCodeName(code) << " but got " << status.ToString();
  }
  for (std::string_view part : parts) {
    if (status.message().find(part) == std::string_view::npos) {
      return ::testing::AssertionFailure()
             << "message '" << status.message() << "' lacks '" << part << "'";
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(VerifierTest, EveryCompiledFunctionVerifies) {
  for (const char* name : testing::kVerifierModules) {
    SCOPED_TRACE(name);
    auto module = LoadVerifierModule(name);
    ASSERT_TRUE(module);
    EXPECT_GT(module->image->functions().size(), 0u);
    base::Status status = VerifyModule(*module->image, module->types);
    EXPECT_TRUE(status.ok()) << status.ToString();
    for (uint32_t i = 0; i < module->image->functions().size(); ++i) {
      base::Status one = VerifyFunction(*module->image, module->types, i);
      EXPECT_TRUE(one.ok()) << one.ToString() << "\n" << Disassemble(*module->image, i);
    }
  }
}

// Optional extra corpus: every .vmfb in $RT_VERIFIER_EXTRA_MODULES (e.g. models compiled by
// hand) must verify too.
TEST(VerifierTest, ExtraModulesVerify) {
  const char* dir = std::getenv("RT_VERIFIER_EXTRA_MODULES");
  if (!dir) GTEST_SKIP() << "set RT_VERIFIER_EXTRA_MODULES to a directory of .vmfb files";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".vmfb") continue;
    SCOPED_TRACE(entry.path().string());
    LoadedModule module;
    module.bytes = testing::ReadBytes(entry.path().string());
    ASSERT_TRUE(module.Reparse());
    base::Status status = VerifyModule(*module.image, module.types);
    EXPECT_TRUE(status.ok()) << status.ToString();
    ++count;
  }
  EXPECT_GT(count, 0);
}

TEST(VerifierTest, RejectsMismatchedTypeTable) {
  auto module = LoadVerifierModule("vm_ops");
  ASSERT_TRUE(module);
  std::vector<vm::Type> too_few(module->types.begin(), module->types.end() - 1);
  EXPECT_TRUE(IsRejected(VerifyModule(*module->image, too_few), StatusCode::kInvalidArgument,
                         {"resolved types"}));
  EXPECT_TRUE(IsRejected(VerifyFunction(*module->image, module->types, 1000),
                         StatusCode::kInvalidArgument, {"function ordinal 1000 out of range"}));
}

TEST(VerifierTest, DescribesFunctionsByExportName) {
  auto module = LoadVerifierModule("vm_ops");
  ASSERT_TRUE(module);
  const uint32_t f = module->Function("branch_table");
  EXPECT_EQ(DescribeFunction(*module->image, f),
            "function 'branch_table' (ordinal " + std::to_string(f) + ")");
  EXPECT_EQ(DescribeFunction(*module->image, 999), "function ordinal 999");
}

// ---------------------------------------------------------------------------------------------
// Hand-broken bytecode: real functions of vm_ops.mlir, patched in place.

class BrokenBytecodeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    module_ = LoadVerifierModule("vm_ops");
    ASSERT_TRUE(module_);
    ASSERT_TRUE(Verify().ok());
  }

  base::Status Verify() { return VerifyModule(*module_->image, module_->types); }

  // The nth instruction of |function| with this opcode (fails the test if missing).
  Instruction Find(std::string_view function, OpSet set, uint8_t opcode, int nth = 0) {
    const uint32_t f = module_->Function(function);
    const auto code = module_->image->functions()[f].bytecode;
    Instruction inst;
    uint32_t error_pc;
    for (uint32_t pc = 0; pc < code.size(); pc = inst.next_pc) {
      EXPECT_EQ(DecodeInstruction(code, pc, &inst, &error_pc), DecodeError::kNone);
      if (inst.set == set && inst.opcode == opcode && nth-- == 0) return inst;
    }
    ADD_FAILURE() << "no such instruction in " << function;
    return inst;
  }
  Instruction Find(std::string_view function, CoreOp op, int nth = 0) {
    return Find(function, OpSet::kCore, static_cast<uint8_t>(op), nth);
  }

  // The pc of operand |index| of |inst|. The decoder records where lists start; fixed-size
  // fields are found by walking the fields before them.
  uint32_t OperandPc(const Instruction& inst, int index) {
    const OperandValue& value = inst.operands[index];
    switch (inst.spec->operands[index].kind) {
      case OperandKind::kRegisterList:
      case OperandKind::kSegments:
      case OperandKind::kRemap:
      case OperandKind::kString:
      case OperandKind::kCases:
        return value.offset;
      default:
        break;
    }
    uint32_t pc = inst.pc + (inst.set == OpSet::kCore ? 1 : 2);
    for (int i = 0; i < index; ++i) {
      const OperandValue& v = inst.operands[i];
      switch (inst.spec->operands[i].kind) {
        case OperandKind::kRegister:
        case OperandKind::kCaseCount:
          pc += 2;
          break;
        case OperandKind::kImmediate64:
          pc += 8;
          break;
        case OperandKind::kRegisterList:
        case OperandKind::kSegments:
          pc = v.offset + 2 * v.count;
          break;
        case OperandKind::kString:
          pc = v.offset + v.count;
          break;
        case OperandKind::kRemap:
          pc = v.offset + 4 * v.count;
          break;
        default:
          pc += 4;
          break;
      }
    }
    return pc;
  }

  uint8_t* At(std::string_view function, uint32_t pc) {
    return module_->bytes.data() + module_->FileOffset(module_->Function(function), pc);
  }
  void Put16(std::string_view function, uint32_t pc, uint16_t value) {
    std::memcpy(At(function, pc), &value, 2);
  }
  void Put32(std::string_view function, uint32_t pc, uint32_t value) {
    std::memcpy(At(function, pc), &value, 4);
  }
  // Patches operand |index| (a register or 32-bit field) of |inst| in |function|.
  void PatchOperand(std::string_view function, const Instruction& inst, int index, uint32_t value) {
    const uint32_t pc = OperandPc(inst, index);
    if (inst.spec->operands[index].kind == OperandKind::kRegister) {
      Put16(function, pc, static_cast<uint16_t>(value));
    } else {
      Put32(function, pc, value);
    }
  }

  // Changes function |name|'s descriptor in the FlatBuffer and parses the module again.
  void EditDescriptor(std::string_view name,
                      const std::function<void(fb::FunctionDescriptor*)>& edit) {
    const uint32_t f = module_->Function(name);
    auto layout = ParseArchive(module_->bytes);
    ASSERT_TRUE(layout.ok());
    auto* root = fb::GetMutableBytecodeModuleDef(module_->bytes.data() + layout->prefix_offset + 4);
    edit(root->mutable_function_descriptors()->GetMutableObject(f));
    ASSERT_TRUE(module_->Reparse());
  }

  std::string Where(std::string_view function, uint32_t pc) {
    return DescribeFunction(*module_->image, module_->Function(function)) + " pc " +
           std::to_string(pc) + ": ";
  }

  std::unique_ptr<LoadedModule> module_;
};

TEST_F(BrokenBytecodeTest, UnknownOpcode) {
  const Instruction inst = Find("direct_globals", CoreOp::kGlobalStoreI32);
  *At("direct_globals", inst.pc) = 0xDF;
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("direct_globals", inst.pc), "unknown opcode 0xdf"}));
  // An opcode missing from an extension set.
  *At("direct_globals", inst.pc) = kPrefixExtF32;
  *At("direct_globals", inst.pc + 1) = 0xC0;
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("direct_globals", inst.pc), "unknown opcode 0xc0 in the ext_f32"}));
}

TEST_F(BrokenBytecodeTest, RegisterOutOfRangeMessage) {
  const Instruction inst = Find("direct_globals", CoreOp::kGlobalStoreI32);
  const uint32_t f = module_->Function("direct_globals");
  const uint16_t count = module_->image->functions()[f].i32_register_count;
  PatchOperand("direct_globals", inst, 1, count);
  // The whole message, once: function, pc, problem, and the instruction as disassembled.
  EXPECT_EQ(Verify().ToString(), "INVALID_ARGUMENT: function 'direct_globals' (ordinal " +
                                     std::to_string(f) + ") pc " + std::to_string(inst.pc) +
                                     ": register i" + std::to_string(count) + " out of range (" +
                                     std::to_string(count) +
                                     " i32 registers); at `global.store.i32 @global[0], %i" +
                                     std::to_string(count) + "`");
  PatchOperand("direct_globals", inst, 1, count - 1);  // the last register is fine
  EXPECT_TRUE(Verify().ok());
}

TEST_F(BrokenBytecodeTest, RefRegisterOutOfRange) {
  const Instruction inst = Find("direct_globals", CoreOp::kGlobalLoadRef);
  const uint32_t f = module_->Function("direct_globals");
  const uint16_t refs = module_->image->functions()[f].ref_register_count;
  PatchOperand("direct_globals", inst, 2, kRegisterRefBit | refs);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("direct_globals", inst.pc), "register r" + std::to_string(refs),
                          "out of range (" + std::to_string(refs) + " ref registers)"}));
}

TEST_F(BrokenBytecodeTest, WrongRegisterBank) {
  const Instruction inst = Find("direct_globals", CoreOp::kGlobalStoreI32);
  PatchOperand("direct_globals", inst, 1, kRegisterRefBit);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("direct_globals", inst.pc),
                          "ref register r0 where an i32-bank register is required"}));
  const Instruction ref = Find("direct_globals", CoreOp::kGlobalLoadRef);
  PatchOperand("direct_globals", inst, 1, 0);
  PatchOperand("direct_globals", ref, 2, 0);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("direct_globals", ref.pc), "i32-bank register i0 where a ref"}));
}

TEST_F(BrokenBytecodeTest, Odd64BitRegister) {
  const Instruction inst = Find("direct_globals", CoreOp::kGlobalStoreI64);
  PatchOperand("direct_globals", inst, 1, 3);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("direct_globals", inst.pc), "64-bit register i3 is odd"}));
  // An even register whose pair runs past the end.
  const uint32_t f = module_->Function("direct_globals");
  const uint16_t count = module_->image->functions()[f].i32_register_count;
  const uint16_t last_even = count & ~1u;
  PatchOperand("direct_globals", inst, 1, last_even);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {"register pair i" + std::to_string(last_even) + ":" +
                          std::to_string(last_even + 1) + " out of range"}));
  PatchOperand("direct_globals", inst, 1, static_cast<uint32_t>(inst.operands[1].value));
  EXPECT_TRUE(Verify().ok());
}

TEST_F(BrokenBytecodeTest, MoveOnNonMoveOperand) {
  const Instruction inst = Find("buffers", CoreOp::kBufferLoadI64);
  PatchOperand("buffers", inst, 0, kRegisterRefBit | kRegisterMoveBit);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("buffers", inst.pc), "MOVE bit on register r0"}));
  // MOVE is fine where ops.def allows it (global.store.ref's source).
  PatchOperand("buffers", inst, 0, kRegisterRefBit);
  const Instruction store = Find("direct_globals", CoreOp::kGlobalStoreRef);
  PatchOperand("direct_globals", store, 2, kRegisterRefBit | kRegisterMoveBit);
  EXPECT_TRUE(Verify().ok());
  // ...but not on a call result.
  const Instruction call = Find("internal_calls", CoreOp::kCall);
  const OperandValue& results = call.operands[2];
  for (uint32_t i = 0; i < results.count; ++i) {
    const uint32_t pc = results.offset + 2 * i;
    uint16_t reg;
    std::memcpy(&reg, At("internal_calls", pc), 2);
    if (reg & kRegisterRefBit) {
      Put16("internal_calls", pc, reg | kRegisterMoveBit);
      EXPECT_TRUE(IsRejected(
          Verify(), StatusCode::kInvalidArgument,
          {Where("internal_calls", call.pc), "result " + std::to_string(i), "MOVE bit"}));
      return;
    }
  }
  ADD_FAILURE() << "no ref result";
}

TEST_F(BrokenBytecodeTest, BranchIntoTheMiddleOfAnInstruction) {
  const Instruction br = Find("branch_table", CoreOp::kBranch);
  PatchOperand("branch_table", br, 0, static_cast<uint32_t>(br.operands[0].value) + 1);
  EXPECT_TRUE(IsRejected(
      Verify(), StatusCode::kInvalidArgument,
      {Where("branch_table", br.pc),
       "branch target pc " + std::to_string(br.operands[0].value + 1) + " is not a block marker"}));
  PatchOperand("branch_table", br, 0, 0xFFFFFF);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument, {"branch target pc 16777215"}));
  PatchOperand("branch_table", br, 0, static_cast<uint32_t>(br.operands[0].value));
  ASSERT_TRUE(Verify().ok());

  // A br_table case.
  const Instruction table = Find("branch_table", CoreOp::kBranchTable);
  Put32("branch_table", table.operands[4].offset, 1);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("branch_table", table.pc), "branch target pc 1 "}));
  Put32("branch_table", table.operands[4].offset, 0);  // pc 0 is a block: fine
  EXPECT_TRUE(Verify().ok());

  // The resume target of a yieldable call.
  const Instruction call = Find("yielding", CoreOp::kCallYieldable);
  PatchOperand("yielding", call, 2, static_cast<uint32_t>(call.operands[2].value) - 1);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("yielding", call.pc), "is not a block marker"}));
}

TEST_F(BrokenBytecodeTest, TruncatedInstructionAtTheEnd) {
  // The descriptor cuts the final return short by one byte.
  const Instruction ret = Find("switches", CoreOp::kReturn);
  EditDescriptor("switches", [](fb::FunctionDescriptor* d) {
    d->mutate_bytecode_length(d->bytecode_length() - 1);
  });
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kOutOfRange,
                         {Where("switches", ret.pc), "truncated instruction return"}));
}

TEST_F(BrokenBytecodeTest, ListRunningPastTheEnd) {
  const Instruction ret = Find("direct_globals", CoreOp::kReturn);
  Put16("direct_globals", ret.operands[0].offset - 2, 200);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kOutOfRange,
                         {Where("direct_globals", ret.pc), "truncated instruction return"}));
}

TEST_F(BrokenBytecodeTest, MissingTerminator) {
  // Cut the function right before its final return: discard.refs is then the last instruction.
  const Instruction ret = Find("buffers", CoreOp::kReturn);
  const Instruction discard = Find("buffers", CoreOp::kDiscardRefs);
  EditDescriptor("buffers", [&](fb::FunctionDescriptor* d) { d->mutate_bytecode_length(ret.pc); });
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("buffers", discard.pc), "the last instruction is not a terminator",
                          "at `discard.refs [%r0]`"}));
}

TEST_F(BrokenBytecodeTest, WrongBlockCount) {
  EditDescriptor("branch_table",
                 [](fb::FunctionDescriptor* d) { d->mutate_block_count(d->block_count() + 1); });
  EXPECT_TRUE(
      IsRejected(Verify(), StatusCode::kInvalidArgument,
                 {Where("branch_table", 0), "found 4 blocks but the descriptor declares 5"}));
}

TEST_F(BrokenBytecodeTest, BlockStructure) {
  // pc 0 must be a block marker.
  *At("direct_globals", 0) = static_cast<uint8_t>(CoreOp::kConstI32Zero);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("direct_globals", 0), "does not start with a block marker"}));
  *At("direct_globals", 0) = static_cast<uint8_t>(CoreOp::kBlock);
  // A marker right after a non-terminator: const.i32.zero %i0 at pc 1, then 0x79 at pc 4.
  *At("direct_globals", 1) = static_cast<uint8_t>(CoreOp::kConstI32Zero);
  Put16("direct_globals", 2, 0);
  *At("direct_globals", 4) = static_cast<uint8_t>(CoreOp::kBlock);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("direct_globals", 4), "block marker after a non-terminator"}));
}

TEST_F(BrokenBytecodeTest, InstructionAfterTerminator) {
  // The block marker after a yield becomes a const.i32.zero (over the next two bytes).
  const Instruction yield = Find("yielding", CoreOp::kYield);
  *At("yielding", yield.next_pc) = static_cast<uint8_t>(CoreOp::kConstI32Zero);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("yielding", yield.next_pc), "not a block marker"}));
}

TEST_F(BrokenBytecodeTest, CallArgumentCountAndTypes) {
  const Instruction call = Find("internal_calls", CoreOp::kCall);
  // The callee becomes ref_casts, whose cconv is 0r_rri: one argument instead of five.
  PatchOperand("internal_calls", call, 0, module_->Function("ref_casts"));
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("internal_calls", call.pc),
                          "argument list has 5 registers but the calling convention has 1"}));
  // Back to the right callee, but the i64 argument in an odd register.
  PatchOperand("internal_calls", call, 0, module_->Function("internal_callee"));
  ASSERT_TRUE(Verify().ok());
  Put16("internal_calls", call.operands[1].offset + 2, 1);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("internal_calls", call.pc), "argument 1 (i64)", "is odd"}));
  Put16("internal_calls", call.operands[1].offset + 2, kRegisterRefBit);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {"argument 1 (i64): ref register r0 where an i32-bank register"}));
  Put16("internal_calls", call.operands[1].offset + 2, 2);
  // A function ordinal past the end.
  PatchOperand("internal_calls", call, 0, 1000);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("internal_calls", call.pc), "function ordinal 1000 out of range"}));
}

TEST_F(BrokenBytecodeTest, ImportCalls) {
  const Instruction call = Find("imports", CoreOp::kCall);
  PatchOperand("imports", call, 0, kFunctionImportBit | 5);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("imports", call.pc), "import ordinal 5 out of range (5 imports)"}));
  // native.spans has spans: a plain call cannot pass them.
  PatchOperand("imports", call, 0, kFunctionImportBit | 1);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {"non-variadic call to a callee with variadic arguments"}));
  PatchOperand("imports", call, 0, kFunctionImportBit | 0);
  ASSERT_TRUE(Verify().ok());

  const Instruction variadic = Find("imports", CoreOp::kCallVariadic);
  PatchOperand("imports", variadic, 0, 0);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("imports", variadic.pc), "variadic call to internal function 0"}));
  PatchOperand("imports", variadic, 0, kFunctionImportBit | 1);
  ASSERT_TRUE(Verify().ok());
  // SEG is [_, 3, 2] for (i32, refs..., tuple<i32, i64>...).
  const uint32_t seg = variadic.operands[1].offset;
  Put16("imports", seg + 2, 2);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {"argument list has 8 registers but the segment list covers 7"}));
  Put16("imports", seg + 2, 3);
  Put16("imports", seg, 1);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {"segment 0 is 1 but argument 0 is not a variadic span"}));
  Put16("imports", seg, kSegmentScalar);
  Put16("imports", seg + 4, kSegmentScalar);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {"segment 2 gives no tuple count for variadic argument 2"}));
  Put16("imports", seg + 4, 2);
  ASSERT_TRUE(Verify().ok());
  // The first tuple's i64 (argument 5) moved to an odd register.
  Put16("imports", variadic.operands[2].offset + 2 * 5, 3);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {"argument 5 (i64): 64-bit register i3 is odd"}));
  Put16("imports", variadic.operands[2].offset + 2 * 5, 2);

  const Instruction resolved = Find("imports", CoreOp::kImportResolved);
  PatchOperand("imports", resolved, 0, 0);
  EXPECT_TRUE(
      IsRejected(Verify(), StatusCode::kInvalidArgument,
                 {Where("imports", resolved.pc), "import.resolved names internal function 0"}));
  PatchOperand("imports", resolved, 0, kFunctionImportBit | 9);
  EXPECT_TRUE(
      IsRejected(Verify(), StatusCode::kInvalidArgument, {"import ordinal 9 out of range"}));
}

TEST_F(BrokenBytecodeTest, ReturnMatchesResultCconv) {
  const Instruction ret = Find("direct_globals", CoreOp::kReturn);
  // Results are (i32, i64, f32, f64, ref): make the i64 one a ref register.
  Put16("direct_globals", ret.operands[0].offset + 2, kRegisterRefBit);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("direct_globals", ret.pc), "result 1 (i64)"}));
}

TEST_F(BrokenBytecodeTest, GlobalOffsets) {
  const Instruction load = Find("direct_globals", CoreOp::kGlobalLoadI64);
  const uint32_t capacity = module_->image->global_bytes_capacity();
  PatchOperand("direct_globals", load, 0, capacity);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("direct_globals", load.pc),
                          "global byte offset " + std::to_string(capacity) + " + 8 out of range (" +
                              std::to_string(capacity) + " bytes of globals)"}));
  PatchOperand("direct_globals", load, 0, capacity - 4);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument, {"out of range"}));
  PatchOperand("direct_globals", load, 0, 4);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument, {"is not 8-byte aligned"}));
  PatchOperand("direct_globals", load, 0, 0xFFFFFFF8u);  // no wrap-around
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument, {"out of range"}));
  PatchOperand("direct_globals", load, 0, static_cast<uint32_t>(load.operands[0].value));
  ASSERT_TRUE(Verify().ok());

  const Instruction ref = Find("direct_globals", CoreOp::kGlobalLoadRef);
  const uint32_t refs = module_->image->global_ref_count();
  PatchOperand("direct_globals", ref, 0, refs);
  EXPECT_TRUE(IsRejected(
      Verify(), StatusCode::kInvalidArgument,
      {Where("direct_globals", ref.pc), "ref global " + std::to_string(refs) + " out of range"}));
}

TEST_F(BrokenBytecodeTest, RodataOrdinal) {
  const Instruction inst = Find("rodata_and_lists", CoreOp::kConstRefRodata);
  const size_t count = module_->image->rodata().size();
  PatchOperand("rodata_and_lists", inst, 0, static_cast<uint32_t>(count));
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("rodata_and_lists", inst.pc),
                          "rodata ordinal " + std::to_string(count) + " out of range"}));
}

TEST_F(BrokenBytecodeTest, TypeIds) {
  const Instruction alloc = Find("rodata_and_lists", CoreOp::kListAlloc);
  const size_t count = module_->types.size();
  PatchOperand("rodata_and_lists", alloc, 0, static_cast<uint32_t>(count));
  EXPECT_TRUE(IsRejected(
      Verify(), StatusCode::kInvalidArgument,
      {Where("rodata_and_lists", alloc.pc), "type " + std::to_string(count) + " out of range"}));
  // list.alloc takes any element type, a value type included.
  uint32_t i32_type = 0;
  while (module_->image->type_names()[i32_type] != "i32") ++i32_type;
  PatchOperand("rodata_and_lists", alloc, 0, i32_type);
  EXPECT_TRUE(Verify().ok());
  // A ref operation does not.
  const Instruction get = Find("rodata_and_lists", CoreOp::kListGetRef);
  PatchOperand("rodata_and_lists", get, 2, i32_type);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("rodata_and_lists", get.pc), "('i32') is not a ref type"}));
}

TEST_F(BrokenBytecodeTest, ExtensionOpWithoutFeatureBit) {
  EditDescriptor("float_ops", [](fb::FunctionDescriptor* d) {
    d->mutate_requirements(
        static_cast<fb::FeatureBits>(static_cast<uint32_t>(d->requirements()) & ~kFeatureExtF32));
  });
  const Instruction first =
      Find("float_ops", OpSet::kExtF32, static_cast<uint8_t>(ExtF32Op::kErfF32));
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument,
                         {Where("float_ops", first.pc), "does not require EXT_F32"}));
  EditDescriptor("float_ops", [](fb::FunctionDescriptor* d) {
    d->mutate_requirements(static_cast<fb::FeatureBits>(kFeatureExtF32));
  });
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument, {"does not require EXT_F64"}));
}

TEST_F(BrokenBytecodeTest, ArgumentsMustFitRegisters) {
  // direct_globals(i32, i64, f32, f64, ref) needs i0, i2:3, i4, i6:7 and r0.
  EditDescriptor("direct_globals",
                 [](fb::FunctionDescriptor* d) { d->mutate_i32_register_count(7); });
  EXPECT_TRUE(
      IsRejected(Verify(), StatusCode::kInvalidArgument,
                 {Where("direct_globals", 0), "need 8 i32 and 1 ref registers", "has 7 and 1"}));
}

TEST_F(BrokenBytecodeTest, RemapBanks) {
  const Instruction table = Find("branch_table", CoreOp::kBranchTable);
  const OperandValue& remap = table.operands[2];  // default target's (i2 -> i6, i3 -> i7)
  ASSERT_EQ(remap.count, 2u);
  Put16("branch_table", remap.offset, kRegisterRefBit);
  EXPECT_TRUE(IsRejected(
      Verify(), StatusCode::kInvalidArgument,
      {Where("branch_table", table.pc), "branch argument 0 copies between register banks"}));
  Put16("branch_table", remap.offset, 2);
  Put16("branch_table", remap.offset + 2, 100);
  EXPECT_TRUE(IsRejected(Verify(), StatusCode::kInvalidArgument, {"register i100 out of range"}));
}

// ---------------------------------------------------------------------------------------------
// Imports declared without a cconv: synthetic modules (the compiler always writes one).

struct SyntheticFunction {
  std::vector<uint8_t> code;
  std::string cconv = "0v_v";
  uint16_t blocks = 1, i32s = 0, refs = 0;
};

std::vector<uint8_t> BuildModule(const std::vector<SyntheticFunction>& functions,
                                 const std::vector<std::string>& import_cconvs) {
  flatbuffers::FlatBufferBuilder builder;
  std::vector<flatbuffers::Offset<fb::ImportFunctionDef>> imports;
  for (size_t i = 0; i < import_cconvs.size(); ++i) {
    imports.push_back(fb::CreateImportFunctionDef(
        builder, builder.CreateString("native.f" + std::to_string(i)),
        fb::CreateFunctionSignatureDef(builder, builder.CreateString(import_cconvs[i]))));
  }
  std::vector<flatbuffers::Offset<fb::FunctionSignatureDef>> signatures;
  std::vector<fb::FunctionDescriptor> descriptors;
  std::vector<uint8_t> bytecode;
  for (const SyntheticFunction& f : functions) {
    signatures.push_back(fb::CreateFunctionSignatureDef(builder, builder.CreateString(f.cconv)));
    descriptors.emplace_back(static_cast<int32_t>(bytecode.size()),
                             static_cast<int32_t>(f.code.size()), fb::FeatureBits::NONE, 0,
                             f.blocks, f.i32s, f.refs);
    bytecode.insert(bytecode.end(), f.code.begin(), f.code.end());
    bytecode.resize((bytecode.size() + 7) & ~size_t{7}, 0);
  }
  std::vector<flatbuffers::Offset<fb::ExportFunctionDef>> exports = {
      fb::CreateExportFunctionDef(builder, builder.CreateString("main"), 0)};
  auto root = fb::CreateBytecodeModuleDef(
      builder, builder.CreateString("synthetic"), 0, fb::FeatureBits::NONE, 0, 0, 0,
      builder.CreateVector(imports), builder.CreateVector(exports),
      builder.CreateVector(signatures), 0, 0, 0, builder.CreateVectorOfStructs(descriptors),
      17u << 16, builder.CreateVector(bytecode));
  builder.FinishSizePrefixed(root, fb::BytecodeModuleDefIdentifier());
  return std::vector<uint8_t>(builder.GetBufferPointer(),
                              builder.GetBufferPointer() + builder.GetSize());
}

// main(i32, i64) calls import 0 with (%i0, %i2) and takes one result into %i4, then returns.
std::vector<uint8_t> CallImportCode(uint16_t second_argument) {
  std::vector<uint8_t> code = {0x79, static_cast<uint8_t>(CoreOp::kCall), 0, 0, 0, 0x80};
  // pc 6: argument list (even pc), pc 12: result list, pc 16: return [] at pc 16 → list at 18.
  code.insert(code.end(), {2, 0, 0, 0, static_cast<uint8_t>(second_argument & 0xFF),
                           static_cast<uint8_t>(second_argument >> 8), 1, 0, 4, 0});
  code.insert(code.end(), {static_cast<uint8_t>(CoreOp::kReturn), 0, 0, 0});
  return code;
}

TEST(VerifierImportTest, UndeclaredImportCconvIsCheckedAfterResolution) {
  for (uint16_t second : {uint16_t{2}, uint16_t{3}}) {
    SCOPED_TRACE(second);
    LoadedModule module;
    module.bytes = BuildModule({{CallImportCode(second), "0iI_v", 1, 6, 0}}, {""});
    ASSERT_TRUE(module.Reparse());
    // Without a declared cconv only ranges and banks are known: both variants pass.
    ASSERT_TRUE(VerifyModule(*module.image, module.types).ok());
    std::string_view resolved[] = {"0iI_i"};
    base::Status status = VerifyImportCallSites(*module.image, resolved);
    if (second == 2) {
      EXPECT_TRUE(status.ok()) << status.ToString();
    } else {
      EXPECT_TRUE(IsRejected(
          status, StatusCode::kInvalidArgument,
          {"function 'main' (ordinal 0) pc 1: argument 1 (i64): 64-bit register i3 is odd"}));
    }
    std::string_view wrong_arity[] = {"0i_i"};
    EXPECT_TRUE(IsRejected(VerifyImportCallSites(*module.image, wrong_arity),
                           StatusCode::kInvalidArgument, {"argument list has 2 registers"}));
    std::string_view unresolved[] = {""};
    EXPECT_TRUE(VerifyImportCallSites(*module.image, unresolved).ok());
    EXPECT_TRUE(IsRejected(VerifyImportCallSites(*module.image, {}), StatusCode::kInvalidArgument,
                           {"given 0 resolved cconvs for 1 imports"}));
  }
  // Ranges are still enforced without a cconv.
  LoadedModule module;
  module.bytes = BuildModule({{CallImportCode(6), "0iI_v", 1, 6, 0}}, {""});
  ASSERT_TRUE(module.Reparse());
  EXPECT_TRUE(IsRejected(VerifyModule(*module.image, module.types), StatusCode::kInvalidArgument,
                         {"register i6 out of range (6 i32 registers)"}));
  // With a declared cconv, VerifyModule checks the call site itself.
  module.bytes = BuildModule({{CallImportCode(3), "0iI_v", 1, 6, 0}}, {"0iI_i"});
  ASSERT_TRUE(module.Reparse());
  EXPECT_TRUE(IsRejected(VerifyModule(*module.image, module.types), StatusCode::kInvalidArgument,
                         {"is odd"}));
  // A resolved cconv equal to the declared one needs nothing more; a different one is checked.
  module.bytes = BuildModule({{CallImportCode(2), "0iI_v", 1, 6, 0}}, {"0iI_i"});
  ASSERT_TRUE(module.Reparse());
  ASSERT_TRUE(VerifyModule(*module.image, module.types).ok());
  std::string_view same[] = {"0iI_i"};
  EXPECT_TRUE(VerifyImportCallSites(*module.image, same).ok());
  std::string_view different[] = {"0ir_i"};
  EXPECT_TRUE(IsRejected(VerifyImportCallSites(*module.image, different),
                         StatusCode::kInvalidArgument,
                         {"argument 1 (ref): i32-bank register i2 where a ref register"}));
}

TEST(VerifierImportTest, FunctionCconvRules) {
  LoadedModule module;
  const std::vector<uint8_t> ret = {0x79, static_cast<uint8_t>(CoreOp::kReturn), 0, 0};
  module.bytes = BuildModule({{ret, "0CiD_v", 1, 4, 0}}, {});
  ASSERT_TRUE(module.Reparse());
  EXPECT_TRUE(IsRejected(
      VerifyModule(*module.image, module.types), StatusCode::kInvalidArgument,
      {"function 'main' (ordinal 0) pc 0: calling convention '0CiD_v' has variadic spans"}));
  module.bytes = BuildModule({{ret, "0q_v", 1, 4, 0}}, {});
  ASSERT_TRUE(module.Reparse());
  EXPECT_TRUE(IsRejected(VerifyModule(*module.image, module.types), StatusCode::kInvalidArgument,
                         {"bad calling convention"}));
  // Returning nothing from a function that promises an i32.
  module.bytes = BuildModule({{ret, "0v_i", 1, 0, 0}}, {});
  ASSERT_TRUE(module.Reparse());
  EXPECT_TRUE(IsRejected(VerifyModule(*module.image, module.types), StatusCode::kInvalidArgument,
                         {"pc 1: result list has 0 registers but the calling convention has 1"}));
  module.bytes = BuildModule({{ret, "", 1, 0, 0}}, {});
  ASSERT_TRUE(module.Reparse());
  EXPECT_TRUE(VerifyModule(*module.image, module.types).ok());
}

// ---------------------------------------------------------------------------------------------
// Random mutations: the verifier (and the disassembler) must never crash or read outside the
// function, whatever the bytes. Under ASan the bytes around the function are poisoned.

TEST(VerifierFuzzTest, RandomMutationsNeverCrash) {
  std::mt19937 rng(0x5EED1234u);
  int total = 0, accepted = 0;
  for (const char* name : testing::kVerifierModules) {
    auto module = LoadVerifierModule(name);
    ASSERT_TRUE(module);
    const ModuleImage& image = *module->image;
    const int iterations = std::string_view(name) == "vm_ops" ? 12000 : 4000;
    for (int n = 0; n < iterations; ++n) {
      const uint32_t f = std::uniform_int_distribution<uint32_t>(
          0, static_cast<uint32_t>(image.functions().size() - 1))(rng);
      const auto code = image.functions()[f].bytecode;
      uint8_t* base = module->bytes.data() + module->FileOffset(f, 0);
      const std::vector<uint8_t> saved(base, base + code.size());
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits; ++e) {
        const size_t at = rng() % code.size();
        switch (rng() % 5) {
          case 0:
            base[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
            break;
          case 1:
            base[at] = static_cast<uint8_t>(rng());
            break;
          case 2: {
            static const uint8_t kInteresting[] = {0x00, 0x01, 0x79, 0x80, 0xC0,
                                                   0xE0, 0xE1, 0xFF, 0x7F, 0x40};
            base[at] = kInteresting[rng() % sizeof(kInteresting)];
            break;
          }
          case 3:
            if (at + 1 < code.size()) {
              base[at] = static_cast<uint8_t>(rng());
              base[at + 1] = static_cast<uint8_t>(rng() & 0xC0);
            }
            break;
          default:
            base[at] += static_cast<uint8_t>(1 + rng() % 4);
            break;
        }
      }
#if defined(RT_TEST_ASAN)
      const uintptr_t end = reinterpret_cast<uintptr_t>(base + code.size());
      ASAN_POISON_MEMORY_REGION(reinterpret_cast<void*>(end), 32);
#endif
      base::Status status = VerifyFunction(image, module->types, f);
      const std::string listing = Disassemble(image, f);
#if defined(RT_TEST_ASAN)
      ASAN_UNPOISON_MEMORY_REGION(reinterpret_cast<void*>(end), 32);
#endif
      if (status.ok()) {
        ++accepted;
      } else {
        ASSERT_TRUE(status.code() == StatusCode::kInvalidArgument ||
                    status.code() == StatusCode::kOutOfRange)
            << status.ToString();
        ASSERT_NE(status.message().find(" pc "), std::string_view::npos) << status.ToString();
      }
      EXPECT_FALSE(listing.empty());
      std::memcpy(base, saved.data(), saved.size());
      ++total;
    }
    EXPECT_TRUE(VerifyModule(image, module->types).ok());
  }
  RecordProperty("mutations", total);
  RecordProperty("accepted", accepted);
  std::printf("%d mutations, %d still verified\n", total, accepted);
}

// Exact-size heap copies of mutated functions: the decoder alone, with ASan watching the end.
TEST(VerifierFuzzTest, DecoderStaysInBounds) {
  std::mt19937 rng(42);
  auto module = LoadVerifierModule("vm_ops");
  ASSERT_TRUE(module);
  for (int n = 0; n < 20000; ++n) {
    const auto& functions = module->image->functions();
    const auto original = functions[rng() % functions.size()].bytecode;
    const size_t length = 1 + rng() % original.size();  // also truncated prefixes
    std::vector<uint8_t> code(original.begin(), original.begin() + length);
    code[rng() % length] = static_cast<uint8_t>(rng());
    Instruction inst;
    uint32_t error_pc = 0;
    for (uint32_t pc = 0; pc < code.size(); pc = inst.next_pc) {
      if (DecodeInstruction(code, pc, &inst, &error_pc) != DecodeError::kNone) break;
      ASSERT_GT(inst.next_pc, pc);
      ASSERT_LE(inst.next_pc, code.size());
      (void)FormatInstruction(*module->image, code, inst);
    }
  }
}

// ---------------------------------------------------------------------------------------------

TEST(VerifierSpeedTest, LargeModule) {
  auto module = LoadVerifierModule("large");
  ASSERT_TRUE(module);
  size_t bytecode_bytes = 0;
  for (const FunctionInfo& f : module->image->functions()) bytecode_bytes += f.bytecode.size();
  ASSERT_GT(bytecode_bytes, 1000000u);
  const int rounds = 5;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < rounds; ++i) {
    base::Status status = VerifyModule(*module->image, module->types);
    ASSERT_TRUE(status.ok()) << status.ToString();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double mb_per_second = rounds * bytecode_bytes / seconds / 1e6;
  std::printf("verified %zu functions, %zu bytes of bytecode: %.1f MB/s\n",
              module->image->functions().size(), bytecode_bytes, mb_per_second);
  RecordProperty("bytecode_bytes", static_cast<int>(bytecode_bytes));
  RecordProperty("mb_per_second", static_cast<int>(mb_per_second));
  // The throughput is reported, not asserted: speed goals live in benchmarks, and a bound here
  // failed on a machine loaded by parallel builds.
}

}  // namespace
}  // namespace iree_rt::vm::bytecode
