// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ParameterIndex: several files merged into one scope; a key in two files is refused.
#include "io/parameter_index.h"

#include <gtest/gtest.h>

#include "archive_test_util.h"
#include "io/irpa_parser.h"
#include "io/parameter_archive.h"
#include "status_matchers.h"

namespace iree_rt::io {
namespace {

using base::StatusCode;
using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

ParameterEntry Data(std::string key, uint64_t offset, uint64_t length) {
  ParameterEntry entry;
  entry.key = std::move(key);
  entry.offset = offset;
  entry.length = entry.stored_length = length;
  return entry;
}

TEST(ParameterIndexTest, MergesFilesAndLooksUp) {
  ParameterIndex index("model");
  auto first = index.AddFile("rank0.irpa", {Data("a", 0, 4), Data("b", 4, 4)});
  ASSERT_TRUE(IsOk(first));
  EXPECT_EQ(*first, 0u);
  auto second = index.AddFile("rank1.irpa", {Data("c", 0, 8)});
  ASSERT_TRUE(IsOk(second));
  EXPECT_EQ(*second, 1u);
  ASSERT_EQ(index.entries().size(), 3u);
  auto c = index.Lookup("c");
  ASSERT_TRUE(IsOk(c));
  EXPECT_EQ((*c)->file_index, 1u);
  EXPECT_EQ(index.files()[(*c)->file_index], "rank1.irpa");
  EXPECT_EQ(index.Find("a")->file_index, 0u);
  EXPECT_TRUE(IsError(index.Lookup("zz"), StatusCode::kNotFound, "'zz'"));
  EXPECT_TRUE(IsError(index.Lookup("zz"), StatusCode::kNotFound, "'model'"));
}

TEST(ParameterIndexTest, DuplicateAcrossFilesNamesBoth) {
  ParameterIndex index("model");
  ASSERT_TRUE(IsOk(index.AddFile("rank0.irpa", {Data("a", 0, 4)})));
  auto result = index.AddFile("rank1.safetensors", {Data("x", 0, 4), Data("a", 4, 4)});
  EXPECT_TRUE(IsError(result, StatusCode::kAlreadyExists, "'a'"));
  EXPECT_TRUE(IsError(result, StatusCode::kAlreadyExists, "rank0.irpa"));
  EXPECT_TRUE(IsError(result, StatusCode::kAlreadyExists, "rank1.safetensors"));
  // The refused file left nothing behind.
  EXPECT_EQ(index.files().size(), 1u);
  EXPECT_EQ(index.Find("x"), nullptr);
  EXPECT_TRUE(IsError(index.AddFile("two.irpa", {Data("y", 0, 1), Data("y", 1, 1)}),
                      StatusCode::kAlreadyExists, "'y'"));
}

TEST(ParameterIndexTest, ValidateEntriesRefusesOverlapAndDuplicates) {
  std::vector<ParameterEntry> entries = {Data("a", 0, 8), Data("b", 8, 8), Data("c", 12, 2)};
  EXPECT_TRUE(IsError(ValidateEntries(entries, "f.gguf"), StatusCode::kInvalidArgument,
                      "'c' (bytes 12..) overlaps parameter 'b'"));
  entries[2].offset = 16;
  EXPECT_TRUE(IsOk(ValidateEntries(entries, "f.gguf")));
  entries[2].key = "a";
  EXPECT_TRUE(IsError(ValidateEntries(entries, "f.gguf"), StatusCode::kAlreadyExists, "'a'"));
}

TEST(ParameterIndexTest, TwoRealArchivesInOneScope) {
  RT_SKIP_WITHOUT_ARCHIVES();
  ParameterIndex index("model");
  for (const char* name : {"cli.irpa", "built.irpa"}) {
    auto bytes = testing::ReadArchive(name);
    auto entries = ParseIrpa(bytes, name);
    ASSERT_TRUE(IsOk(entries));
    ASSERT_TRUE(IsOk(index.AddFile(name, std::move(entries).value())));
  }
  EXPECT_EQ(index.files()[index.Find("model.w0")->file_index], "built.irpa");
  EXPECT_EQ(index.files()[index.Find("weights.a")->file_index], "cli.irpa");
  // built.irpa's keys again, from chained.irpa: refused, naming both files.
  auto bytes = testing::ReadArchive("chained.irpa");
  auto entries = ParseIrpa(bytes, "chained.irpa");
  ASSERT_TRUE(IsOk(entries));
  auto result = index.AddFile("chained.irpa", std::move(entries).value());
  EXPECT_TRUE(IsError(result, StatusCode::kAlreadyExists, "built.irpa"));
  EXPECT_TRUE(IsError(result, StatusCode::kAlreadyExists, "chained.irpa"));
}

TEST(ParameterArchiveTest, ChoosesTheParserByExtension) {
  RT_SKIP_WITHOUT_ARCHIVES();
  for (const char* extension : {".irpa", ".safetensors", ".gguf"}) {
    for (const std::string& name : testing::ManifestFiles(extension)) {
      auto bytes = testing::ReadArchive(name);
      auto entries = ParseParameterArchive(bytes, name);
      ASSERT_TRUE(IsOk(entries)) << name;
      testing::ExpectMatchesManifest(name, *entries);
    }
  }
  auto bytes = testing::ReadArchive("v3.gguf");
  EXPECT_TRUE(IsError(ParseParameterArchive(bytes, "weights.bin"), StatusCode::kUnimplemented,
                      "weights.bin"));
  // The extension decides: gguf bytes under an .irpa name are not an IRPA archive.
  EXPECT_TRUE(IsError(ParseParameterArchive(bytes, "v3.irpa"), StatusCode::kInvalidArgument,
                      "magic"));
}

TEST(ParameterArchiveTest, FormatsByName) {
  for (const char* name : {"irpa", "safetensors", "gguf"}) {
    auto format = ArchiveFormatFromString(name);
    ASSERT_TRUE(IsOk(format)) << name;
    EXPECT_EQ(ArchiveFormatName(*format), name);
    auto from_file = ArchiveFormatFromName(std::string("dir.v2/model.") + name);
    ASSERT_TRUE(IsOk(from_file)) << name;
    EXPECT_EQ(*from_file, *format);
  }
  EXPECT_TRUE(IsError(ArchiveFormatFromString(".irpa"), StatusCode::kInvalidArgument,
                      "unknown parameter archive format '.irpa' (irpa, safetensors or gguf)"));
  EXPECT_TRUE(IsError(ArchiveFormatFromName("model.irpa.bak"), StatusCode::kUnimplemented, "model.irpa.bak"));
  EXPECT_TRUE(IsError(ArchiveFormatFromName("irpa"), StatusCode::kUnimplemented, "irpa"));
}

TEST(ParameterIndexTest, EntriesStayPutAsTheIndexGrows) {
  ParameterIndex index("model");
  std::vector<ParameterEntry> first(1);
  first[0].key = "a";
  ASSERT_TRUE(IsOk(index.AddFile("one", std::move(first))));
  const ParameterEntry* a = index.Find("a");
  const char* key = a->key.c_str();
  for (int i = 0; i < 100; ++i) {
    std::vector<ParameterEntry> more(1);
    more[0].key = "k" + std::to_string(i);
    ASSERT_TRUE(IsOk(index.AddFile("more", std::move(more))));
  }
  EXPECT_EQ(index.Find("a"), a);
  EXPECT_EQ(index.entries()[0].key.c_str(), key);
}

}  // namespace
}  // namespace iree_rt::io
