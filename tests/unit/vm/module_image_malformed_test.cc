// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ModuleImage on corrupted and synthetic modules: each semantic check rejects with a clear
// message, and no corruption of a real compiler output crashes (run under ASan+UBSan too).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "test_util.h"
#include "vm/bytecode/archive.h"
#include "vm/bytecode/module_image.h"

namespace iree_rt::vm::bytecode {
namespace {

using base::StatusCode;
using testing::IsError;
using testing::MutableModule;
using testing::ReadModule;
using testing::SyntheticModule;

base::Status ParseStatus(const std::vector<uint8_t>& bytes) {
  return ModuleImage::Parse(bytes, kFeatureAll).status();
}

// Reads every view an image hands out, so ASan sees any that points outside the bytes.
uint64_t TouchEverything(const ModuleImage& image) {
  uint64_t sum = image.name().size() + image.version() + image.global_ref_count();
  auto touch = [&](std::span<const uint8_t> span) {
    for (uint8_t b : span) sum += b;
  };
  auto touch_text = [&](std::string_view text) {
    touch(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  };
  for (const Attr& attr : image.attrs()) touch_text(attr.key), touch_text(attr.value);
  for (std::string_view type : image.type_names()) touch_text(type);
  for (const ImportInfo& import : image.imports())
    touch_text(import.full_name), touch_text(import.cconv);
  for (const ExportInfo& e : image.exports()) touch_text(e.name);
  for (const DependencyInfo& dep : image.dependencies()) touch_text(dep.name);
  for (std::span<const uint8_t> segment : image.rodata()) touch(segment);
  for (uint32_t i = 0; i < image.functions().size(); ++i) {
    const FunctionInfo& f = image.functions()[i];
    touch(f.bytecode);
    touch_text(f.cconv);
    touch_text(f.debug_name);
    for (const Attr& attr : f.attrs) touch_text(attr.key), touch_text(attr.value);
    for (uint32_t pc = 0; pc < f.bytecode.size(); ++pc) sum += image.SourceLocation(i, pc).size();
  }
  return sum;
}

TEST(ModuleImageMalformedTest, Empty) {
  EXPECT_TRUE(IsError(ModuleImage::Parse({}, kFeatureAll).status(), StatusCode::kInvalidArgument,
                      "module contents are 0 bytes"));
}

// Every prefix shorter than the module's last needed byte fails; ZIP files may lose their
// trailing central directory, which the loader never reads.
TEST(ModuleImageMalformedTest, EveryTruncation) {
  for (const char* name : {"scalar", "locations", "vm_features", "big_constant"}) {
    for (bool plain : {false, true}) {
      const std::vector<uint8_t> module = ReadModule(name, plain);
      auto full = ModuleImage::Parse(module, kFeatureAll);
      ASSERT_TRUE(full.ok()) << full.status().ToString();
      auto layout = ParseArchive(module);
      ASSERT_TRUE(layout.ok());
      size_t needed = layout->prefix_offset + layout->size_prefixed_flatbuffer.size();
      for (std::span<const uint8_t> segment : full.value()->rodata()) {
        needed = std::max<size_t>(needed, segment.data() + segment.size() - module.data());
      }
      for (size_t size = 0; size < module.size(); ++size) {
        const std::vector<uint8_t> prefix(module.begin(), module.begin() + size);
        auto image = ModuleImage::Parse(prefix, kFeatureAll);
        if (size < needed) {
          EXPECT_EQ(image.status().code(), StatusCode::kInvalidArgument)
              << name << (plain ? " plain" : " zip") << " truncated to " << size;
        } else {
          EXPECT_TRUE(image.ok()) << name << " truncated to " << size << ": "
                                  << image.status().ToString();
        }
      }
    }
  }
}

// Flips each bit of each module in turn. Any outcome is fine except a crash or a view outside
// the bytes; the counts show that both outcomes are exercised.
TEST(ModuleImageMalformedTest, EveryBitFlip) {
  for (const char* name : {"scalar", "locations", "vm_features", "big_constant"}) {
    for (bool plain : {false, true}) {
      std::vector<uint8_t> bytes = ReadModule(name, plain);
      auto layout = ParseArchive(bytes);
      ASSERT_TRUE(layout.ok());
      // Big files: the FlatBuffer and a little after it (rodata bytes are opaque anyway).
      const size_t end = std::min(
          bytes.size(), layout->prefix_offset + layout->size_prefixed_flatbuffer.size() + 256);
      int accepted = 0, rejected = 0;
      for (size_t i = 0; i < end; ++i) {
        for (int bit = 0; bit < 8; ++bit) {
          bytes[i] ^= static_cast<uint8_t>(1u << bit);
          auto image = ModuleImage::Parse(bytes, kFeatureAll);
          if (image.ok()) {
            TouchEverything(*image.value());
            ++accepted;
          } else {
            // Malformed, or (a flip in bytecode_version or the requirements) another ISA
            // version or features this runtime lacks: INCOMPATIBLE.
            const std::string_view message = image.status().message();
            const bool other_version =
                image.status().code() == StatusCode::kIncompatible &&
                (message.find("bytecode version mismatch") != std::string_view::npos ||
                 message.find("requires features") != std::string_view::npos);
            EXPECT_TRUE(image.status().code() == StatusCode::kInvalidArgument || other_version)
                << image.status().ToString();
            EXPECT_FALSE(image.status().message().empty());
            ++rejected;
          }
          bytes[i] ^= static_cast<uint8_t>(1u << bit);
        }
      }
      EXPECT_GT(accepted, 0) << name;
      EXPECT_GT(rejected, 0) << name;
    }
  }
}

// Random multi-byte damage inside the FlatBuffer, with values that make offsets and sizes large.
TEST(ModuleImageMalformedTest, RandomCorruption) {
  std::mt19937 rng(1234);
  const uint8_t specials[] = {0x00, 0xFF, 0x7F, 0x80, 0x01, 0xFE};
  for (const char* name : {"scalar", "vm_features", "locations"}) {
    const std::vector<uint8_t> original = ReadModule(name, /*plain=*/true);
    auto layout = ParseArchive(original);
    ASSERT_TRUE(layout.ok());
    const size_t end = layout->size_prefixed_flatbuffer.size();
    for (int iteration = 0; iteration < 3000; ++iteration) {
      std::vector<uint8_t> bytes = original;
      const int edits = 1 + static_cast<int>(rng() % 8);
      for (int e = 0; e < edits; ++e) {
        const size_t at = 4 + rng() % (end - 4);  // keep the size prefix
        bytes[at] =
            (rng() & 1) ? specials[rng() % std::size(specials)] : static_cast<uint8_t>(rng());
      }
      auto image = ModuleImage::Parse(bytes, kFeatureAll);
      if (image.ok()) TouchEverything(*image.value());
    }
  }
}

TEST(ModuleImageMalformedTest, WrongIdentifier) {
  std::vector<uint8_t> bytes = ReadModule("scalar", /*plain=*/false);
  std::memcpy(bytes.data() + 72, "TFL3", 4);
  EXPECT_TRUE(IsError(ParseStatus(bytes), StatusCode::kInvalidArgument,
                      "file identifier is 'TFL3', expected 'IREE'"));
}

TEST(ModuleImageMalformedTest, WrongBytecodeVersion) {
  for (auto [version, text] : {std::pair<uint32_t, const char*>{18u << 16, "18.0"},
                               {(17u << 16) | 1, "17.1"},
                               {16u << 16, "16.0"},
                               {0, "0.0"}}) {
    std::vector<uint8_t> bytes = ReadModule("scalar", /*plain=*/true);
    ASSERT_TRUE(MutableModule(bytes)->mutate_bytecode_version(version));
    EXPECT_TRUE(IsError(
        ParseStatus(bytes), StatusCode::kIncompatible,
        std::string("bytecode version mismatch; runtime supports 17.0, module has ") + text));
  }
  // An absent field reads as 0.0.
  SyntheticModule synthetic;
  synthetic.bytecode_version = 0;
  EXPECT_TRUE(
      IsError(ParseStatus(synthetic.Build()), StatusCode::kIncompatible, "module has 0.0"));
}

TEST(ModuleImageMalformedTest, BadExportOrdinal) {
  for (int32_t ordinal : {2, 99, -1}) {
    std::vector<uint8_t> bytes = ReadModule("scalar", /*plain=*/false);
    ASSERT_TRUE(MutableModule(bytes)
                    ->mutable_exported_functions()
                    ->GetMutableObject(1)
                    ->mutate_internal_ordinal(ordinal));
    EXPECT_TRUE(IsError(ParseStatus(bytes), StatusCode::kInvalidArgument,
                        "export 1 ('mix') refers to internal function " + std::to_string(ordinal) +
                            " but the module has 2 functions"));
  }
}

TEST(ModuleImageMalformedTest, DescriptorOutOfBounds) {
  auto edited = [](auto edit) {
    std::vector<uint8_t> bytes = ReadModule("scalar", /*plain=*/true);
    edit(*MutableModule(bytes)->mutable_function_descriptors()->GetMutableObject(1));
    return ParseStatus(bytes);
  };
  // scalar: bytecode_data is 48 bytes; function 1 is at 16 with length 28.
  EXPECT_TRUE(
      IsError(edited([](fb::FunctionDescriptor& d) { d.mutate_bytecode_length(33); }),
              StatusCode::kInvalidArgument,
              "function 1 bytecode (offset 16, length 33) is outside the 48-byte bytecode data"));
  EXPECT_TRUE(IsError(edited([](fb::FunctionDescriptor& d) { d.mutate_bytecode_offset(-8); }),
                      StatusCode::kInvalidArgument, "function 1 bytecode (offset -8, length 28)"));
  EXPECT_TRUE(
      IsError(edited([](fb::FunctionDescriptor& d) { d.mutate_bytecode_offset(0x7FFFFFFF); }),
              StatusCode::kInvalidArgument, "(offset 2147483647, length 28) is outside"));
  EXPECT_TRUE(IsError(edited([](fb::FunctionDescriptor& d) { d.mutate_bytecode_length(0); }),
                      StatusCode::kInvalidArgument, "function 1 bytecode (offset 16, length 0)"));
  EXPECT_TRUE(IsError(edited([](fb::FunctionDescriptor& d) { d.mutate_block_count(0); }),
                      StatusCode::kInvalidArgument, "function 1 has no blocks"));
  EXPECT_TRUE(
      IsError(edited([](fb::FunctionDescriptor& d) { d.mutate_i32_register_count(-1); }),
              StatusCode::kInvalidArgument,
              "function 1 uses 65535 i32 and 0 ref registers; the limits are 32767 and 16383"));
  EXPECT_TRUE(
      IsError(edited([](fb::FunctionDescriptor& d) { d.mutate_ref_register_count(0x4000); }),
              StatusCode::kInvalidArgument, "uses 8 i32 and 16384 ref registers"));
  EXPECT_TRUE(edited([](fb::FunctionDescriptor& d) { d.mutate_ref_register_count(0x3FFF); }).ok());
  // A function requirement beyond the available features is rejected like a module one.
  std::vector<uint8_t> bytes = ReadModule("scalar", /*plain=*/true);
  MutableModule(bytes)->mutable_function_descriptors()->GetMutableObject(0)->mutate_requirements(
      fb::FeatureBits::EXT_F64);
  EXPECT_TRUE(IsError(ModuleImage::Parse(bytes, kFeatureExtF32).status(),
                      StatusCode::kIncompatible,
                      "function 0 requires features this runtime does not provide: EXT_F64"));
}

TEST(ModuleImageMalformedTest, ExternalRodataOutOfBounds) {
  for (bool plain : {false, true}) {
    const std::vector<uint8_t> original = ReadModule("vm_features", plain);
    auto layout = ParseArchive(original);
    ASSERT_TRUE(layout.ok());
    const uint64_t available = original.size() - layout->rodata_base;
    auto edited = [&](auto edit) {
      std::vector<uint8_t> bytes = original;
      EXPECT_TRUE(edit(*MutableModule(bytes)->mutable_rodata_segments()->GetMutableObject(1)));
      return ParseStatus(bytes);
    };
    const uint64_t offset =
        fb::GetSizePrefixedBytecodeModuleDef(layout->size_prefixed_flatbuffer.data())
            ->rodata_segments()
            ->Get(1)
            ->external_data_offset();
    EXPECT_TRUE(IsError(edited([&](fb::RodataSegmentDef& s) {
                          return s.mutate_external_data_length(available - offset + 1);
                        }),
                        StatusCode::kInvalidArgument,
                        "rodata segment 1 (external, offset " + std::to_string(offset) +
                            ", length " + std::to_string(available - offset + 1) +
                            ") extends past the end of the module file (" +
                            std::to_string(available) + " bytes after the rodata base)"));
    EXPECT_TRUE(edited([&](fb::RodataSegmentDef& s) {
                  return s.mutate_external_data_length(available - offset);
                }).ok());
    // Overflow-safe: offset + length wraps around 2^64.
    EXPECT_TRUE(IsError(
        edited([](fb::RodataSegmentDef& s) { return s.mutate_external_data_length(~0ull); }),
        StatusCode::kInvalidArgument, "extends past the end of the module file"));
    if (offset != 0) {  // plain mode omits a zero offset, which then cannot be patched
      EXPECT_TRUE(IsError(
          edited([](fb::RodataSegmentDef& s) { return s.mutate_external_data_offset(~0ull - 8); }),
          StatusCode::kInvalidArgument, "extends past the end of the module file"));
    }
  }
}

TEST(ModuleImageMalformedTest, SyntheticBaseline) {
  SyntheticModule synthetic;
  synthetic.type_names = {"i32"};
  synthetic.import_names = {"hal.device.allocator"};
  synthetic.dependency_names = {"hal"};
  synthetic.embedded_rodata = {{}, {1, 2, 3}};
  std::vector<uint8_t> bytes = synthetic.Build();
  auto image = ModuleImage::Parse(bytes, kFeatureAll);
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  EXPECT_EQ(image.value()->name(), "m");
  EXPECT_EQ(image.value()->imports()[0].module_name, "hal");
  EXPECT_EQ(image.value()->imports()[0].function_name, "device.allocator");
  EXPECT_TRUE(image.value()->imports()[0].cconv.empty());
  EXPECT_FALSE(image.value()->imports()[0].optional);  // absent flags mean REQUIRED
  EXPECT_FALSE(image.value()->dependencies()[0].optional);
  EXPECT_EQ(image.value()->rodata()[0].size(), 0u);
  EXPECT_EQ(image.value()->rodata()[1].size(), 3u);
  EXPECT_EQ(image.value()->functions()[0].bytecode.size(), 4u);
  EXPECT_EQ(image.value()->global_bytes_capacity(), 0u);  // no module state: no globals
}

TEST(ModuleImageMalformedTest, SyntheticChecks) {
  auto check = [](auto edit, const std::string& message,
                  StatusCode code = StatusCode::kInvalidArgument) {
    SyntheticModule synthetic;
    edit(synthetic);
    EXPECT_TRUE(IsError(ParseStatus(synthetic.Build()), code, message));
  };
  check([](SyntheticModule& m) { m.omit_name = true; }, "failed structural verification");
  check([](SyntheticModule& m) { m.name = ""; }, "module name is empty");
  check([](SyntheticModule& m) { m.type_names = {"i32", ""}; }, "type 1 has an empty name");
  check([](SyntheticModule& m) { m.dependency_names = {""}; },
        "dependency 0 has an empty module name");
  check([](SyntheticModule& m) { m.import_names = {"a.b", ""}; }, "import 1 has an empty name");
  for (const char* bad : {"nodot", ".f", "m."}) {
    check([&](SyntheticModule& m) { m.import_names = {bad}; },
          std::string("import 0 name '") + bad + "' is not of the form 'module.function'");
  }
  check([](SyntheticModule& m) { m.signature_count = 0; },
        "module has 0 function signatures but 1 function descriptors");
  check([](SyntheticModule& m) { m.signature_count = 2; },
        "module has 2 function signatures but 1 function descriptors");
  check([](SyntheticModule& m) { m.export_names = {""}; }, "export 0 has an empty name");
  check([](SyntheticModule& m) { m.export_ordinal = 1; },
        "refers to internal function 1 but the module has 1");
  check([](SyntheticModule& m) { m.requirements = 1u << 5; }, "does not provide: bit5",
        StatusCode::kIncompatible);
  check([](SyntheticModule& m) { m.bytecode_size = 0; }, "is outside the 0-byte bytecode data");
  check(
      [](SyntheticModule& m) {
        m.with_module_state = true;
        m.global_bytes = -16;
      },
      "module state has negative sizes (-16 global bytes, 0 global refs)");
}

TEST(ModuleImageMalformedTest, HostileDebugDatabase) {
  SyntheticModule synthetic;
  synthetic.with_debug_database = true;
  synthetic.location_table = {
      SyntheticModule::NoLoc(),
      SyntheticModule::FileLoc("good.mlir", 3, 4),
      SyntheticModule::NameLoc(2),                      // 2: names itself
      SyntheticModule::CallSiteLoc(3, 3),               // 3: calls itself
      SyntheticModule::FusedLoc({4, 4, 4, 4, 99, -5}),  // 4: fuses itself, bad indices
      SyntheticModule::CallSiteLoc(1000, 1),            // 5: callee out of range → caller
      SyntheticModule::FileLoc("", 1, 1),               // 6: no file name
  };
  synthetic.debug_locations = {{0, 2}, {1, 3}, {2, 4}, {3, 5}, {-4, 1}, {4, 6}, {5, 77}};
  synthetic.bytecode_size = 8;
  synthetic.descriptors[0].mutate_bytecode_length(8);
  std::vector<uint8_t> bytes = synthetic.Build();
  auto image = ModuleImage::Parse(bytes, kFeatureAll);
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  EXPECT_EQ(image.value()->functions()[0].debug_name, "fn0");
  EXPECT_EQ(image.value()->SourceLocation(0, 0), "");
  EXPECT_EQ(image.value()->SourceLocation(0, 1), "");
  EXPECT_EQ(image.value()->SourceLocation(0, 2), "");
  EXPECT_EQ(image.value()->SourceLocation(0, 3), "good.mlir:3:4");
  EXPECT_EQ(image.value()->SourceLocation(0, 4), "");
  EXPECT_EQ(image.value()->SourceLocation(0, 5), "");
  EXPECT_EQ(image.value()->SourceLocation(0, 7), "");

  // Source maps not 1:1 with functions (as 3.13.0 writes them) are ignored.
  synthetic.debug_function_count = 2;
  bytes = synthetic.Build();
  image = ModuleImage::Parse(bytes, kFeatureAll);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(image.value()->functions()[0].debug_name, "");
  EXPECT_EQ(image.value()->SourceLocation(0, 3), "");
}

}  // namespace
}  // namespace iree_rt::vm::bytecode
