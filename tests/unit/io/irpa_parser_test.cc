// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// .irpa: the archives iree-create-parameters and IREE's builder wrote, parsed exactly as IREE's
// own index reads them; then bad archives derived from them, each refused with its code and a
// message naming the file and, where there is one, the key.
#include "io/irpa_parser.h"

#include <gtest/gtest.h>

#include <string>

#include "archive_test_util.h"
#include "status_matchers.h"

namespace iree_rt::io {
namespace {

using base::StatusCode;
using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;
using testing::GetU64;
using testing::PutU32;
using testing::PutU64;

// Field offsets of .irpa v0, for editing archives.
constexpr size_t kNextHeader = 16, kEntryCount = 32, kEntrySegment = 40, kMetadataSegment = 56;
constexpr size_t kEntrySize = 0, kType = 8, kName = 20, kAlignment = 52, kStorage = 60;
constexpr size_t kPatternLength = 84;

struct RawEntry {
  size_t at;  // offset of the entry in the file
  std::string key;
  uint32_t type;
};

// Walks the first header's entry table of a well-formed archive.
std::vector<RawEntry> RawEntries(const std::vector<uint8_t>& bytes) {
  std::vector<RawEntry> entries;
  size_t at = GetU64(bytes, kEntrySegment);
  const size_t metadata = GetU64(bytes, kMetadataSegment);
  for (uint64_t i = 0; i < GetU64(bytes, kEntryCount); ++i) {
    const size_t name = metadata + GetU64(bytes, at + kName);
    const size_t name_length = GetU64(bytes, at + kName + 8);
    entries.push_back({at, std::string(bytes.begin() + name, bytes.begin() + name + name_length),
                       static_cast<uint32_t>(bytes[at + kType])});
    at += (GetU64(bytes, at + kEntrySize) + 15) / 16 * 16;
  }
  return entries;
}

std::span<const uint8_t> Span(const std::vector<uint8_t>& bytes) { return bytes; }

TEST(IrpaParserTest, ReadsWhatTheToolsWrote) {
  RT_SKIP_WITHOUT_ARCHIVES();
  const auto files = testing::ManifestFiles(".irpa");
  ASSERT_EQ(files.size(), 3u);
  for (const std::string& name : files) {
    auto bytes = testing::ReadArchive(name);
    auto entries = ParseIrpa(Span(bytes), name);
    ASSERT_TRUE(IsOk(entries)) << name;
    testing::ExpectMatchesManifest(name, *entries);
  }
}

TEST(IrpaParserTest, EveryTruncationIsRefused) {
  RT_SKIP_WITHOUT_ARCHIVES();
  const auto bytes = testing::ReadArchive("built.irpa");
  auto entries = ParseIrpa(Span(bytes), "built.irpa");
  ASSERT_TRUE(IsOk(entries));
  uint64_t data_end = 0;
  for (const ParameterEntry& entry : *entries) {
    data_end = std::max(data_end, entry.offset + entry.stored_length);
  }
  // Cut anywhere before the last stored byte: headers, entry table, metadata, data.
  for (size_t size = 0; size < data_end; ++size) {
    SCOPED_TRACE(size);
    auto cut = ParseIrpa(Span(bytes).first(size), "cut.irpa");
    ASSERT_TRUE(IsError(cut, StatusCode::kOutOfRange, "cut.irpa"));
    for (const ParameterEntry& entry : *entries) {
      if (entry.kind == ParameterKind::kData && size > entry.offset &&
          size < entry.offset + entry.stored_length) {
        EXPECT_TRUE(IsError(cut, StatusCode::kOutOfRange, "'" + entry.key + "'"));
      }
    }
  }
  // Only the padding after the data may go.
  EXPECT_TRUE(IsOk(ParseIrpa(Span(bytes).first(data_end), "cut.irpa")));
}

class IrpaBadArchiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (testing::ArchiveDir().empty()) GTEST_SKIP() << "no generated archives";
    bytes_ = testing::ReadArchive("built.irpa");
    for (const RawEntry& entry : RawEntries(bytes_)) {
      (entry.type == 2 ? data_ : splats_).push_back(entry);
    }
    ASSERT_EQ(data_.size(), 2u);
    ASSERT_EQ(splats_.size(), 2u);
  }
  base::StatusOr<std::vector<ParameterEntry>> Parse() {
    return ParseIrpa(Span(bytes_), "bad.irpa");
  }

  std::vector<uint8_t> bytes_;
  std::vector<RawEntry> data_, splats_;
};

TEST_F(IrpaBadArchiveTest, DataPastTheEnd) {
  PutU64(bytes_, data_[0].at + kStorage, 1 << 20);
  EXPECT_TRUE(IsError(Parse(), StatusCode::kOutOfRange, "'" + data_[0].key + "'"));
  EXPECT_TRUE(IsError(Parse(), StatusCode::kOutOfRange, "bad.irpa"));
}

TEST_F(IrpaBadArchiveTest, LengthOverflow) {
  PutU64(bytes_, data_[1].at + kStorage + 8, ~uint64_t{0});
  EXPECT_TRUE(IsError(Parse(), StatusCode::kOutOfRange, "'" + data_[1].key + "'"));
  PutU64(bytes_, data_[1].at + kStorage + 8, 8);
  PutU64(bytes_, data_[1].at + kStorage, ~uint64_t{0} - 4);
  EXPECT_TRUE(IsError(Parse(), StatusCode::kOutOfRange, "'" + data_[1].key + "'"));
}

TEST_F(IrpaBadArchiveTest, OverlappingData) {
  PutU64(bytes_, data_[1].at + kStorage, GetU64(bytes_, data_[0].at + kStorage));
  auto result = Parse();
  EXPECT_TRUE(IsError(result, StatusCode::kInvalidArgument, "overlaps"));
  EXPECT_TRUE(IsError(result, StatusCode::kInvalidArgument, "'" + data_[0].key + "'"));
  EXPECT_TRUE(IsError(result, StatusCode::kInvalidArgument, "'" + data_[1].key + "'"));
}

TEST_F(IrpaBadArchiveTest, Misaligned) {
  ASSERT_EQ(GetU64(bytes_, data_[0].at + kAlignment), 64u);
  PutU64(bytes_, data_[0].at + kStorage, GetU64(bytes_, data_[0].at + kStorage) + 4);
  EXPECT_TRUE(IsError(Parse(), StatusCode::kInvalidArgument, "'" + data_[0].key + "'"));
  PutU64(bytes_, data_[0].at + kAlignment, 24);
  EXPECT_TRUE(IsError(Parse(), StatusCode::kInvalidArgument, "power of two"));
}

TEST_F(IrpaBadArchiveTest, SharedMetadataIsBounded) {
  // Every entry's metadata is the whole metadata segment and more entries than fit the file's
  // size in copies: refused before the copies add up.
  PutU64(bytes_, kMetadataSegment + 8, bytes_.size() - GetU64(bytes_, kMetadataSegment));
  for (const RawEntry& entry : RawEntries(bytes_)) {
    PutU64(bytes_, entry.at + kName + 16, 0);
    PutU64(bytes_, entry.at + kName + 24, bytes_.size() - GetU64(bytes_, kMetadataSegment));
  }
  EXPECT_TRUE(IsError(Parse(), StatusCode::kInvalidArgument, "more bytes than the file has"));
}

TEST_F(IrpaBadArchiveTest, DuplicateKey) {
  PutU64(bytes_, data_[1].at + kName, GetU64(bytes_, data_[0].at + kName));
  PutU64(bytes_, data_[1].at + kName + 8, GetU64(bytes_, data_[0].at + kName + 8));
  EXPECT_TRUE(IsError(Parse(), StatusCode::kAlreadyExists, "'" + data_[0].key + "'"));
}

TEST_F(IrpaBadArchiveTest, ExternalEntryIsUnimplemented) {
  PutU32(bytes_, data_[0].at + kType, 3);
  EXPECT_TRUE(IsError(Parse(), StatusCode::kUnimplemented, "'" + data_[0].key + "'"));
  PutU32(bytes_, data_[0].at + kType, 9);
  EXPECT_TRUE(IsError(Parse(), StatusCode::kUnimplemented, "unknown entry type 9"));
}

TEST_F(IrpaBadArchiveTest, SkipEntriesAreDropped) {
  PutU32(bytes_, data_[0].at + kType, 0);
  auto result = Parse();
  ASSERT_TRUE(IsOk(result));
  EXPECT_EQ(result->size(), 3u);
}

TEST_F(IrpaBadArchiveTest, BadSplats) {
  bytes_[splats_[0].at + kPatternLength] = 3;
  EXPECT_TRUE(IsError(Parse(), StatusCode::kInvalidArgument, "'" + splats_[0].key + "'"));
  bytes_[splats_[0].at + kPatternLength] = 4;
  PutU64(bytes_, splats_[0].at + kStorage, 6);  // length not whole patterns
  EXPECT_TRUE(IsError(Parse(), StatusCode::kInvalidArgument, "'" + splats_[0].key + "'"));
  PutU64(bytes_, splats_[0].at + kEntrySize, 70);  // shorter than a splat entry
  EXPECT_TRUE(IsError(Parse(), StatusCode::kOutOfRange, "'" + splats_[0].key + "'"));
}

TEST_F(IrpaBadArchiveTest, BadNames) {
  PutU64(bytes_, data_[0].at + kName + 8, 1 << 20);
  EXPECT_TRUE(IsError(Parse(), StatusCode::kOutOfRange, "metadata segment"));
  PutU64(bytes_, data_[0].at + kName, ~uint64_t{0});
  EXPECT_TRUE(IsError(Parse(), StatusCode::kOutOfRange, "bad.irpa"));
}

TEST_F(IrpaBadArchiveTest, BadHeaders) {
  auto original = bytes_;
  PutU64(bytes_, kEntryCount, ~uint64_t{0});
  EXPECT_TRUE(IsError(Parse(), StatusCode::kOutOfRange, "entries"));
  bytes_ = original;
  PutU64(bytes_, kEntrySegment + 8, 1 << 30);
  EXPECT_TRUE(IsError(Parse(), StatusCode::kOutOfRange, "entry segment"));
  bytes_ = original;
  PutU64(bytes_, kMetadataSegment, ~uint64_t{0});
  EXPECT_TRUE(IsError(Parse(), StatusCode::kOutOfRange, "metadata segment"));
  bytes_ = original;
  bytes_[4] = 1;  // version 1.0
  EXPECT_TRUE(IsError(Parse(), StatusCode::kIncompatible, "1.0"));
  bytes_ = original;
  bytes_[0] = 'X';
  EXPECT_TRUE(IsError(Parse(), StatusCode::kInvalidArgument, "magic"));
  bytes_ = original;
  PutU64(bytes_, 8, 96);  // header size
  EXPECT_TRUE(IsError(Parse(), StatusCode::kInvalidArgument, "header size"));
  bytes_ = original;
  PutU64(bytes_, data_[0].at + kEntrySize, 1 << 20);
  EXPECT_TRUE(IsError(Parse(), StatusCode::kOutOfRange, "has size"));
}

TEST(IrpaParserTest, HeaderChainMovesForward) {
  RT_SKIP_WITHOUT_ARCHIVES();
  auto bytes = testing::ReadArchive("chained.irpa");
  for (uint64_t next : {uint64_t{16}, uint64_t{87}, bytes.size() * 2, ~uint64_t{0}}) {
    SCOPED_TRACE(next);
    PutU64(bytes, kNextHeader, next);
    EXPECT_TRUE(IsError(ParseIrpa(Span(bytes), "chain.irpa"), StatusCode::kOutOfRange,
                        "chain.irpa"));
  }
  // A second header cut short.
  bytes = testing::ReadArchive("chained.irpa");
  const size_t second = GetU64(bytes, kNextHeader);
  EXPECT_TRUE(IsError(ParseIrpa(Span(bytes).first(second + 40), "chain.irpa"),
                      StatusCode::kOutOfRange, "truncated"));
  // Both halves hold a key: the chain is refused as a duplicate.
  auto first = RawEntries(bytes);
  std::vector<uint8_t> doubled(bytes.begin(), bytes.begin() + second);
  doubled.insert(doubled.end(), bytes.begin(), bytes.begin() + second);
  PutU64(doubled, second + kNextHeader, 0);
  EXPECT_TRUE(IsError(ParseIrpa(Span(doubled), "chain.irpa"), StatusCode::kAlreadyExists,
                      "'" + first[0].key + "'"));
}

}  // namespace
}  // namespace iree_rt::io
