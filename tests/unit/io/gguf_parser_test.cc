// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// .gguf: v2 and v3 files the gguf package wrote (plain types, BF16, quantized types as raw bytes,
// metadata of every value type, a custom alignment), checked against gguf.GGUFReader; the type
// table against the package's; then hand-built bad files.
#include "io/gguf_parser.h"

#include <gtest/gtest.h>

#include <string>

#include "archive_test_util.h"
#include "io/ggml_types.h"
#include "io/json_reader.h"
#include "status_matchers.h"

namespace iree_rt::io {
namespace {

using base::StatusCode;
using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

std::span<const uint8_t> Span(const std::vector<uint8_t>& bytes) { return bytes; }

// Writes gguf files field by field, for the bad cases.
class GgufBuilder {
 public:
  explicit GgufBuilder(uint32_t version = 3) { U32(0x46554747).U32(version); }
  GgufBuilder& U32(uint32_t v) { return Raw(&v, 4); }
  GgufBuilder& U64(uint64_t v) { return Raw(&v, 8); }
  GgufBuilder& Str(const std::string& s) { return U64(s.size()).Raw(s.data(), s.size()); }
  GgufBuilder& Raw(const void* data, size_t size) {
    auto* p = static_cast<const uint8_t*>(data);
    body_.insert(body_.end(), p, p + size);
    return *this;
  }
  // Starts the counts; call before the key/values and tensor infos.
  GgufBuilder& Counts(uint64_t tensors, uint64_t kvs) { return U64(tensors).U64(kvs); }
  GgufBuilder& Tensor(const std::string& name, std::vector<uint64_t> dims, uint32_t type,
                      uint64_t offset) {
    Str(name).U32(dims.size());
    for (uint64_t d : dims) U64(d);
    return U32(type).U64(offset);
  }
  // Pads to |alignment| and appends |data_size| zero bytes.
  std::vector<uint8_t> Build(size_t data_size, size_t alignment = 32) {
    std::vector<uint8_t> bytes = body_;
    bytes.resize((bytes.size() + alignment - 1) / alignment * alignment + data_size);
    return bytes;
  }

 private:
  std::vector<uint8_t> body_;
};

base::StatusOr<std::vector<ParameterEntry>> Parse(const std::vector<uint8_t>& bytes) {
  return ParseGguf(Span(bytes), "bad.gguf");
}

TEST(GgufParserTest, ReadsWhatThePackageWrote) {
  RT_SKIP_WITHOUT_ARCHIVES();
  const auto files = testing::ManifestFiles(".gguf");
  ASSERT_EQ(files.size(), 3u);
  for (const std::string& name : files) {
    auto bytes = testing::ReadArchive(name);
    auto entries = ParseGguf(Span(bytes), name);
    ASSERT_TRUE(IsOk(entries)) << name;
    testing::ExpectMatchesManifest(name, *entries);
    EXPECT_EQ((*entries)[0].alignment, name == "align64.gguf" ? 64u : 32u);
  }
}

TEST(GgufParserTest, TypeTableMatchesTheGgufPackage) {
  RT_SKIP_WITHOUT_ARCHIVES();
  auto bytes = testing::ReadArchive("manifest.json");
  auto manifest = ParseJson(std::string_view(reinterpret_cast<const char*>(bytes.data()),
                                             bytes.size()), "manifest.json");
  ASSERT_TRUE(IsOk(manifest));
  const JsonValue* table = manifest->Find("ggml_types");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->members.size(), GgmlTypes().size());
  for (const auto& [name, value] : table->members) {
    SCOPED_TRACE(name);
    uint64_t id = 0, block = 0, size = 0;
    ASSERT_TRUE(value.items.size() == 3 && value.items[0].AsUint64(id) &&
                value.items[1].AsUint64(block) && value.items[2].AsUint64(size));
    const GgmlType* type = FindGgmlType(static_cast<uint32_t>(id));
    ASSERT_NE(type, nullptr);
    EXPECT_EQ(type->name, name);
    EXPECT_EQ(type->block_size, block);
    EXPECT_EQ(type->type_size, size);
  }
}

TEST(GgufParserTest, EveryTypeIsSized) {
  for (const GgmlType& type : GgmlTypes()) {
    SCOPED_TRACE(type.name);
    const uint64_t size = 3 * 2 * uint64_t{type.type_size};
    auto bytes = GgufBuilder().Counts(1, 0).Tensor("t", {2 * type.block_size, 3}, type.id, 0)
                     .Build(size);
    auto entries = Parse(bytes);
    ASSERT_TRUE(IsOk(entries));
    EXPECT_EQ((*entries)[0].length, size);
    EXPECT_EQ((*entries)[0].element_type, type.name);
    EXPECT_EQ((*entries)[0].shape, (std::vector<uint64_t>{3, 2 * type.block_size}));
  }
}

TEST(GgufParserTest, EveryTruncationIsRefused) {
  RT_SKIP_WITHOUT_ARCHIVES();
  const auto bytes = testing::ReadArchive("v3.gguf");
  auto entries = ParseGguf(Span(bytes), "v3.gguf");
  ASSERT_TRUE(IsOk(entries));
  uint64_t data_end = 0;
  for (const ParameterEntry& e : *entries) data_end = std::max(data_end, e.offset + e.length);
  for (size_t size = 0; size < data_end; ++size) {
    SCOPED_TRACE(size);
    auto cut = ParseGguf(Span(bytes).first(size), "cut.gguf");
    ASSERT_FALSE(cut.ok());
    EXPECT_NE(cut.status().message().find("cut.gguf"), std::string_view::npos);
    // Only a cut inside the magic reads as another format; every other cut is a truncation.
    if (size >= 4) {
      ASSERT_TRUE(IsError(cut, StatusCode::kOutOfRange, "cut.gguf"));
    }
    for (const ParameterEntry& e : *entries) {
      if (size > e.offset && size < e.offset + e.length) {
        EXPECT_TRUE(IsError(cut, StatusCode::kOutOfRange, "'" + e.key + "'"));
      }
    }
  }
  EXPECT_TRUE(IsOk(ParseGguf(Span(bytes).first(data_end), "cut.gguf")));
}

TEST(GgufParserTest, BadTensors) {
  struct Case {
    std::vector<uint8_t> bytes;
    StatusCode code;
    std::string substring;
  } cases[] = {
      {GgufBuilder().Counts(1, 0).Tensor("w", {4}, 99, 0).Build(64), StatusCode::kUnimplemented,
       "tensor 'w' has ggml type 99"},
      {GgufBuilder().Counts(1, 0).Tensor("old", {32}, 31, 0).Build(64),
       StatusCode::kUnimplemented, "tensor 'old' has ggml type 31"},
      {GgufBuilder().Counts(1, 0).Tensor("far", {4}, 0, 1024).Build(64), StatusCode::kOutOfRange,
       "'far': data"},
      {GgufBuilder().Counts(1, 0).Tensor("wrap", {4}, 0, ~uint64_t{0} - 31).Build(64),
       StatusCode::kOutOfRange, "'wrap'"},
      {GgufBuilder().Counts(2, 0).Tensor("a", {16}, 0, 0).Tensor("b", {4}, 0, 32).Build(128),
       StatusCode::kInvalidArgument, "overlaps parameter 'a'"},
      {GgufBuilder().Counts(1, 0).Tensor("odd", {4}, 0, 4).Build(64),
       StatusCode::kInvalidArgument, "'odd': offset 4 is misaligned"},
      {GgufBuilder().Counts(1, 0).Tensor("n", {1ull << 32, 1ull << 32, 16}, 0, 0).Build(64),
       StatusCode::kOutOfRange, "'n': length overflow"},
      {GgufBuilder().Counts(1, 0).Tensor("s", {1ull << 62}, 0, 0).Build(64),
       StatusCode::kOutOfRange, "'s': length overflow"},
      {GgufBuilder().Counts(2, 0).Tensor("d", {4}, 0, 0).Tensor("d", {4}, 0, 32).Build(64),
       StatusCode::kAlreadyExists, "'d'"},
      {GgufBuilder().Counts(1, 0).Tensor("five", {1, 1, 1, 1, 1}, 0, 0).Build(64),
       StatusCode::kInvalidArgument, "'five' has 5 dimensions"},
      {GgufBuilder().Counts(1, 0).Tensor("q", {33}, 2, 0).Build(64), StatusCode::kInvalidArgument,
       "'q' has rows of 33"},
      {GgufBuilder().Counts(1ull << 60, 0).Build(0), StatusCode::kOutOfRange, "tensor infos"},
      {GgufBuilder().Counts(0, 1ull << 60).Build(0), StatusCode::kOutOfRange, "key/values"},
      {GgufBuilder(1).Counts(0, 0).Build(0), StatusCode::kIncompatible, "version 1"},
      {GgufBuilder(0x03000000).Counts(0, 0).Build(0), StatusCode::kIncompatible, "big-endian"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.substring);
    auto result = Parse(c.bytes);
    EXPECT_TRUE(IsError(result, c.code, c.substring));
    EXPECT_TRUE(IsError(result, c.code, "bad.gguf"));
  }
  std::vector<uint8_t> not_gguf(32, 'x');
  EXPECT_TRUE(IsError(Parse(not_gguf), StatusCode::kInvalidArgument, "magic"));
}

TEST(GgufParserTest, Metadata) {
  // Every value type, an array of strings and an array of arrays, then general.alignment.
  GgufBuilder ok;
  ok.Counts(1, 5);
  ok.Str("u8").U32(0).Raw("\1", 1).Str("s").U32(8).Str("hello");
  ok.Str("strings").U32(9).U32(8).U64(2).Str("a").Str("bc");
  ok.Str("nested").U32(9).U32(9).U64(1).U32(6).U64(2).U32(0).U32(0);
  ok.Str("general.alignment").U32(4).U32(64);
  ok.Tensor("t", {8}, 0, 64);
  auto entries = Parse(ok.Build(128, 64));
  ASSERT_TRUE(IsOk(entries));
  EXPECT_EQ((*entries)[0].alignment, 64u);
  EXPECT_EQ((*entries)[0].offset % 64, 0u);

  auto bad_alignment = GgufBuilder().Counts(0, 1).Str("general.alignment").U32(4).U32(24)
                           .Build(0);
  EXPECT_TRUE(IsError(Parse(bad_alignment), StatusCode::kInvalidArgument, "general.alignment"));
  auto u64_alignment = GgufBuilder().Counts(0, 1).Str("general.alignment").U32(10).U64(32)
                           .Build(0);
  EXPECT_TRUE(IsError(Parse(u64_alignment), StatusCode::kInvalidArgument, "general.alignment"));
  auto unknown = GgufBuilder().Counts(0, 1).Str("k").U32(13).U64(0).Build(0);
  EXPECT_TRUE(IsError(Parse(unknown), StatusCode::kInvalidArgument, "'k' has unknown value type"));
  auto huge = GgufBuilder().Counts(0, 1).Str("k").U32(9).U32(8).U64(1ull << 61).Build(0);
  EXPECT_TRUE(IsError(Parse(huge), StatusCode::kOutOfRange, "'k'"));
  auto huge_fixed = GgufBuilder().Counts(0, 1).Str("k").U32(9).U32(10).U64(1ull << 61).Build(0);
  EXPECT_TRUE(IsError(Parse(huge_fixed), StatusCode::kOutOfRange, "'k'"));
  GgufBuilder deep;
  deep.Counts(0, 1).Str("deep").U32(9);
  for (int i = 0; i < 20; ++i) deep.U32(9).U64(1);
  EXPECT_TRUE(IsError(Parse(deep.Build(64)), StatusCode::kInvalidArgument, "'deep' nests"));
}

}  // namespace
}  // namespace iree_rt::io
