// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The bad-module corpus, VM part: real modules compiled by iree-compile, broken one field at a
// time. Each broken module must fail BytecodeModule::Load (archive, FlatBuffer, load-time checks,
// type resolution, bytecode verifier) with a message that names what is wrong; none may crash
// (this test also runs under ASan+UBSan).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bad_modules_util.h"
#include "vm/bytecode/archive.h"
#include "vm/bytecode/bytecode_reader.h"
#include "vm/bytecode/module_image.h"
#include "vm/cconv.h"

namespace iree_rt::bad_modules {
namespace {

using base::StatusCode;
using vm::bytecode::Bank;
using vm::bytecode::CoreOp;
using vm::bytecode::DecodeError;
using vm::bytecode::Instruction;
using vm::bytecode::ModuleImage;
using vm::bytecode::OperandKind;
using vm::bytecode::OpSet;

// Both layouts, hand-written VM IR and full pipelines; tensor_program imports hal functions.
const char* const kModules[] = {
    "vm/rt_vm_scalar.vmfb",
    "vm/rt_vm_vm_features.vmfb",
    "vm/rt_vm_big_constant_plain.vmfb",
    "vm/rt_vm_locations_plain.vmfb",
    "vm/programs/rt_vm_prog_vm_calls.vmfb",
    "vm/programs/rt_vm_prog_vm_ops.vmfb",
    "vm/programs/rt_vm_prog_f64_math.vmfb",
    "vm/verifier/rt_vm_verifier_control_flow.vmfb",
    "vm/verifier/rt_vm_verifier_lists_globals.vmfb",
    "vm/verifier/rt_vm_verifier_tensor_program.vmfb",
};

// At most this many cases per module and category (the operand categories would otherwise
// repeat the same check thousands of times on the larger modules).
constexpr int kMaxCasesPerModule = 400;

class BadModuleTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    module_ = ReadTestFile(GetParam());
    ASSERT_FALSE(module_.empty());
    base::Status status = LoadModule(module_);
    ASSERT_TRUE(status.ok()) << GetParam() << ": " << status.ToString();
    auto image = ModuleImage::Parse(module_, vm::bytecode::kFeatureAll);
    ASSERT_TRUE(image.ok());
    image_ = std::move(image).value();
  }
  std::string What(const std::string& detail) const {
    return std::string(GetParam()) + ": " + detail;
  }
  size_t FilePos(const uint8_t* p) const { return static_cast<size_t>(p - image_->bytes().data()); }

  // Calls |fn(function ordinal, code, instruction)| for every instruction of every function.
  template <typename Fn>
  void ForEachInstruction(Fn fn) const {
    for (uint32_t f = 0; f < image_->functions().size(); ++f) {
      std::span<const uint8_t> code = image_->functions()[f].bytecode;
      for (uint32_t pc = 0; pc < code.size();) {
        Instruction inst;
        uint32_t error_pc = 0;
        ASSERT_EQ(vm::bytecode::DecodeInstruction(code, pc, &inst, &error_pc), DecodeError::kNone);
        fn(f, code, inst);
        pc = inst.next_pc;
      }
    }
  }

  // File positions of the fixed-width operand fields that precede the first variable-width one
  // (lists, strings, remaps, cases): -1 for the others.
  std::vector<long> OperandPositions(std::span<const uint8_t> code, const Instruction& inst) const {
    std::vector<long> positions(inst.spec->operand_count, -1);
    size_t pos = FilePos(code.data()) + inst.pc + (inst.set == OpSet::kCore ? 1 : 2);
    for (int i = 0; i < inst.spec->operand_count; ++i) {
      size_t width = 0;
      switch (inst.spec->operands[i].kind) {
        case OperandKind::kRegister:
          width = 2;
          break;
        case OperandKind::kImmediate64:
          width = 8;
          break;
        case OperandKind::kImmediate32:
        case OperandKind::kGlobal:
        case OperandKind::kFunction:
        case OperandKind::kRodata:
        case OperandKind::kType:
        case OperandKind::kBranchTarget:
          width = 4;
          break;
        case OperandKind::kCaseCount:
          width = 2;
          break;
        default:
          return positions;
      }
      positions[i] = static_cast<long>(pos);
      pos += width;
    }
    return positions;
  }

  std::vector<uint8_t> module_;
  std::unique_ptr<ModuleImage> image_;
};

// Every prefix that cuts into the FlatBuffer or the external rodata (ZIP files may lose their
// central directory, which is never read).
TEST_P(BadModuleTest, Truncated) {
  auto layout = vm::bytecode::ParseArchive(module_);
  ASSERT_TRUE(layout.ok());
  size_t needed = layout->prefix_offset + layout->size_prefixed_flatbuffer.size();
  for (std::span<const uint8_t> segment : image_->rodata()) {
    needed = std::max(needed, FilePos(segment.data()) + segment.size());
  }
  const size_t stride = needed > 4096 ? needed / 1024 : 1;
  for (size_t size = 0; size < needed; size += (size + stride < needed ? stride : 1)) {
    std::vector<uint8_t> prefix(module_.begin(), module_.begin() + size);
    ExpectRejected(LoadModule(prefix), "truncated",
                   {"module file is", "module contents", "ZIP local file header",
                    "FlatBuffer size prefix", "rodata segment"},
                   What("truncated to " + std::to_string(size)), StatusCode::kInvalidArgument);
  }
}

// Every FlatBuffer offset and every vector/string length pointed out of the buffer, twice: far
// away and just past the end. The message names the module table field that contains it.
TEST_P(BadModuleTest, FlatBufferOffsetsAndLengths) {
  auto layout = vm::bytecode::ParseArchive(module_);
  ASSERT_TRUE(layout.ok());
  const size_t flatbuffer_end = layout->prefix_offset + layout->size_prefixed_flatbuffer.size();
  const std::vector<FlatBufferSlot> slots = CollectFlatBufferSlots(module_);
  ASSERT_GT(slots.size(), 5u);
  // Strings and tables may be shared: a corrupted target fails the first field that reaches it.
  std::map<size_t, std::set<std::string>> owners;
  for (const FlatBufferSlot& slot : slots) {
    if (slot.kind == FlatBufferSlot::kLength) owners[slot.pos].insert(slot.root_field);
  }
  for (const FlatBufferSlot& slot : slots) {
    const uint32_t original = ReadAt<uint32_t>(module_, slot.pos);
    const uint32_t just_past = static_cast<uint32_t>(flatbuffer_end - slot.pos);
    for (uint32_t value : {0x7FFFFFF0u, just_past}) {
      if (value == original) continue;
      std::vector<uint8_t> broken = module_;
      WriteAt<uint32_t>(broken, slot.pos, value);
      const base::Status status = LoadModule(broken);
      const char* category = slot.kind == FlatBufferSlot::kOffset
                                 ? "flatbuffer offset out of range"
                                 : "flatbuffer length out of range";
      std::set<std::string> fields = {slot.root_field};
      if (slot.kind == FlatBufferSlot::kLength) fields = owners[slot.pos];
      bool named = false;
      for (const std::string& field : fields) {
        named |= status.message().find("first bad: field '" + field + "'") != std::string::npos;
      }
      ExpectRejected(status, category, {"failed structural verification"},
                     What(slot.path + " = " + std::to_string(value)), StatusCode::kInvalidArgument);
      EXPECT_TRUE(status.ok() || named)
          << What(slot.path) << ": the message names another field: " << status.ToString();
    }
  }
}

// Load-time checks on values: ordinals, descriptors, versions, features, names, module state.
TEST_P(BadModuleTest, TablesOutOfRange) {
  const size_t root = ModuleRootPos(module_);
  const uint32_t function_count = static_cast<uint32_t>(image_->functions().size());
  auto expect = [&](size_t pos, auto value, std::initializer_list<std::string_view> substrings,
                    const std::string& what, base::StatusCode code = base::StatusCode::kOk) {
    ASSERT_NE(pos, 0u) << what;
    std::vector<uint8_t> broken = module_;
    WriteAt(broken, pos, value);
    ExpectRejected(LoadModule(broken), "table value out of range", substrings, What(what), code);
  };
  uint32_t count = 0;
  size_t elements = VectorElementsPos(module_, root, 18, &count);  // exported_functions
  for (uint32_t i = 0; i < count; ++i) {
    const size_t table = elements + 4 * i + ReadAt<uint32_t>(module_, elements + 4 * i);
    const size_t ordinal = TableFieldPos(module_, table, 6);  // internal_ordinal
    if (ordinal == 0) continue;                               // default 0 is not stored
    expect(ordinal, function_count, {"refers to internal function"}, "export ordinal = count");
    expect(ordinal, int32_t{-1}, {"refers to internal function"}, "export ordinal = -1");
  }
  elements = VectorElementsPos(module_, root, 28, &count);  // function_descriptors (20 bytes)
  for (uint32_t i = 0; i < count; ++i) {
    const size_t d = elements + 20 * i;
    const std::string f = "function " + std::to_string(i);
    expect(d + 0, int32_t{0x7FFFFFF0}, {"bytecode (offset"}, f + " bytecode_offset");
    expect(d + 0, int32_t{-4}, {"bytecode (offset"}, f + " bytecode_offset < 0");
    expect(d + 4, int32_t{0x7FFFFFF0}, {"bytecode (offset"}, f + " bytecode_length");
    expect(d + 4, int32_t{0}, {"bytecode (offset"}, f + " bytecode_length 0");
    expect(d + 8, uint32_t{1u << 20}, {"requires features"}, f + " requirements",
           base::StatusCode::kIncompatible);
    expect(d + 14, int16_t{0}, {"has no blocks"}, f + " block_count 0");
    expect(d + 16, int16_t{-1}, {"registers"}, f + " i32_register_count");
    expect(d + 18, int16_t{-1}, {"registers"}, f + " ref_register_count");
  }
  expect(TableFieldPos(module_, root, 30), uint32_t{18u << 16}, {"bytecode version mismatch"},
         "bytecode_version 18.0", base::StatusCode::kIncompatible);
  expect(TableFieldPos(module_, root, 30), uint32_t{(17u << 16) | 1}, {"bytecode version mismatch"},
         "bytecode_version 17.1", base::StatusCode::kIncompatible);
  if (size_t requirements = TableFieldPos(module_, root, 8)) {
    expect(requirements, uint32_t{1u << 9}, {"requires features"}, "module requirements",
           base::StatusCode::kIncompatible);
  }
  // Rodata stored after the FlatBuffer: offsets past the end of the file.
  elements = VectorElementsPos(module_, root, 22, &count);
  for (uint32_t i = 0; i < count; ++i) {
    const size_t table = elements + 4 * i + ReadAt<uint32_t>(module_, elements + 4 * i);
    if (size_t offset = TableFieldPos(module_, table, 10)) {
      expect(offset, uint64_t{1} << 40, {"rodata segment"}, "rodata external_data_offset");
    }
    if (size_t length = TableFieldPos(module_, table, 12)) {
      expect(length, uint64_t{1} << 40, {"rodata segment"}, "rodata external_data_length");
    }
  }
  // Module state with negative sizes.
  if (size_t state = TableFieldPos(module_, root, 26)) {
    state += ReadAt<uint32_t>(module_, state);
    if (size_t bytes = TableFieldPos(module_, state, 4)) {
      expect(bytes, int32_t{-16}, {"negative sizes"}, "global_bytes_capacity < 0");
    }
    if (size_t refs = TableFieldPos(module_, state, 6)) {
      expect(refs, int32_t{-1}, {"negative sizes"}, "global_ref_count < 0");
    }
  }
  // Import names without a module part, and types no module registers.
  elements = VectorElementsPos(module_, root, 16, &count);
  for (uint32_t i = 0; i < count; ++i) {
    const size_t table = elements + 4 * i + ReadAt<uint32_t>(module_, elements + 4 * i);
    size_t name = TableFieldPos(module_, table, 4);
    name += ReadAt<uint32_t>(module_, name);
    const uint32_t length = ReadAt<uint32_t>(module_, name);
    std::vector<uint8_t> broken = module_;
    std::replace(broken.begin() + name + 4, broken.begin() + name + 4 + length, '.', '_');
    ExpectRejected(LoadModule(broken), "table value out of range", {"import 0", "import"},
                   What("import name without '.'"));
  }
  elements = VectorElementsPos(module_, root, 12, &count);
  for (uint32_t i = 0; i < count; ++i) {
    const size_t table = elements + 4 * i + ReadAt<uint32_t>(module_, elements + 4 * i);
    size_t name = TableFieldPos(module_, table, 4);
    name += ReadAt<uint32_t>(module_, name);
    const uint32_t length = ReadAt<uint32_t>(module_, name);
    if (length < 2 || module_[name + 4] != '!') continue;  // primitive types resolve by spelling
    std::vector<uint8_t> broken = module_;
    broken[name + 4 + length - 1] = '~';
    ExpectRejected(LoadModule(broken), "unknown type", {"~"}, What("type name"),
                   StatusCode::kNotFound);
  }
}

// Register operands out of range, in the wrong bank, and odd for 64-bit values.
TEST_P(BadModuleTest, BadRegisters) {
  int cases = 0;
  ForEachInstruction([&](uint32_t f, std::span<const uint8_t> code, const Instruction& inst) {
    const std::vector<long> positions = OperandPositions(code, inst);
    for (int i = 0; i < inst.spec->operand_count && cases < kMaxCasesPerModule; ++i) {
      const auto& spec = inst.spec->operands[i];
      if (spec.kind != OperandKind::kRegister || positions[i] < 0) continue;
      const uint16_t raw = static_cast<uint16_t>(inst.operands[i].value);
      const bool ref = raw & vm::bytecode::kRegisterRefBit;
      const std::string at = "function " + std::to_string(f) + " pc " + std::to_string(inst.pc);
      std::vector<uint8_t> broken = module_;
      WriteAt<uint16_t>(broken, positions[i], ref ? 0xBFFF : 0x7FFE);
      ExpectRejected(LoadModule(broken), "register out of range", {"out of range"},
                     What(at + " register out of range"), StatusCode::kInvalidArgument);
      ++cases;
      if (spec.bank != Bank::kAny) {
        broken = module_;
        WriteAt<uint16_t>(broken, positions[i], ref ? uint16_t{0} : uint16_t{0x8000});
        ExpectRejected(
            LoadModule(broken), "register in the wrong bank",
            {"register is required", "where a ref register", "i32-bank register", "ref register r"},
            What(at + " register bank"), StatusCode::kInvalidArgument);
      }
      if (!ref && spec.width == 2) {
        broken = module_;
        WriteAt<uint16_t>(broken, positions[i], static_cast<uint16_t>(raw | 1));
        ExpectRejected(LoadModule(broken), "64-bit register odd", {"is odd"},
                       What(at + " odd 64-bit register"), StatusCode::kInvalidArgument);
      }
    }
  });
}

// Branch targets past the end and into the middle of an instruction.
TEST_P(BadModuleTest, BadBranches) {
  int cases = 0;
  ForEachInstruction([&](uint32_t f, std::span<const uint8_t> code, const Instruction& inst) {
    const std::vector<long> positions = OperandPositions(code, inst);
    for (int i = 0; i < inst.spec->operand_count && cases < kMaxCasesPerModule; ++i) {
      if (inst.spec->operands[i].kind != OperandKind::kBranchTarget || positions[i] < 0) continue;
      const std::string at = "function " + std::to_string(f) + " pc " + std::to_string(inst.pc);
      for (uint32_t target : {static_cast<uint32_t>(code.size()) + 16, inst.pc + 1, 0xFFFFFFFFu}) {
        std::vector<uint8_t> broken = module_;
        WriteAt<uint32_t>(broken, positions[i], target);
        ExpectRejected(LoadModule(broken), "branch target", {"branch target pc"},
                       What(at + " branch to " + std::to_string(target)),
                       StatusCode::kInvalidArgument);
        ++cases;
      }
    }
  });
}

// Calls to ordinals out of range, and to functions of another signature.
TEST_P(BadModuleTest, BadCalls) {
  const uint32_t function_count = static_cast<uint32_t>(image_->functions().size());
  const uint32_t import_count = static_cast<uint32_t>(image_->imports().size());
  int cases = 0;
  ForEachInstruction([&](uint32_t f, std::span<const uint8_t> code, const Instruction& inst) {
    const std::vector<long> positions = OperandPositions(code, inst);
    for (int i = 0; i < inst.spec->operand_count && cases < kMaxCasesPerModule; ++i) {
      if (inst.spec->operands[i].kind != OperandKind::kFunction || positions[i] < 0) continue;
      const uint32_t callee = static_cast<uint32_t>(inst.operands[i].value);
      const bool is_import = callee & vm::bytecode::kFunctionImportBit;
      const std::string at = "function " + std::to_string(f) + " pc " + std::to_string(inst.pc);
      std::vector<uint8_t> broken = module_;
      WriteAt<uint32_t>(
          broken, positions[i],
          is_import ? (import_count | vm::bytecode::kFunctionImportBit) : function_count);
      ExpectRejected(LoadModule(broken), "call ordinal out of range",
                     {"import ordinal", "function ordinal", "names internal function"},
                     What(at + " callee out of range"), StatusCode::kInvalidArgument);
      ++cases;
      if (is_import || inst.set != OpSet::kCore ||
          inst.opcode != static_cast<uint8_t>(CoreOp::kCall)) {
        continue;
      }
      // Another internal function whose signature differs in its argument or result types.
      auto shape = [](std::string_view cconv) {
        auto parsed = vm::ParseCconv(cconv);
        std::string text;
        if (!parsed.ok()) return text;
        for (const auto& item : parsed->arguments) text += static_cast<char>('0' + int(item.type));
        text += '_';
        for (vm::ValueType type : parsed->results) text += static_cast<char>('0' + int(type));
        return text;
      };
      const std::string own = shape(image_->functions()[callee].cconv);
      for (uint32_t other = 0; other < function_count; ++other) {
        const std::string theirs = shape(image_->functions()[other].cconv);
        if (theirs == own) continue;
        broken = module_;
        WriteAt<uint32_t>(broken, positions[i], other);
        ExpectRejected(LoadModule(broken), "call signature mismatch",
                       {"calling convention", "register"},
                       What(at + " calls function " + std::to_string(other) + " (" +
                            std::string(image_->functions()[other].cconv) + ")"),
                       StatusCode::kInvalidArgument);
        ++cases;
        break;
      }
    }
  });
}

// Global offsets, rodata ordinals and type ordinals out of range; unknown opcodes.
TEST_P(BadModuleTest, BadOrdinalsAndOpcodes) {
  int cases = 0;
  uint8_t unknown = 0;
  while (vm::bytecode::LookupOp(OpSet::kCore, unknown).valid()) ++unknown;
  ForEachInstruction([&](uint32_t f, std::span<const uint8_t> code, const Instruction& inst) {
    if (cases >= kMaxCasesPerModule) return;
    const std::string at = "function " + std::to_string(f) + " pc " + std::to_string(inst.pc);
    if (inst.set == OpSet::kCore && inst.pc % 7 == 0) {
      std::vector<uint8_t> broken = module_;
      broken[FilePos(code.data()) + inst.pc] = unknown;
      ExpectRejected(LoadModule(broken), "unknown opcode", {"unknown opcode"},
                     What(at + " unknown opcode"), StatusCode::kInvalidArgument);
      ++cases;
    }
    const std::vector<long> positions = OperandPositions(code, inst);
    for (int i = 0; i < inst.spec->operand_count; ++i) {
      const OperandKind kind = inst.spec->operands[i].kind;
      if (positions[i] < 0 || (kind != OperandKind::kGlobal && kind != OperandKind::kRodata &&
                               kind != OperandKind::kType)) {
        continue;
      }
      std::vector<uint8_t> broken = module_;
      WriteAt<uint32_t>(broken, positions[i], 0x7FFFFFF0u);
      const base::Status status = LoadModule(broken);
      if (kind == OperandKind::kGlobal) {
        ExpectRejected(status, "global out of range", {"global byte offset", "ref global"},
                       What(at + " global"), StatusCode::kInvalidArgument);
      } else if (kind == OperandKind::kRodata) {
        ExpectRejected(status, "rodata ordinal out of range", {"rodata ordinal"},
                       What(at + " rodata"), StatusCode::kInvalidArgument);
      } else if (kind == OperandKind::kType) {
        ExpectRejected(status, "type ordinal out of range", {"type "}, What(at + " type"),
                       StatusCode::kInvalidArgument);
      } else {
        continue;
      }
      ++cases;
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Modules, BadModuleTest, ::testing::ValuesIn(kModules),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           name = name.substr(name.rfind('/') + 1);
                           name = name.substr(0, name.find('.'));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

class CountsPrinter : public ::testing::Environment {
 public:
  void TearDown() override { PrintCounts(); }
};
const auto* const kCountsPrinter = ::testing::AddGlobalTestEnvironment(new CountsPrinter);

}  // namespace
}  // namespace iree_rt::bad_modules
