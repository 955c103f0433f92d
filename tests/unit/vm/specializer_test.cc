// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The load-time specialization (specializer.h) on real compiled modules: what a loaded module
// keeps to run its bytecode (the specialized copies and the call-site tables) stays within 2x
// the bytecode, and the rewrites the dispatch loop's fast paths rely on happen.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "base/ref_object.h"
#include "modules/hal/ref_types.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/instance.h"

namespace iree_rt::vm::bytecode {
namespace {

class Bytes : public base::RefObject {
 public:
  explicit Bytes(std::vector<uint8_t> bytes) : bytes(std::move(bytes)) {}
  std::vector<uint8_t> bytes;
};

base::StatusOr<base::Ref<BytecodeModule>> LoadFile(Instance& instance, const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return base::NotFoundError("cannot open ", path);
  auto holder = base::MakeRef<Bytes>(
      std::vector<uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()));
  // vector storage is at least 8-byte aligned, as Load needs.
  std::span<const uint8_t> span(holder->bytes);
  return BytecodeModule::Load(instance, span, std::move(holder));
}

std::vector<std::string> ModulesIn(const std::string& dir) {
  std::vector<std::string> paths;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".vmfb") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

class SpecializerTest : public ::testing::Test {
 protected:
  SpecializerTest() : instance_(Instance::Create()) {
    EXPECT_TRUE(modules::hal::RegisterRefTypes(*instance_).ok());
  }
  base::Ref<Instance> instance_;
};

TEST_F(SpecializerTest, DecodedFormWithinTwiceTheBytecode) {
  std::vector<std::string> paths = ModulesIn(RT_TEST_VM_PROGRAMS_DIR);
  for (const std::string& path : ModulesIn(RT_TEST_E2E_DIR)) paths.push_back(path);
  paths.push_back(RT_TEST_BENCH_VM_LOOP);
  uint64_t bytecode = 0, decoded = 0;
  int loaded = 0;
  for (const std::string& path : paths) {
    auto module = LoadFile(*instance_, path);
    ASSERT_TRUE(module.ok()) << path << ": " << module.status().ToString();
    const BytecodeModule& m = **module;
    ASSERT_GT(m.bytecode_bytes(), 0u) << path;
    EXPECT_LE(m.decoded_bytes(), 2 * m.bytecode_bytes())
        << path << ": " << m.decoded_bytes() << " decoded bytes for " << m.bytecode_bytes()
        << " bytes of bytecode";
    bytecode += m.bytecode_bytes();
    decoded += m.decoded_bytes();
    ++loaded;
  }
  EXPECT_GE(loaded, 6);
  std::printf("%d modules: %llu bytes of bytecode, %llu decoded (%.2fx)\n", loaded,
              static_cast<unsigned long long>(bytecode), static_cast<unsigned long long>(decoded),
              static_cast<double>(decoded) / static_cast<double>(bytecode));
}

TEST_F(SpecializerTest, BenchLoopIsSpecialized) {
  auto module = LoadFile(*instance_, RT_TEST_BENCH_VM_LOOP);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const SpecializeStats& stats = (*module)->specialize_stats();
  // Per loop: the header's compare + cond_br, the back edge (with one 64-bit block argument in
  // @loop), the i64 chain fma -> rem -> xor in @loop and the i32 chain mul -> xor -> shr -> add
  // in @sum.
  EXPECT_EQ(stats.fused_compares, 2u);
  EXPECT_GE(stats.planned_branches, 2u);
  EXPECT_EQ(stats.wide_remaps, 1u);
  EXPECT_GE(stats.chained_ops, 5u);
  EXPECT_GE(stats.direct_ext_ops, 2u);
  // Both back edges copy the loop-carried value from the held register (the increments are
  // quiet: add.i32 feeding no chained op).
  EXPECT_EQ(stats.held_copies, 2u);
}

}  // namespace
}  // namespace iree_rt::vm::bytecode
