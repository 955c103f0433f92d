// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The disassembler against iree-compile's own view of the same functions: for every function
// of the verifier's test modules the mnemonics must be exactly the op sequence of the
// compiler's annotated VM IR (which also checks ops.def's operand layouts: one wrong field
// size derails every following instruction), plus exact listings of small functions.
#include "vm/bytecode/disassembler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "verifier_test_util.h"

namespace iree_rt::vm::bytecode {
namespace {

using testing::LoadVerifierModule;

struct AnnotatedFunction {
  std::string name;
  std::vector<std::string> ops;  // "block" for each block, then op names without "vm."
  // Per entry of |ops|: the compiler's operand_registers then result_registers ("i4+5" for a
  // 64-bit pair, "R0" for a ref register with MOVE), empty for blocks.
  std::vector<std::vector<std::string>> registers;
};

std::vector<std::string> RegisterAttr(const std::string& line, const char* attr) {
  std::vector<std::string> out;
  const size_t start = line.find(std::string(attr) + " = [");
  if (start == std::string::npos) return out;
  const size_t begin = line.find('[', start) + 1;
  const std::string list = line.substr(begin, line.find(']', begin) - begin);
  static const std::regex kItem(R"re("([^"]+)")re");
  for (auto it = std::sregex_iterator(list.begin(), list.end(), kItem);
       it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

// Reads the op sequence of every vm.func from annotated VM IR, in order (= internal ordinal).
std::vector<AnnotatedFunction> ReadAnnotated(const std::string& path) {
  const std::vector<uint8_t> bytes = testing::ReadBytes(path);
  std::istringstream text(std::string(bytes.begin(), bytes.end()));
  static const std::regex kFunc(R"(^\s*vm\.func (?:private )?@([\w$.]+)\()");
  static const std::regex kBlock(R"(^\s*\^bb\d+)");
  static const std::regex kOp(R"(^\s*(?:%[-\w#:, %]+ = )?"?vm\.([\w.]+))");
  std::vector<AnnotatedFunction> functions;
  bool in_function = false;
  std::string line;
  std::smatch match;
  while (std::getline(text, line)) {
    if (std::regex_search(line, match, kFunc) && line.back() == '{') {
      functions.push_back({match[1], {"block"}, {{}}});
      in_function = true;
    } else if (!in_function) {
      continue;
    } else if (line == "  }") {
      in_function = false;
    } else if (std::regex_search(line, kBlock)) {
      functions.back().ops.push_back("block");
      functions.back().registers.push_back({});
    } else if (std::regex_search(line, match, kOp)) {
      std::string op = match[1];
      // Encoded as assign.ref; an empty discard.refs is not encoded at all.
      if (op == "cast.ref.any") op = "assign.ref";
      if (op == "discard.refs" && line.find("vm.discard.refs %") == std::string::npos) continue;
      functions.back().ops.push_back(op);
      std::vector<std::string> registers = RegisterAttr(line, "operand_registers");
      for (std::string& r : RegisterAttr(line, "result_registers")) registers.push_back(r);
      functions.back().registers.push_back(std::move(registers));
    }
  }
  return functions;
}

// The mnemonic of each line of a listing ("12: add.i32 %i0, ..." → "add.i32").
std::vector<std::string> Mnemonics(const std::string& listing) {
  std::vector<std::string> out;
  std::istringstream lines(listing);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t start = line.find(": ") + 2;
    out.push_back(line.substr(start, line.find(' ', start) - start));
  }
  return out;
}

TEST(DisassemblerTest, MatchesCompilerAnnotatedIr) {
  for (const char* name : testing::kVerifierModules) {
    SCOPED_TRACE(name);
    auto module = LoadVerifierModule(name);
    ASSERT_TRUE(module);
    const auto annotated = ReadAnnotated(testing::VerifierModulePath(name, ".annotated.mlir"));
    ASSERT_EQ(annotated.size(), module->image->functions().size());
    for (uint32_t i = 0; i < annotated.size(); ++i) {
      SCOPED_TRACE(annotated[i].name);
      const std::string listing = Disassemble(*module->image, i);
      EXPECT_EQ(Mnemonics(listing), annotated[i].ops) << listing;
      EXPECT_EQ(listing.find(": <"), std::string::npos) << listing;
    }
  }
}

// The registers of each instruction as encoded, spelled like the annotated IR, sorted. Branch
// arguments are left out (the annotated IR lists the successor operands, not the remap), and
// so are the results of yieldable calls (they are the successor block's arguments there).
std::vector<std::string> EncodedRegisters(std::span<const uint8_t> code, const Instruction& inst) {
  std::vector<std::string> out;
  auto add = [&](uint16_t raw, uint8_t width) {
    if (raw & kRegisterRefBit) {
      out.push_back(((raw & kRegisterMoveBit) ? "R" : "r") + std::to_string(raw & kRefOrdinalMask));
    } else {
      out.push_back("i" + std::to_string(raw) + (width == 2 ? "+" + std::to_string(raw + 1) : ""));
    }
  };
  const bool yieldable = inst.set == OpSet::kCore &&
                         (inst.opcode == static_cast<uint8_t>(CoreOp::kCallYieldable) ||
                          inst.opcode == static_cast<uint8_t>(CoreOp::kCallVariadicYieldable));
  for (int i = 0; i < inst.spec->operand_count; ++i) {
    const OperandSpec& op = inst.spec->operands[i];
    const OperandValue& value = inst.operands[i];
    if (op.kind == OperandKind::kRegister) add(static_cast<uint16_t>(value.value), op.width);
    if (op.kind != OperandKind::kRegisterList || (yieldable && op.write)) continue;
    for (uint32_t e = 0; e < value.count; ++e) add(ReadU16(code, value.offset + 2 * e), op.width);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool IsBranch(const Instruction& inst) {
  if (inst.set != OpSet::kCore) return false;
  switch (static_cast<CoreOp>(inst.opcode)) {
    case CoreOp::kBranch:
    case CoreOp::kCondBranch:
    case CoreOp::kBranchTable:
    case CoreOp::kYield:
    case CoreOp::kBreak:
    case CoreOp::kCondBreak:
      return true;
    default:
      return false;
  }
}

// Field order: every register field decodes to the register the compiler allocated for it.
TEST(DisassemblerTest, RegistersMatchCompilerAllocation) {
  int compared = 0;
  for (const char* name : testing::kVerifierModules) {
    SCOPED_TRACE(name);
    auto module = LoadVerifierModule(name);
    ASSERT_TRUE(module);
    const auto annotated = ReadAnnotated(testing::VerifierModulePath(name, ".annotated.mlir"));
    ASSERT_EQ(annotated.size(), module->image->functions().size());
    for (uint32_t f = 0; f < annotated.size(); ++f) {
      SCOPED_TRACE(annotated[f].name);
      const auto code = module->image->functions()[f].bytecode;
      Instruction inst;
      uint32_t error_pc;
      size_t index = 0;
      for (uint32_t pc = 0; pc < code.size(); pc = inst.next_pc, ++index) {
        ASSERT_EQ(DecodeInstruction(code, pc, &inst, &error_pc), DecodeError::kNone);
        ASSERT_LT(index, annotated[f].registers.size());
        if (IsBranch(inst)) continue;
        std::vector<std::string> expected = annotated[f].registers[index];
        const bool any_list = std::any_of(
            inst.spec->operands.begin(), inst.spec->operands.begin() + inst.spec->operand_count,
            [](const OperandSpec& op) { return op.bank == Bank::kAny; });
        for (std::string& r : expected) {
          // Mixed lists have no widths: an i64 is encoded by its first register only.
          if (any_list) r = r.substr(0, r.find('+'));
          // iree-compile 3.13.0 allocates switch.ref's last-use values as moves but encodes
          // them without the MOVE bit.
          if (inst.spec->mnemonic == "switch.ref" && r[0] == 'R') r[0] = 'r';
        }
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(EncodedRegisters(code, inst), expected)
            << "pc " << pc << ": " << FormatInstruction(*module->image, code, inst);
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 400);
}

// Checked by eye against the annotated IR of debug_ops in vm_ops.mlir:
//   vm.trace / vm.print / vm.discard.refs / vm.cond_break ^bb1 / ^bb1: vm.break ^bb2 /
//   ^bb2: vm.trunc.i64.i32 / vm.return.
TEST(DisassemblerTest, DebugOpsSequence) {
  auto module = LoadVerifierModule("vm_ops");
  ASSERT_TRUE(module);
  const std::string listing = Disassemble(*module->image, module->Function("debug_ops"));
  const std::vector<std::string> expected = {"block",         "trace", "print", "discard.refs",
                                             "cond_break",    "block", "break", "block",
                                             "trunc.i64.i32", "return"};
  EXPECT_EQ(Mnemonics(listing), expected) << listing;
}

// The annotated IR gives these registers (arg0 i0, arg1 i2+3, arg2 i4+5, the br_table's
// default and case 1 pass i64 values into ^bb1's i6+7 as two 32-bit copies each).
TEST(DisassemblerTest, BranchTableListing) {
  auto module = LoadVerifierModule("vm_ops");
  ASSERT_TRUE(module);
  EXPECT_EQ(
      Disassemble(*module->image, module->Function("branch_table")),
      "0: block\n"
      "1: const.i32 3 -> %i1\n"
      "8: br_table %i0, ^54(%i2 -> %i6, %i3 -> %i7), [^60, ^54(%i4 -> %i6, %i5 -> %i7), ^84]\n"
      "54: block\n"
      "55: return [%i6]\n"
      "60: block\n"
      "61: add.i64 %i4:5, %i2:3 -> %i2:3\n"
      "68: br ^54(%i2 -> %i6, %i3 -> %i7)\n"
      "84: block\n"
      "85: fail %i1, \"unreachable case\"\n");
}

TEST(DisassemblerTest, CallsGlobalsAndTypes) {
  auto module = LoadVerifierModule("vm_ops");
  ASSERT_TRUE(module);
  const std::string imports = Disassemble(*module->image, module->Function("imports"));
  EXPECT_NE(imports.find("1: call @native.scalar, [%i0, %i2] -> [%i4, %i1]\n"), std::string::npos)
      << imports;
  EXPECT_NE(imports.find("call.variadic @native.spans, segments[_, 3, 2], [%i0, %r0, %r1(move), "
                         "%r0(move), %i0, %i2, %i0, %i4] -> [%i0]"),
            std::string::npos)
      << imports;
  EXPECT_NE(imports.find("import.resolved @native.maybe -> %i2"), std::string::npos) << imports;

  const std::string globals = Disassemble(*module->image, module->Function("direct_globals"));
  EXPECT_NE(globals.find("global.store.i64 @global[8], %i2:3"), std::string::npos) << globals;
  EXPECT_NE(globals.find("global.store.ref @ref_global[0], !vm.buffer, %r0(move)"),
            std::string::npos)
      << globals;

  const std::string calls = Disassemble(*module->image, module->Function("internal_calls"));
  EXPECT_NE(calls.find("call @internal_callee, [%i0, %i2, %i4, %i6, %r0(move)] -> "
                       "[%i6, %r0, %i2, %i0]"),
            std::string::npos)
      << calls;

  const std::string yielding = Disassemble(*module->image, module->Function("yielding"));
  EXPECT_NE(yielding.find("1: call.yieldable @native.wait, [%i0], ^18 -> [%i1]"), std::string::npos)
      << yielding;
}

TEST(DisassemblerTest, ImmediatesAndStrings) {
  auto module = LoadVerifierModule("vm_ops");
  ASSERT_TRUE(module);
  const std::string listing = Disassemble(*module->image, module->Function("rodata_and_lists"));
  EXPECT_NE(listing.find("const.i64 8 -> %i2:3"), std::string::npos) << listing;
  EXPECT_NE(listing.find("const.ref.rodata @rodata[0] -> %r0"), std::string::npos) << listing;
  EXPECT_NE(listing.find("list.alloc !vm.opaque, %i0 -> %r2"), std::string::npos) << listing;
  const std::string debug = Disassemble(*module->image, module->Function("debug_ops"));
  EXPECT_NE(debug.find("trace \"trace_event\", [%i0, %i2, %r0]"), std::string::npos) << debug;
}

TEST(DisassemblerTest, StopsAtBytesThatDoNotDecode) {
  auto module = LoadVerifierModule("vm_ops");
  ASSERT_TRUE(module);
  const uint32_t f = module->Function("internal_callee");  // block; return [...]
  EXPECT_EQ(Disassemble(*module->image, 9999), "");
  uint8_t* code = module->bytes.data() + module->FileOffset(f, 0);
  code[1] = 0xDF;
  EXPECT_EQ(Disassemble(*module->image, f), "0: block\n1: <unknown opcode 0xDF>\n");
  code[1] = 0xE1;
  code[2] = 0x70;
  EXPECT_EQ(Disassemble(*module->image, f), "0: block\n1: <unknown opcode 0x70 (extension set)>\n");
  code[1] = static_cast<uint8_t>(CoreOp::kBufferCompare);  // 13 bytes; only 11 are left
  EXPECT_EQ(Disassemble(*module->image, f), "0: block\n1: <truncated buffer.compare>\n");
}

}  // namespace
}  // namespace iree_rt::vm::bytecode
