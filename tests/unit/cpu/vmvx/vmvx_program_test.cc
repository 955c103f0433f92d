// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cpu::VmvxProgram on hand-written VMVX executables (programs/*.mlir, compiled with
// iree-compile --compile-mode=vm): dispatches run on many threads at once, "__" exports with the
// dispatch signature (the compiler's builtins) are entry points, and bad executables
// (not a module, a missing vmvx import, a wrong entry signature, a program that keeps a binding)
// fail with statuses that name what is wrong.
#include "drivers/cpu/vmvx/vmvx_program.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "status_matchers.h"

#ifndef RT_TEST_VMVX_PROGRAMS_DIR
#define RT_TEST_VMVX_PROGRAMS_DIR ""  // no iree-compile: the program tests skip
#endif

namespace iree_rt::drivers::cpu {
namespace {

using base::StatusCode;
using testing::IsError;
using testing::IsOk;

#define RT_SKIP_WITHOUT_PROGRAMS() \
  if (ReadProgram("good").empty()) GTEST_SKIP() << "programs not compiled (no iree-compile)"

std::vector<uint8_t> ReadProgram(const std::string& name) {
  std::ifstream file(std::string(RT_TEST_VMVX_PROGRAMS_DIR) + "/vmvx_" + name + ".vmfb",
                     std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

base::Status Dispatch(const VmvxProgram& program, uint32_t count, uint32_t constant,
                      std::vector<int32_t>& out, uint32_t ordinal = 0) {
  const uint32_t counts[3] = {count, 1, 1};
  const uint32_t constants[1] = {constant};
  void* const ptrs[1] = {out.data()};
  const size_t lengths[1] = {out.size() * sizeof(int32_t)};
  const uint32_t constant_count = program.export_info(ordinal).constant_count;
  DispatchStateV0 state;
  RT_RETURN_IF_ERROR(program.PrepareDispatch(ordinal, counts, {constants, constant_count}, ptrs,
                                             lengths, 1, &state));
  for (uint32_t x = 0; x < count; ++x) {
    RT_RETURN_IF_ERROR(program.RunWorkgroup(ordinal, state, x, 0, 0, 0, nullptr, 0));
  }
  return base::Status::Ok();
}

TEST(VmvxProgramTest, RunsWorkgroupsConcurrently) {
  RT_SKIP_WITHOUT_PROGRAMS();
  std::vector<uint8_t> data = ReadProgram("good");
  ASSERT_FALSE(data.empty());
  auto program = VmvxProgram::Load(data, {});
  ASSERT_TRUE(IsOk(program));
  ASSERT_EQ((*program)->export_count(), 1u);
  EXPECT_EQ((*program)->export_info(0).name, "store_id");
  EXPECT_EQ((*program)->export_info(0).binding_count, 1u);
  EXPECT_EQ((*program)->export_info(0).constant_count, 1u);
  std::vector<std::thread> threads;
  std::vector<std::vector<int32_t>> outs(4, std::vector<int32_t>(64, -1));
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] { EXPECT_TRUE(IsOk(Dispatch(**program, 64, 100 * t, outs[t]))); });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < 4; ++t) {
    for (int x = 0; x < 64; ++x) ASSERT_EQ(outs[t][x], 100 * t + x);
  }
  // Writes past the binding are the microkernel's bounds error, naming the export and workgroup.
  std::vector<int32_t> small(2, 0);
  EXPECT_TRUE(IsError(Dispatch(**program, 3, 0, small), StatusCode::kOutOfRange, "workgroup (2, 0, 0)"));
}

// The compiler links its builtins (__builtin_splat_i64 for i64 fills) into a VMVX executable as
// exports named "__..." with the dispatch signature: they are entry points, in export order;
// "__" exports of other signatures (__init, __set_constants) are not.
TEST(VmvxProgramTest, BuiltinExportsAreEntryPoints) {
  RT_SKIP_WITHOUT_PROGRAMS();
  auto program = VmvxProgram::Load(ReadProgram("builtin_export"), {});
  ASSERT_TRUE(IsOk(program));
  ASSERT_EQ((*program)->export_count(), 2u);
  EXPECT_EQ((*program)->export_info(0).name, "__builtin_fill");
  EXPECT_EQ((*program)->export_info(0).binding_count, 1u);
  EXPECT_EQ((*program)->export_info(1).name, "store_id");
  EXPECT_EQ((*program)->export_info(1).constant_count, 1u);
  std::vector<int32_t> out(4, -1);
  ASSERT_TRUE(IsOk(Dispatch(**program, 4, 0, out, /*ordinal=*/0)));
  EXPECT_EQ(out, std::vector<int32_t>({7, 7, 7, 7}));
  ASSERT_TRUE(IsOk(Dispatch(**program, 2, 10, out, /*ordinal=*/1)));
  EXPECT_EQ(out, std::vector<int32_t>({10, 11, 7, 7}));
}

TEST(VmvxProgramTest, BadExecutablesAreErrors) {
  RT_SKIP_WITHOUT_PROGRAMS();
  const uint8_t junk[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_TRUE(IsError(VmvxProgram::Load(junk, {}).status(), StatusCode::kInvalidArgument,
                      "loading VMVX executable"));
  EXPECT_FALSE(VmvxProgram::Load({}, {}).ok());
  EXPECT_TRUE(IsError(VmvxProgram::Load(ReadProgram("bad_import"), {}).status(), StatusCode::kNotFound,
                      "no_such_kernel"));
  EXPECT_TRUE(IsError(VmvxProgram::Load(ReadProgram("bad_signature"), {}).status(),
                      StatusCode::kInvalidArgument, "entry point 'entry' has signature '0i_v'"));
  const uint32_t constants[1] = {1};
  EXPECT_TRUE(IsError(VmvxProgram::Load(ReadProgram("good"), constants).status(),
                      StatusCode::kFailedPrecondition, "constants"));
}

TEST(VmvxProgramTest, KeepingABindingFailsTheWorkgroup) {
  RT_SKIP_WITHOUT_PROGRAMS();
  auto program = VmvxProgram::Load(ReadProgram("keeps_buffer"), {});
  ASSERT_TRUE(IsOk(program));
  std::vector<int32_t> out(4, 0);
  EXPECT_TRUE(IsError(Dispatch(**program, 1, 0, out), StatusCode::kFailedPrecondition,
                      "kept a reference"));
  EXPECT_TRUE(IsError(Dispatch(**program, 1, 0, out), StatusCode::kFailedPrecondition,
                      "kept a reference"));
}

TEST(VmvxProgramTest, DispatchValidation) {
  RT_SKIP_WITHOUT_PROGRAMS();
  auto program = VmvxProgram::Load(ReadProgram("good"), {});
  ASSERT_TRUE(IsOk(program));
  const uint32_t counts[3] = {1, 1, 1};
  DispatchStateV0 state;
  EXPECT_TRUE(IsError((*program)->PrepareDispatch(1, counts, {}, {}, {}, 1, &state),
                      StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError((*program)->PrepareDispatch(0, counts, {}, {}, {}, 1, &state),
                      StatusCode::kInvalidArgument, "store_id"));
}

}  // namespace
}  // namespace iree_rt::drivers::cpu
