// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::Executable::DescribeExports on executables iree-compile 3.13.0 wrote: the half of
// loading that needs no GPU, so it runs everywhere the cuda driver is built.
#include "drivers/cuda/executable.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "status_matchers.h"
#include "vm/bytecode/module_image.h"

namespace iree_rt::drivers::cuda {
namespace {

// The compiled programs: $RT_CUDA_TEST_PROGRAMS_DIR when set (a GPU machine running a payload),
// else the build tree.
std::string ProgramPath(const char* name) {
  const char* dir = std::getenv("RT_CUDA_TEST_PROGRAMS_DIR");
  return std::string(dir ? dir : RT_CUDA_TEST_PROGRAMS_DIR) + "/" + name;
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file) << "cannot open " << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

// The module's CUDA executables (rodata starting with the "CDA1" header), copied out of the
// module so that they are aligned as the hal module's copies are, and its other rodata strings.
struct ModuleParts {
  std::vector<std::vector<uint8_t>> executables;
  std::vector<std::string> strings;
};

ModuleParts Split(const std::vector<uint8_t>& module_bytes) {
  ModuleParts parts;
  auto image = vm::bytecode::ModuleImage::Parse(module_bytes, vm::bytecode::kFeatureAll);
  EXPECT_TRUE(image.ok()) << image.status().ToString();
  if (!image.ok()) return parts;
  for (std::span<const uint8_t> rodata : (*image)->rodata()) {
    if (rodata.size() >= 64 && std::memcmp(rodata.data(), "CDA1", 4) == 0) {
      parts.executables.emplace_back(rodata.begin(), rodata.end());
    } else {
      parts.strings.emplace_back(reinterpret_cast<const char*>(rodata.data()), rodata.size());
    }
  }
  return parts;
}

// A program as iree-import-onnx writes it: its dispatches are "main_graph$async_dispatch_...",
// which the PTX kernel names spell with '_' for '$'. The names the program looks up
// (hal.executable.lookup.function with a rodata string) must be the exports' names.
TEST(CudaExecutableTest, ExportsAreNamedAsTheProgramLooksThemUp) {
  ModuleParts parts = Split(ReadFile(ProgramPath("onnx_relu_slice_cuda.vmfb")));
  ASSERT_EQ(parts.executables.size(), 1u);
  auto exports = Executable::DescribeExports(parts.executables[0], KernelLimits{});
  ASSERT_TRUE(exports.ok()) << exports.status().ToString();
  ASSERT_FALSE(exports->empty());
  for (const hal::ExportInfo& info : *exports) {
    EXPECT_NE(info.name.find("main_graph$async_dispatch_"), std::string::npos) << info.name;
    EXPECT_NE(std::find(parts.strings.begin(), parts.strings.end(), info.name), parts.strings.end())
        << "no lookup of export '" << info.name << "' in the program";
  }
}

// Every export is described with the program's bindings, and a device too small for a kernel is
// refused with the export named as the program names it.
TEST(CudaExecutableTest, DescribesEveryExportWithinTheLimits) {
  ModuleParts parts = Split(ReadFile(ProgramPath("onnx_relu_slice_cuda.vmfb")));
  ASSERT_EQ(parts.executables.size(), 1u);
  auto exports = Executable::DescribeExports(parts.executables[0], KernelLimits{});
  ASSERT_TRUE(exports.ok()) << exports.status().ToString();
  for (const hal::ExportInfo& info : *exports) {
    EXPECT_EQ(info.binding_count, 2u) << info.name;
    EXPECT_GE(info.workgroup_size[0], 1u);
  }
  KernelLimits tiny;
  tiny.max_threads_per_block = 1;
  tiny.max_block_dims[0] = tiny.max_block_dims[1] = tiny.max_block_dims[2] = 1;
  auto refused = Executable::DescribeExports(parts.executables[0], tiny);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), base::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("main_graph$async_dispatch_"), std::string::npos)
      << refused.status().ToString();
}

}  // namespace
}  // namespace iree_rt::drivers::cuda
