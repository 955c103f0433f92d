// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// base::MappedFile: whole-file read-only mappings, and the errors that name the path.
// (Lives with the loader tests: modules are what it maps.)
#include "base/mapped_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "test_util.h"
#include "vm/bytecode/module_image.h"

namespace iree_rt::base {
namespace {

using vm::bytecode::testing::IsError;

std::string TempPath(const char* name) {
  return std::string(RT_TEST_OUTPUT_DIR) + "/mapped_file_test_" + std::to_string(::getpid()) + "_" +
         name;
}

TEST(MappedFileTest, MapsWholeFile) {
  const std::string path = vm::bytecode::testing::ModulePath("vm_features", /*plain=*/false);
  auto file = MappedFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  const std::vector<uint8_t> expected = vm::bytecode::testing::ReadModule("vm_features", false);
  ASSERT_EQ(file.value()->span().size(), expected.size());
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), file.value()->span().begin()));
  EXPECT_EQ(file.value()->path(), path);
  // Page-aligned, so the module FlatBuffer can be read in place.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(file.value()->span().data()) % 4096, 0u);
}

TEST(MappedFileTest, ModuleImageOverMapping) {
  auto file = MappedFile::Open(vm::bytecode::testing::ModulePath("big_constant", /*plain=*/true));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  Ref<MappedFile> keep = file.value();
  EXPECT_EQ(keep->ref_count_for_testing(), 2);
  file = Status(StatusCode::kCancelled, "drop the first reference");
  auto image = vm::bytecode::ModuleImage::Parse(keep->span(), vm::bytecode::kFeatureAll);
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  EXPECT_EQ(image.value()->exports()[0].name, "big_constant");
  EXPECT_EQ(image.value()->rodata()[0].size() >= 4400, true);
}

TEST(MappedFileTest, EmptyFile) {
  const std::string path = TempPath("empty");
  { std::ofstream(path, std::ios::binary | std::ios::trunc); }
  auto file = MappedFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_TRUE(file.value()->span().empty());
  EXPECT_TRUE(IsError(vm::bytecode::ModuleImage::Parse(file.value()->span(), 0).status(),
                      StatusCode::kInvalidArgument, "module contents are 0 bytes"));
  std::remove(path.c_str());
}

TEST(MappedFileTest, MissingFile) {
  const std::string path = TempPath("does_not_exist");
  EXPECT_TRUE(IsError(MappedFile::Open(path).status(), StatusCode::kNotFound,
                      "cannot open '" + path + "': No such file or directory"));
  EXPECT_TRUE(IsError(MappedFile::Open(path + "/child").status(), StatusCode::kNotFound, path));
  EXPECT_TRUE(IsError(MappedFile::Open("").status(), StatusCode::kNotFound, "cannot open ''"));
}

TEST(MappedFileTest, NotARegularFile) {
  EXPECT_TRUE(IsError(MappedFile::Open(RT_TEST_OUTPUT_DIR).status(), StatusCode::kInvalidArgument,
                      std::string("cannot map '") + RT_TEST_OUTPUT_DIR + "': not a regular file"));
  EXPECT_TRUE(IsError(MappedFile::Open("/dev/null").status(), StatusCode::kInvalidArgument,
                      "not a regular file"));
}

TEST(MappedFileTest, PermissionDenied) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads files regardless of their mode";
  const std::string path = TempPath("unreadable");
  { std::ofstream(path, std::ios::binary) << "x"; }
  ASSERT_EQ(::chmod(path.c_str(), 0), 0);
  EXPECT_TRUE(IsError(MappedFile::Open(path).status(), StatusCode::kPermissionDenied, path));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace iree_rt::base
