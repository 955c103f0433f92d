// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Regression tests, in every build, for the bugs the fuzzers found (their crash inputs also sit in
// regressions/<harness>/ and run with the fuzz tests). Each names the input that found it.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>

#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz_allocator.h"
#include "hal/utils/buffer_view_text.h"
#include "vm/bytecode/module_image.h"

namespace iree_rt::fuzz {
namespace {

// regressions/tensor_text/empty_view_huge_outer_dim.txt: a view with no elements but an outer
// dimension of 8e14 made FormatBufferView print `[]` 8e14 times (a hang, then out of memory).
TEST(FuzzRegressionTest, EmptyViewWithHugeOuterDimensionFormatsBounded) {
  FuzzAllocator allocator;
  auto view = hal::utils::ParseBufferView("800000000000004x0xui2", allocator);
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  const auto start = std::chrono::steady_clock::now();
  auto text = hal::utils::FormatBufferView(*view.value(), 3);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(text.value(), "800000000000004x0xui2=[][][]...");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  auto nested = hal::utils::ParseBufferView("1000000x1000000x0xf32", allocator);
  ASSERT_TRUE(nested.ok());
  text = hal::utils::FormatBufferView(*nested.value(), 2);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text.value(), "1000000x1000000x0xf32=[[]...]...");
  // Small empty views print every sub-array, as before.
  auto small = hal::utils::ParseBufferView("3x0xf32", allocator);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(hal::utils::FormatBufferView(*small.value(), 1024).value(), "3x0xf32=[][][]");
}

std::vector<uint8_t> ReadRegression(const std::string& name) {
  std::ifstream file(std::string(RT_FUZZ_REGRESSIONS_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(file.good()) << name;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

// regressions/module/bad_field_diagnosis_reads_unchecked_offset.vmfb: naming the bad field of a
// module that failed FlatBuffer verification read a field (rwdata_segments) before checking its
// offset: a heap overflow in the error path of ModuleImage::Parse.
TEST(FuzzRegressionTest, BadFieldDiagnosisChecksOffsetsFirst) {
  const std::vector<uint8_t> bytes =
      ReadRegression("module/bad_field_diagnosis_reads_unchecked_offset.vmfb");
  ASSERT_FALSE(bytes.empty());
  // The bytes are read in place and must be 8-byte aligned.
  std::vector<uint64_t> aligned((bytes.size() + 7) / 8);
  std::memcpy(aligned.data(), bytes.data(), bytes.size());
  auto image = vm::bytecode::ModuleImage::Parse(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(aligned.data()), bytes.size()),
      vm::bytecode::kFeatureAll);
  EXPECT_EQ(image.status().code(), base::StatusCode::kInvalidArgument);
  EXPECT_NE(image.status().message().find("failed structural verification"), std::string::npos)
      << image.status().ToString();
}

}  // namespace
}  // namespace iree_rt::fuzz
