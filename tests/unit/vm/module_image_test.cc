// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ModuleImage on modules compiled by iree-compile 3.13.0: every accessor against what the
// compiler wrote (its flatbuffer-text dump was the reference), in both container layouts.
#include "vm/bytecode/module_image.h"

#include <gtest/gtest.h>

#include <cstring>

#include "test_util.h"
#include "vm/bytecode/archive.h"

namespace iree_rt::vm::bytecode {
namespace {

using base::StatusCode;
using testing::BigConstantBytes;
using testing::IsError;
using testing::ReadModule;

constexpr uint8_t kBlockMarker = 0x79;  // every function starts with its entry block marker

std::vector<uint8_t> ToVector(std::span<const uint8_t> span) { return {span.begin(), span.end()}; }

// Offset of |span| from the start of the module file.
size_t OffsetIn(std::span<const uint8_t> span, const std::vector<uint8_t>& file) {
  return static_cast<size_t>(span.data() - file.data());
}

class ModuleImageTest : public ::testing::TestWithParam<bool> {
 protected:
  bool plain() const { return GetParam(); }
  std::unique_ptr<ModuleImage> Load(const char* name, uint32_t features = kFeatureAll) {
    bytes_ = ReadModule(name, plain());
    auto image = ModuleImage::Parse(bytes_, features);
    EXPECT_TRUE(image.ok()) << image.status().ToString();
    return image.ok() ? std::move(image).value() : nullptr;
  }
  std::vector<uint8_t> bytes_;
};

TEST_P(ModuleImageTest, Scalar) {
  auto image = Load("scalar");
  ASSERT_TRUE(image);
  EXPECT_EQ(image->is_zip(), !plain());
  EXPECT_EQ(image->bytes().data(), bytes_.data());
  EXPECT_EQ(image->name(), "module");
  EXPECT_EQ(image->version(), 0u);
  EXPECT_EQ(image->requirements(), kFeatureExtF32);
  EXPECT_EQ(image->bytecode_version(), 0x00110000u);
  EXPECT_TRUE(image->attrs().empty());
  EXPECT_EQ(image->type_names(), (std::vector<std::string_view>{"f32", "i32", "i64"}));
  EXPECT_EQ(image->global_bytes_capacity(), 0u);
  EXPECT_EQ(image->global_ref_count(), 0u);
  EXPECT_TRUE(image->imports().empty());
  EXPECT_TRUE(image->dependencies().empty());
  EXPECT_TRUE(image->rodata().empty());

  ASSERT_EQ(image->exports().size(), 2u);
  EXPECT_EQ(image->exports()[0].name, "add");
  EXPECT_EQ(image->exports()[0].internal_ordinal, 0u);
  EXPECT_EQ(image->exports()[1].name, "mix");
  EXPECT_EQ(image->exports()[1].internal_ordinal, 1u);

  ASSERT_EQ(image->functions().size(), 2u);
  const FunctionInfo& add = image->functions()[0];
  EXPECT_EQ(add.cconv, "0ii_i");
  EXPECT_EQ(add.bytecode.size(), 14u);
  EXPECT_EQ(add.bytecode[0], kBlockMarker);
  EXPECT_EQ(add.requirements, 0u);
  EXPECT_EQ(add.block_count, 1);
  EXPECT_EQ(add.i32_register_count, 2);
  EXPECT_EQ(add.ref_register_count, 0);
  ASSERT_EQ(add.attrs.size(), 1u);
  EXPECT_EQ(add.attrs[0].key, "iree.abi.declaration");
  EXPECT_EQ(add.attrs[0].value, "sync func @add(%input0: i32, %input1: i32) -> (%output0: i32)");
  const FunctionInfo& mix = image->functions()[1];
  EXPECT_EQ(mix.cconv, "0iIf_If");
  EXPECT_EQ(mix.bytecode.size(), 28u);
  EXPECT_EQ(mix.bytecode[0], kBlockMarker);
  // Bodies are padded to 8 bytes inside bytecode_data.
  EXPECT_EQ(mix.bytecode.data() - add.bytecode.data(), 16);
  EXPECT_EQ(mix.requirements, kFeatureExtF32);
  EXPECT_EQ(mix.i32_register_count, 8);
  EXPECT_EQ(
      mix.attrs[0].value,
      "sync func @mix(%input0: i32, %input1: i64, %input2: f32) -> (%output0: i64, %output1: f32)");
  // 3.13.0 keeps only the last function's source map (under ordinal 0): not trusted.
  EXPECT_EQ(add.debug_name, "");
  EXPECT_EQ(mix.debug_name, "");
  EXPECT_EQ(image->SourceLocation(0, 1), "");
  EXPECT_EQ(image->SourceLocation(1, 1), "");
}

TEST_P(ModuleImageTest, VmFeatures) {
  auto image = Load("vm_features");
  ASSERT_TRUE(image);
  EXPECT_EQ(image->name(), "vm_features");
  EXPECT_EQ(image->version(), 3u);
  EXPECT_EQ(image->requirements(), kFeatureExtF64);
  ASSERT_EQ(image->attrs().size(), 2u);  // sorted by key
  EXPECT_EQ(image->attrs()[0].key, "akey");
  EXPECT_EQ(image->attrs()[0].value, "aval");
  EXPECT_EQ(image->attrs()[1].key, "zkey");
  EXPECT_EQ(image->attrs()[1].value, "zval");
  EXPECT_EQ(image->type_names(),
            (std::vector<std::string_view>{"f64", "i32", "i64", "!vm.buffer"}));
  // One i32 and one i64 global (padded to 16 bytes), one ref global.
  EXPECT_EQ(image->global_bytes_capacity(), 16u);
  EXPECT_EQ(image->global_ref_count(), 1u);

  // The optional import's minimum_version does not reach the dependency.
  ASSERT_EQ(image->dependencies().size(), 1u);
  EXPECT_EQ(image->dependencies()[0].name, "other");
  EXPECT_EQ(image->dependencies()[0].minimum_version, 0u);
  EXPECT_FALSE(image->dependencies()[0].optional);

  ASSERT_EQ(image->imports().size(), 2u);
  EXPECT_EQ(image->imports()[0].full_name, "other.ext");
  EXPECT_EQ(image->imports()[0].module_name, "other");
  EXPECT_EQ(image->imports()[0].function_name, "ext");
  EXPECT_EQ(image->imports()[0].cconv, "0i_i");
  EXPECT_FALSE(image->imports()[0].optional);
  EXPECT_EQ(image->imports()[1].full_name, "other.maybe");
  EXPECT_EQ(image->imports()[1].function_name, "maybe");
  EXPECT_TRUE(image->imports()[1].optional);

  std::vector<std::pair<std::string_view, uint32_t>> exports;
  for (const ExportInfo& e : image->exports()) exports.emplace_back(e.name, e.internal_ordinal);
  EXPECT_EQ(exports, (std::vector<std::pair<std::string_view, uint32_t>>{{"get_big", 0},
                                                                         {"small_alias", 1},
                                                                         {"small", 1},
                                                                         {"bump", 2},
                                                                         {"twice", 3},
                                                                         {"get_aligned", 4}}));

  ASSERT_EQ(image->functions().size(), 5u);
  std::vector<std::string_view> cconvs;
  for (const FunctionInfo& f : image->functions()) {
    cconvs.push_back(f.cconv);
    EXPECT_EQ(f.bytecode[0], kBlockMarker);
    EXPECT_TRUE(f.attrs.empty());
  }
  EXPECT_EQ(cconvs, (std::vector<std::string_view>{"0v_r", "0v_r", "0iI_i", "0F_F", "0v_r"}));
  EXPECT_EQ(image->functions()[3].requirements, kFeatureExtF64);
  EXPECT_EQ(image->functions()[0].ref_register_count, 1);

  ASSERT_EQ(image->rodata().size(), 3u);
  EXPECT_EQ(ToVector(image->rodata()[0]),
            (std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}));
  EXPECT_EQ(ToVector(image->rodata()[1]), BigConstantBytes());
  EXPECT_EQ(ToVector(image->rodata()[2]),
            (std::vector<uint8_t>{5, 0, 0, 0, 6, 0, 0, 0, 7, 0, 0, 0, 8, 0, 0, 0}));

  // Small segments are embedded in the FlatBuffer, the big one (>= 4096 bytes) follows it.
  auto layout = ParseArchive(bytes_);
  ASSERT_TRUE(layout.ok());
  const size_t flatbuffer_end = layout->prefix_offset + layout->size_prefixed_flatbuffer.size();
  EXPECT_LT(OffsetIn(image->rodata()[0], bytes_), flatbuffer_end);
  EXPECT_LT(OffsetIn(image->rodata()[2], bytes_), flatbuffer_end);
  EXPECT_GE(OffsetIn(image->rodata()[1], bytes_), layout->rodata_base);
  // External segments start aligned (16, the default rodata alignment) in the file; ZIP puts a
  // local file header in front of each, plain mode nothing.
  EXPECT_EQ(OffsetIn(image->rodata()[1], bytes_) % 16, 0u);
  if (plain()) {
    EXPECT_EQ(OffsetIn(image->rodata()[1], bytes_), layout->rodata_base);
  }
  // Embedded segments honor their alignment (default 16, here also 64) relative to the file
  // start in both layouts: the size prefix sits 64-byte aligned and the FlatBuffer is aligned
  // from it (checked for 3.13.0, see docs/facts_corrections.md).
  EXPECT_EQ(OffsetIn(image->rodata()[0], bytes_) % 16, 0u);
  EXPECT_EQ(OffsetIn(image->rodata()[2], bytes_) % 64, 0u);
}

TEST_P(ModuleImageTest, BigConstantThroughFullPipeline) {
  auto image = Load("big_constant");
  ASSERT_TRUE(image);
  EXPECT_EQ(image->requirements(), kFeatureYield | kFeatureUnwind);
  ASSERT_EQ(image->dependencies().size(), 1u);
  EXPECT_EQ(image->dependencies()[0].name, "hal");
  EXPECT_FALSE(image->dependencies()[0].optional);
  ASSERT_FALSE(image->imports().empty());
  bool saw_variadic = false;
  for (const ImportInfo& import : image->imports()) {
    EXPECT_EQ(import.module_name, "hal") << import.full_name;
    EXPECT_EQ(import.full_name, std::string("hal.") + std::string(import.function_name));
    EXPECT_FALSE(import.cconv.empty());
    if (import.full_name == "hal.fence.await") {
      EXPECT_EQ(import.cconv, "0iICrD_i");
      saw_variadic = true;
    }
  }
  EXPECT_TRUE(saw_variadic);
  ASSERT_EQ(image->exports().size(), 2u);
  EXPECT_EQ(image->exports()[0].name, "big_constant");
  EXPECT_EQ(image->exports()[1].name, "__init");
  EXPECT_EQ(image->functions()[image->exports()[1].internal_ordinal].cconv, "0v_v");
  EXPECT_EQ(image->global_ref_count(), 2u);
  bool has_hal_buffer = false;
  for (std::string_view type : image->type_names()) has_hal_buffer |= type == "!hal.buffer";
  EXPECT_TRUE(has_hal_buffer);

  // The constant is the first rodata segment, external, padded to a multiple of 64.
  ASSERT_FALSE(image->rodata().empty());
  const std::span<const uint8_t> constant = image->rodata()[0];
  const std::vector<uint8_t> expected = BigConstantBytes();
  ASSERT_GE(constant.size(), expected.size());
  EXPECT_EQ(ToVector(constant.first(expected.size())), expected);
  auto layout = ParseArchive(bytes_);
  ASSERT_TRUE(layout.ok());
  EXPECT_GE(OffsetIn(constant, bytes_), layout->rodata_base);
  for (size_t i = 1; i < image->rodata().size(); ++i) {
    EXPECT_LT(OffsetIn(image->rodata()[i], bytes_), layout->rodata_base);
  }
}

TEST_P(ModuleImageTest, RequirementsMustBeAvailable) {
  bytes_ = ReadModule("vm_features", plain());
  EXPECT_TRUE(IsError(ModuleImage::Parse(bytes_, kFeatureAll & ~kFeatureExtF64).status(),
                      StatusCode::kIncompatible,
                      "module requires features this runtime does not provide: EXT_F64 (required "
                      "EXT_F64, available EXT_F32|YIELD|UNWIND)"));
  bytes_ = ReadModule("big_constant", plain());
  EXPECT_TRUE(IsError(ModuleImage::Parse(bytes_, kFeatureExtF32 | kFeatureYield).status(),
                      StatusCode::kIncompatible, "does not provide: UNWIND"));
  EXPECT_TRUE(IsError(ModuleImage::Parse(bytes_, 0).status(), StatusCode::kIncompatible,
                      "does not provide: YIELD|UNWIND (required YIELD|UNWIND, available none)"));
  bytes_ = ReadModule("scalar", plain());
  EXPECT_TRUE(ModuleImage::Parse(bytes_, kFeatureExtF32).ok());
}

TEST_P(ModuleImageTest, SourceLocations) {
  auto image = Load("locations");
  ASSERT_TRUE(image);
  ASSERT_EQ(image->functions().size(), 1u);
  EXPECT_EQ(image->functions()[0].debug_name, "f");
  // Ops are 7 bytes each after the 1-byte block marker.
  EXPECT_EQ(image->SourceLocation(0, 0), "");                  // the block marker has none
  EXPECT_EQ(image->SourceLocation(0, 1), "");                  // a name with no file location
  EXPECT_EQ(image->SourceLocation(0, 8), "src/a.py:7:3");      // name → child
  EXPECT_EQ(image->SourceLocation(0, 15), "fa.mlir:1:2");      // fused → first
  EXPECT_EQ(image->SourceLocation(0, 22), "fc.mlir:5:6");      // fused with metadata
  EXPECT_EQ(image->SourceLocation(0, 29), "callee.mlir:9:1");  // call site → callee
  EXPECT_EQ(image->SourceLocation(0, 33), "callee.mlir:9:1");  // inside that op
  EXPECT_EQ(image->SourceLocation(0, 36), "");                 // unknown
  EXPECT_EQ(image->SourceLocation(0, 43), "ret.mlir:11:12");
  EXPECT_EQ(image->SourceLocation(0, 47), "ret.mlir:11:12");
  EXPECT_EQ(image->SourceLocation(0, 48), "");  // past the end of the function
  EXPECT_EQ(image->SourceLocation(1, 8), "");   // no such function
}

INSTANTIATE_TEST_SUITE_P(Layouts, ModuleImageTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Plain" : "Zip";
                         });

TEST(FeatureBitsTest, Format) {
  EXPECT_EQ(FormatFeatureBits(0), "none");
  EXPECT_EQ(FormatFeatureBits(kFeatureAll), "EXT_F32|EXT_F64|YIELD|UNWIND");
  EXPECT_EQ(FormatFeatureBits(kFeatureYield | (1u << 9)), "YIELD|bit9");
}

}  // namespace
}  // namespace iree_rt::vm::bytecode
