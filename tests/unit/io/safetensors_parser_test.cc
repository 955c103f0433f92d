// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// .safetensors: files the safetensors package wrote (numpy dtypes, and BF16/F8/C64 through its
// serializer), checked against their JSON headers; then bad headers and truncations.
#include "io/safetensors_parser.h"

#include <gtest/gtest.h>

#include <string>

#include "archive_test_util.h"
#include "status_matchers.h"

namespace iree_rt::io {
namespace {

using base::StatusCode;
using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

std::span<const uint8_t> Span(const std::vector<uint8_t>& bytes) { return bytes; }

// A file with |header| and |data_size| bytes of data.
std::vector<uint8_t> Make(const std::string& header, size_t data_size) {
  std::vector<uint8_t> bytes(8);
  testing::PutU64(bytes, 0, header.size());
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.resize(bytes.size() + data_size);
  return bytes;
}

base::StatusOr<std::vector<ParameterEntry>> Parse(const std::string& header, size_t data_size) {
  auto bytes = Make(header, data_size);
  return ParseSafetensors(Span(bytes), "bad.safetensors");
}

TEST(SafetensorsParserTest, ReadsWhatThePackageWrote) {
  RT_SKIP_WITHOUT_ARCHIVES();
  const auto files = testing::ManifestFiles(".safetensors");
  ASSERT_EQ(files.size(), 2u);
  for (const std::string& name : files) {
    auto bytes = testing::ReadArchive(name);
    auto entries = ParseSafetensors(Span(bytes), name);
    ASSERT_TRUE(IsOk(entries)) << name;
    testing::ExpectMatchesManifest(name, *entries);
  }
}

TEST(SafetensorsParserTest, EveryTruncationIsRefused) {
  RT_SKIP_WITHOUT_ARCHIVES();
  const auto bytes = testing::ReadArchive("raw.safetensors");
  auto entries = ParseSafetensors(Span(bytes), "raw.safetensors");
  ASSERT_TRUE(IsOk(entries));
  for (size_t size = 0; size < bytes.size(); ++size) {
    SCOPED_TRACE(size);
    auto cut = ParseSafetensors(Span(bytes).first(size), "cut.safetensors");
    ASSERT_TRUE(IsError(cut, StatusCode::kOutOfRange, "cut.safetensors"));
    for (const ParameterEntry& entry : *entries) {
      if (size > entry.offset && size < entry.offset + entry.length) {
        EXPECT_TRUE(IsError(cut, StatusCode::kOutOfRange, "'" + entry.key + "'"));
      }
    }
  }
}

TEST(SafetensorsParserTest, EveryDtype) {
  const std::pair<const char*, int> dtypes[] = {
      {"BOOL", 4}, {"U8", 4}, {"I8", 4}, {"F8_E5M2", 4}, {"F8_E4M3", 4}, {"F8_E8M0", 4},
      {"F8_E4M3FNUZ", 4}, {"F8_E5M2FNUZ", 4}, {"I16", 8}, {"U16", 8}, {"F16", 8}, {"BF16", 8},
      {"I32", 16}, {"U32", 16}, {"F32", 16}, {"I64", 32}, {"U64", 32}, {"F64", 32},
      {"C64", 32}, {"F4", 2}, {"F6_E2M3", 3}, {"F6_E3M2", 3}};
  for (auto [dtype, bytes] : dtypes) {
    SCOPED_TRACE(dtype);
    const std::string header = std::string("{\"t\":{\"dtype\":\"") + dtype +
                               "\",\"shape\":[2,2],\"data_offsets\":[0," +
                               std::to_string(bytes) + "]}}";
    auto entries = Parse(header, bytes);
    ASSERT_TRUE(IsOk(entries));
    EXPECT_EQ((*entries)[0].element_type, dtype);
    EXPECT_EQ((*entries)[0].length, static_cast<uint64_t>(bytes));
    EXPECT_EQ((*entries)[0].offset, 8 + header.size());
  }
}

TEST(SafetensorsParserTest, BadHeaders) {
  const std::string t = "{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":";
  struct Case {
    std::string header;
    StatusCode code;
    const char* substring;
  } cases[] = {
      {"{", StatusCode::kInvalidArgument, "bad JSON"},
      {"{\"a\":" + t + "[0,8]},}", StatusCode::kInvalidArgument, "bad JSON"},
      {"[]", StatusCode::kInvalidArgument, "not a JSON object"},
      {"{\"a\":" + t + "[0,8]},\"a\":" + t + "[8,16]}}", StatusCode::kAlreadyExists, "'a'"},
      {"{\"a\":" + t + "[0,8]},\"b\":" + t + "[4,12]}}", StatusCode::kInvalidArgument,
       "overlaps parameter 'a'"},
      {"{\"big\":" + t + "[16,24]}}", StatusCode::kOutOfRange, "'big'"},
      {"{\"wide\":{\"dtype\":\"F64\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,0]}}",
       StatusCode::kOutOfRange, "'wide': length overflow"},
      {"{\"huge\":{\"dtype\":\"U8\",\"shape\":[18446744073709551616],\"data_offsets\":[0,0]}}",
       StatusCode::kInvalidArgument, "'huge'"},
      {"{\"q\":{\"dtype\":\"Q4_0\",\"shape\":[2],\"data_offsets\":[0,2]}}",
       StatusCode::kInvalidArgument, "'q': unknown dtype 'Q4_0'"},
      {"{\"m\":" + t + "[0,6]}}", StatusCode::kInvalidArgument, "'m': data_offsets span 6"},
      {"{\"r\":" + t + "[8,0]}}", StatusCode::kInvalidArgument, "'r'"},
      {"{\"n\":" + t + "[-1,7]}}", StatusCode::kInvalidArgument, "'n'"},
      {"{\"f4\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,2]}}",
       StatusCode::kInvalidArgument, "'f4': sub-byte"},
      {"{\"s\":{\"dtype\":\"F32\",\"data_offsets\":[0,4]}}", StatusCode::kInvalidArgument,
       "'s': has no shape"},
      {"{\"s\":7}", StatusCode::kInvalidArgument, "'s': is not"},
      {"{\"__metadata__\":{\"k\":1}}", StatusCode::kInvalidArgument, "__metadata__"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.header);
    auto result = Parse(c.header, 16);
    EXPECT_TRUE(IsError(result, c.code, c.substring));
    EXPECT_TRUE(IsError(result, c.code, "bad.safetensors"));
  }
  // Metadata, padding spaces and an empty file of tensors are fine.
  auto ok = Parse("{\"__metadata__\":{\"k\":\"v\"},\"a\":" + t + "[0,8]}}   ", 8);
  ASSERT_TRUE(IsOk(ok));
  EXPECT_EQ(ok->size(), 1u);
  EXPECT_TRUE(IsOk(Parse("{}", 0)));
}

TEST(SafetensorsParserTest, HeaderLengthIsChecked) {
  std::vector<uint8_t> bytes = Make("{}", 0);
  testing::PutU64(bytes, 0, ~uint64_t{0});
  EXPECT_TRUE(IsError(ParseSafetensors(Span(bytes), "x.safetensors"),
                      StatusCode::kInvalidArgument, "limit"));
  testing::PutU64(bytes, 0, 3);
  EXPECT_TRUE(IsError(ParseSafetensors(Span(bytes), "x.safetensors"), StatusCode::kOutOfRange,
                      "truncated"));
}

}  // namespace
}  // namespace iree_rt::io
