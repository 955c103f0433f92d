// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ParseArchive on both layouts iree-compile writes, and on broken containers.
#include "vm/bytecode/archive.h"

#include <gtest/gtest.h>

#include <cstring>

#include "test_util.h"

namespace iree_rt::vm::bytecode {
namespace {

using base::StatusCode;
using testing::IsError;
using testing::ReadModule;

uint32_t LoadU32(const std::vector<uint8_t>& bytes, size_t offset) {
  uint32_t value;
  std::memcpy(&value, bytes.data() + offset, 4);
  return value;
}

class ArchiveLayoutTest : public ::testing::TestWithParam<const char*> {};

// The ZIP writer puts the size prefix at offset 64 behind a 64-byte local header, and pads the
// FlatBuffer (zeros counted in the prefix) so that it ends on a 64-byte boundary.
TEST_P(ArchiveLayoutTest, Zip) {
  std::vector<uint8_t> bytes = ReadModule(GetParam(), /*plain=*/false);
  auto layout = ParseArchive(bytes);
  ASSERT_TRUE(layout.ok()) << layout.status().ToString();
  EXPECT_TRUE(layout->is_zip);
  EXPECT_EQ(layout->prefix_offset, 64u);
  const uint32_t n = LoadU32(bytes, 64);
  EXPECT_EQ(layout->size_prefixed_flatbuffer.data(), bytes.data() + 64);
  EXPECT_EQ(layout->size_prefixed_flatbuffer.size(), 4u + n);
  EXPECT_EQ((68 + n) % 64, 0u);
  EXPECT_EQ(layout->rodata_base, 68u + n);
  EXPECT_EQ(layout->rodata.data(), bytes.data() + layout->rodata_base);
  EXPECT_EQ(layout->rodata.size(), bytes.size() - layout->rodata_base);
  EXPECT_EQ(std::memcmp(bytes.data() + 72, "IREE", 4), 0);
}

// Plain: the prefix at 0 is the exact FlatBuffer size; zeros pad up to the rodata base.
TEST_P(ArchiveLayoutTest, Plain) {
  std::vector<uint8_t> bytes = ReadModule(GetParam(), /*plain=*/true);
  auto layout = ParseArchive(bytes);
  ASSERT_TRUE(layout.ok()) << layout.status().ToString();
  EXPECT_FALSE(layout->is_zip);
  EXPECT_EQ(layout->prefix_offset, 0u);
  const uint32_t n = LoadU32(bytes, 0);
  EXPECT_EQ(layout->size_prefixed_flatbuffer.size(), 4u + n);
  EXPECT_EQ(layout->rodata_base, (4u + n + 63) / 64 * 64);
  EXPECT_LE(layout->rodata_base, bytes.size());
  for (size_t i = 4 + n; i < layout->rodata_base; ++i) EXPECT_EQ(bytes[i], 0) << i;
}

INSTANTIATE_TEST_SUITE_P(Modules, ArchiveLayoutTest,
                         ::testing::Values("scalar", "big_constant", "vm_features", "locations"));

// A module whose FlatBuffer ends exactly at the end of the file has an empty rodata region.
TEST(ArchiveTest, RodataBasePastEnd) {
  std::vector<uint8_t> bytes = ReadModule("scalar", /*plain=*/true);
  bytes.resize(4 + LoadU32(bytes, 0));
  auto layout = ParseArchive(bytes);
  ASSERT_TRUE(layout.ok()) << layout.status().ToString();
  EXPECT_GE(layout->rodata_base, bytes.size());
  EXPECT_TRUE(layout->rodata.empty());
}

TEST(ArchiveTest, TooShort) {
  EXPECT_TRUE(IsError(ParseArchive({}).status(), StatusCode::kInvalidArgument,
                      "module contents are 0 bytes; at least 16"));
  std::vector<uint8_t> bytes(15, 0);
  EXPECT_TRUE(IsError(ParseArchive(bytes).status(), StatusCode::kInvalidArgument,
                      "module contents are 15 bytes"));
}

TEST(ArchiveTest, ZipHeaderTruncated) {
  std::vector<uint8_t> bytes = {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0};
  EXPECT_TRUE(IsError(ParseArchive(bytes).status(), StatusCode::kInvalidArgument,
                      "module file is 10 bytes: too short for the 30-byte ZIP local file header"));
  bytes = ReadModule("scalar", /*plain=*/false);
  bytes[26] = 0xFF;  // file name length
  bytes[27] = 0xFF;
  EXPECT_TRUE(
      IsError(ParseArchive(bytes).status(), StatusCode::kInvalidArgument,
              "ZIP local file header (65590 bytes with name and extra field) runs past the end "
              "of the 1205-byte module file"));
  bytes = ReadModule("scalar", /*plain=*/false);
  bytes.resize(70);
  EXPECT_TRUE(IsError(ParseArchive(bytes).status(), StatusCode::kInvalidArgument,
                      "module contents after the ZIP header are 6 bytes"));
}

TEST(ArchiveTest, SizePrefixPastEnd) {
  std::vector<uint8_t> bytes = ReadModule("scalar", /*plain=*/true);
  const uint32_t huge = 0xFFFFFFF0u;
  std::memcpy(bytes.data(), &huge, 4);
  EXPECT_TRUE(
      IsError(ParseArchive(bytes).status(), StatusCode::kInvalidArgument,
              "FlatBuffer size prefix at offset 0 says 4294967280 bytes but only 956 follow it"));
  const uint32_t tiny = 4;
  std::memcpy(bytes.data(), &tiny, 4);
  EXPECT_TRUE(IsError(ParseArchive(bytes).status(), StatusCode::kInvalidArgument,
                      "too small for a root offset and file identifier"));
}

TEST(ArchiveTest, WrongIdentifier) {
  std::vector<uint8_t> bytes = ReadModule("scalar", /*plain=*/true);
  bytes[10] = 'X';
  EXPECT_TRUE(IsError(ParseArchive(bytes).status(), StatusCode::kInvalidArgument,
                      "file identifier is 'IRXE', expected 'IREE'"));
  bytes[8] = 0;
  EXPECT_TRUE(IsError(ParseArchive(bytes).status(), StatusCode::kInvalidArgument,
                      "file identifier is '\\x00RXE'"));
  // A ZIP whose first entry is something else.
  bytes = ReadModule("scalar", /*plain=*/false);
  bytes[72] = 'P';
  EXPECT_TRUE(IsError(ParseArchive(bytes).status(), StatusCode::kInvalidArgument,
                      "file identifier is 'PREE'"));
}

// FlatBuffers are read in place, so the size prefix must sit at an 8-byte aligned address.
TEST(ArchiveTest, MisalignedInMemory) {
  const std::vector<uint8_t> module = ReadModule("scalar", /*plain=*/true);
  std::vector<uint8_t> storage(module.size() + 8);
  std::memcpy(storage.data() + 4, module.data(), module.size());
  std::span<const uint8_t> shifted(storage.data() + 4, module.size());
  EXPECT_TRUE(IsError(ParseArchive(shifted).status(), StatusCode::kInvalidArgument,
                      "is not 8-byte aligned in memory"));
}

}  // namespace
}  // namespace iree_rt::vm::bytecode
