// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/file_streams.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "cpu_test_util.h"

namespace iree_rt {
namespace {

using hal::utils::FileStreams;

using testing::IsError;
using testing::IsOk;

std::string ReadTwo(std::istream& stream) {
  char bytes[2] = {};
  stream.read(bytes, 2);
  return std::string(bytes, static_cast<size_t>(stream.gcount()));
}

TEST(FileStreamsTest, AtRestartsAndPlusContinues) {
  const std::string path = testing::TempPath("streams.bin");
  std::ofstream(path, std::ios::binary) << "abcdef";
  FileStreams streams;
  base::StatusOr<std::istream*> stream = streams.Open(path, /*continue_previous=*/true);
  ASSERT_TRUE(IsOk(stream));
  EXPECT_EQ(ReadTwo(*stream.value()), "ab");
  stream = streams.Open(path, true);
  ASSERT_TRUE(IsOk(stream));
  EXPECT_EQ(ReadTwo(*stream.value()), "cd");
  stream = streams.Open(path, false);
  ASSERT_TRUE(IsOk(stream));
  EXPECT_EQ(ReadTwo(*stream.value()), "ab");
  stream = streams.Open(path, true);
  ASSERT_TRUE(IsOk(stream));
  EXPECT_EQ(ReadTwo(*stream.value()), "cd");
  EXPECT_EQ(ReadTwo(*stream.value()), "ef");
  EXPECT_EQ(ReadTwo(*stream.value()), "");
  std::remove(path.c_str());
}

TEST(FileStreamsTest, MissingFileIsNotFound) {
  FileStreams streams;
  EXPECT_TRUE(IsError(streams.Open(testing::TempPath("does_not_exist"), false),
                      base::StatusCode::kNotFound, "cannot open file"));
}

}  // namespace
}  // namespace iree_rt
