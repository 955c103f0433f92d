// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// DecodeCallSites on a compiled program (vm_calls.mlir): which import calls become call sites,
// and the op words the interpreter builds their Args and results from.
#include "vm/bytecode/call_site.h"

#include <gtest/gtest.h>

#include <memory>
#include <string_view>
#include <vector>

#include "interpreter_test_util.h"
#include "vm/bytecode/bytecode_reader.h"
#include "vm/bytecode/module_image.h"

namespace iree_rt::vm::bytecode::testing {
namespace {

class CallSiteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ = ReadProgram("vm_calls");
    auto image = ModuleImage::Parse(bytes_, kFeatureAll);
    ASSERT_TRUE(image.ok()) << image.status().ToString();
    image_ = std::move(image.value());
    parsed_.resize(image_->imports().size());
    for (size_t i = 0; i < parsed_.size(); ++i) {
      auto cconv = ParseCconv(image_->imports()[i].cconv);
      ASSERT_TRUE(cconv.ok()) << cconv.status().ToString();
      parsed_[i] = std::move(cconv.value());
      cconvs_.push_back(&parsed_[i]);
    }
  }
  std::span<const uint8_t> Code(std::string_view export_name) {
    for (const auto& exported : image_->exports()) {
      if (exported.name == export_name) return image_->functions()[exported.internal_ordinal].bytecode;
    }
    ADD_FAILURE() << "no export " << export_name;
    return {};
  }
  // The site's op words as "kind:value" (args), "r:type" (results).
  std::vector<std::string> Words(const CallSite& site) {
    std::vector<std::string> out;
    const uint32_t* op = ops_.data() + site.ops_offset;
    static const char* kKinds[] = {"32", "64", "ref", "count"};
    for (uint32_t i = 0; i < site.arg_count; ++i) {
      const uint32_t kind = op[i] >> 16;
      out.push_back(std::string(kind < 4 ? kKinds[kind] : "?") +
                    (kind == 3 ? ":" + std::to_string(op[i] & 0xFFFF) : ""));
    }
    op += site.arg_count;
    for (uint32_t i = 0; i < site.result_count; ++i) {
      out.push_back("r:" + std::to_string(op[i] >> 16));
    }
    return out;
  }

  std::vector<uint8_t> bytes_;
  std::unique_ptr<ModuleImage> image_;
  std::vector<Cconv> parsed_;
  std::vector<const Cconv*> cconvs_;
  std::vector<uint32_t> ops_;
};

TEST_F(CallSiteTest, VariadicCallsBecomeSitesWithTheirSpanCounts) {
  std::span<const uint8_t> code = Code("import_variadic");
  FunctionCallSites sites;
  ASSERT_TRUE(DecodeCallSites(code, cconvs_, &ops_, &sites).ok());
  ASSERT_EQ(sites.sites.size(), 3u);
  ASSERT_EQ(sites.pcs.size(), 3u);
  const auto i32 = std::to_string(static_cast<uint32_t>(ValueType::kI32));
  const auto i64 = std::to_string(static_cast<uint32_t>(ValueType::kI64));
  // count_refs(%tag, [%a, %b, %a]), count_refs(%tag, []), sum_pairs([(%x, %y) x 3]).
  EXPECT_EQ(Words(sites.sites[0]),
            (std::vector<std::string>{"32", "count:3", "ref", "ref", "ref", "r:" + i32}));
  EXPECT_EQ(Words(sites.sites[1]), (std::vector<std::string>{"32", "count:0", "r:" + i32}));
  EXPECT_EQ(Words(sites.sites[2]), (std::vector<std::string>{"count:3", "32", "64", "32", "64",
                                                             "32", "64", "r:" + i64}));
  for (size_t i = 0; i < sites.sites.size(); ++i) {
    const CallSite& site = sites.sites[i];
    // The instruction at the site's pc is the call it describes, continuing right after it.
    EXPECT_EQ(code[sites.pcs[i]], static_cast<uint8_t>(CoreOp::kCallVariadic));
    EXPECT_EQ(site.opcode, static_cast<uint8_t>(CoreOp::kCallVariadic));
    EXPECT_NE(site.callee & kFunctionImportBit, 0u);
    Instruction ins;
    uint32_t error_pc = 0;
    ASSERT_EQ(DecodeInstruction(code, sites.pcs[i], &ins, &error_pc), DecodeError::kNone);
    EXPECT_EQ(site.continue_pc, ins.next_pc);
    EXPECT_EQ(site.callee, static_cast<uint32_t>(ins.operands[0].value));
  }
}

TEST_F(CallSiteTest, RefArgumentsAndResultsOfAPlainCall) {
  FunctionCallSites sites;
  ASSERT_TRUE(DecodeCallSites(Code("import_echo"), cconvs_, &ops_, &sites).ok());
  ASSERT_EQ(sites.sites.size(), 1u);
  const auto ref = std::to_string(static_cast<uint32_t>(ValueType::kRef));
  EXPECT_EQ(Words(sites.sites[0]), (std::vector<std::string>{"ref", "r:" + ref}));
  EXPECT_EQ(sites.sites[0].opcode, static_cast<uint8_t>(CoreOp::kCall));
}

TEST_F(CallSiteTest, CallsOverTheArgLimitOrWithoutADeclaredCconvKeepTheirInstruction) {
  FunctionCallSites wide;
  ASSERT_TRUE(DecodeCallSites(Code("import_variadic_wide"), cconvs_, &ops_, &wide).ok());
  EXPECT_TRUE(wide.sites.empty());
  // With no declared cconvs, no call is a site (such calls marshal by the bound target's).
  std::vector<const Cconv*> undeclared(cconvs_.size(), nullptr);
  FunctionCallSites none;
  ASSERT_TRUE(DecodeCallSites(Code("import_variadic"), undeclared, &ops_, &none).ok());
  EXPECT_TRUE(none.sites.empty());
  EXPECT_TRUE(ops_.empty());
  // Internal calls are never sites.
  FunctionCallSites internal;
  ASSERT_TRUE(DecodeCallSites(Code("fib"), cconvs_, &ops_, &internal).ok());
  EXPECT_TRUE(internal.sites.empty());
}

// A call of 65,535 registers, one of them before a span of 65,534, is 65,536 Args with the span's
// count: far over the limit, and a count that would wrap to 0 in 16 bits.
TEST_F(CallSiteTest, ACallOfMoreArgsThan16BitsCountIsNoSite) {
  constexpr uint16_t kTuples = 65534;
  std::vector<uint8_t> code = {0x59};  // call.variadic
  auto u16 = [&](uint16_t v) { code.push_back(v & 0xFF); code.push_back(v >> 8); };
  auto align = [&] { if (code.size() & 1) code.push_back(0); };
  const uint32_t callee = kFunctionImportBit;  // import 0
  for (int i = 0; i < 4; ++i) code.push_back(static_cast<uint8_t>(callee >> (8 * i)));
  align();
  u16(2), u16(0xFFFF), u16(kTuples);  // SEG: a scalar, then the span
  align();
  u16(kTuples + 1);
  for (uint32_t i = 0; i <= kTuples; ++i) u16(0x8000);  // ref register 0, again and again
  align();
  u16(1), u16(0);  // one i32 result, register 0
  auto cconv = ParseCconv("0rCrD_i");
  ASSERT_TRUE(cconv.ok()) << cconv.status().ToString();
  const std::vector<const Cconv*> cconvs = {&cconv.value()};
  FunctionCallSites sites;
  ASSERT_TRUE(DecodeCallSites(code, cconvs, &ops_, &sites).ok());
  EXPECT_TRUE(sites.sites.empty());
  EXPECT_TRUE(ops_.empty());
}

TEST_F(CallSiteTest, AnImportOrdinalPastTheTableIsAnInternalError) {
  // Decoding assumes verified code; a call naming an import the table lacks is reported.
  std::vector<const Cconv*> too_few;
  FunctionCallSites sites;
  base::Status status = DecodeCallSites(Code("import_echo"), too_few, &ops_, &sites);
  EXPECT_TRUE(IsError(status, base::StatusCode::kInternal, "names import")) << status.ToString();
}

}  // namespace
}  // namespace iree_rt::vm::bytecode::testing
