// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// SystemLibrary and the system-elf-<arch> format on a kernel linked with
// --iree-llvmcpu-link-embedded=false.
#include "drivers/cpu/loader/system_library.h"

#include <gtest/gtest.h>

#include <cstring>

#include "drivers/cpu/loader/executable_library.h"
#include "drivers/cpu/loader/library_abi.h"
#include "test_util.h"

namespace iree_rt::drivers::cpu {
namespace {

using base::StatusCode;
using testing::IsError;
using testing::ReadTestExecutable;

std::string SystemFormat() { return "system-elf-" + std::string(ExecutableLibrary::HostArchName()); }

base::Status RunAbs(const ExecutableLibrary& library) {
  alignas(64) float input[2] = {-3.0f, 4.0f};
  alignas(64) float output[2] = {};
  void* bindings[2] = {input, output};
  const size_t lengths[2] = {sizeof(input), sizeof(output)};
  const uint32_t count[3] = {1, 1, 1};
  DispatchStateV0 state;
  RT_RETURN_IF_ERROR(library.PrepareDispatch(0, count, {}, bindings, lengths, 1, &state));
  RT_RETURN_IF_ERROR(library.RunWorkgroup(0, state, 0, 0, 0, 0, nullptr, 0));
  if (output[0] != 3.0f || output[1] != 4.0f) return base::InternalError("wrong abs result");
  return base::Status::Ok();
}

TEST(SystemLibraryTest, LoadsAndRunsThroughDlopen) {
  const std::vector<uint8_t> bytes = ReadTestExecutable("abs_system");
  auto library = ExecutableLibrary::Load(SystemFormat(), bytes, {});
  ASSERT_TRUE(library.ok()) << library.status().ToString();
  EXPECT_EQ((*library)->name(), "executable");
  ASSERT_EQ((*library)->export_count(), 1u);
  EXPECT_EQ((*library)->export_info(0).name, "abs");
  EXPECT_EQ((*library)->export_info(0).binding_count, 2u);
  EXPECT_TRUE(RunAbs(**library).ok());
  // A second copy is a distinct library (a distinct memfd inode).
  auto second = ExecutableLibrary::Load(SystemFormat(), bytes, {});
  ASSERT_TRUE(second.ok());
  EXPECT_NE(&(*library)->environment(), &(*second)->environment());
  EXPECT_TRUE(RunAbs(**second).ok());
}

TEST(SystemLibraryTest, DirectSymbolLookup) {
  const std::vector<uint8_t> bytes = ReadTestExecutable("abs_system");
  auto library = SystemLibrary::Load(bytes);
  ASSERT_TRUE(library.ok()) << library.status().ToString();
  EXPECT_NE((*library)->LookupSymbol(kLibraryQuerySymbol), nullptr);
  EXPECT_EQ((*library)->LookupSymbol("no_such_symbol"), nullptr);
}

TEST(SystemLibraryTest, EmbeddedOutputIsAlsoAValidSharedObject) {
  // The embedded format is a freestanding ET_DYN, which the platform loader accepts too.
  const std::vector<uint8_t> bytes = ReadTestExecutable("abs");
  auto library = ExecutableLibrary::Load(SystemFormat(), bytes, {});
  ASSERT_TRUE(library.ok()) << library.status().ToString();
  EXPECT_TRUE(RunAbs(**library).ok());
}

// The optional 48-byte trailer: magic, version, flags, then library and debug ranges.
std::vector<uint8_t> WithDebugFooter(std::vector<uint8_t> bytes, uint64_t library_offset,
                                     uint64_t library_size) {
  uint8_t footer[48] = {'I', 'R', 'E', 'E', 'D', 'B', 'G', 0};
  std::memcpy(footer + 16, &library_offset, 8);
  std::memcpy(footer + 24, &library_size, 8);
  const uint64_t debug_offset = bytes.size();
  std::memcpy(footer + 32, &debug_offset, 8);
  const char pdb[] = "not really a debug database";
  bytes.insert(bytes.end(), pdb, pdb + sizeof(pdb));
  bytes.insert(bytes.end(), footer, footer + sizeof(footer));
  return bytes;
}

TEST(SystemLibraryTest, DebugFooterSelectsTheLibraryRange) {
  const std::vector<uint8_t> bytes = ReadTestExecutable("abs_system");
  auto library = ExecutableLibrary::Load(SystemFormat(), WithDebugFooter(bytes, 0, bytes.size()), {});
  ASSERT_TRUE(library.ok()) << library.status().ToString();
  EXPECT_TRUE(RunAbs(**library).ok());
  EXPECT_TRUE(IsError(SystemLibrary::Load(WithDebugFooter(bytes, 16, bytes.size() + 4096)).status(),
                      StatusCode::kInvalidArgument, "debug footer library range"));
}

TEST(SystemLibraryTest, GarbageIsRejectedByDlopen) {
  std::vector<uint8_t> garbage(256, 0x5A);
  EXPECT_TRUE(IsError(SystemLibrary::Load(garbage).status(), StatusCode::kInvalidArgument,
                      "system library: dlopen failed"));
  EXPECT_TRUE(IsError(ExecutableLibrary::Load(SystemFormat(), ReadTestExecutable("abs_other_arch"), {})
                          .status(),
                      StatusCode::kInvalidArgument, "dlopen failed"));
}

}  // namespace
}  // namespace iree_rt::drivers::cpu
