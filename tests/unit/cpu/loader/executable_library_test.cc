// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExecutableLibrary on the real 3.13 test kernels: metadata, running workgroups over host
// arrays, dispatch validation, imports and the version handshake.
#include "drivers/cpu/loader/executable_library.h"

#include <gtest/gtest.h>

#include <cstring>

#include "drivers/cpu/loader/elf_module.h"
#include "drivers/cpu/loader/processor_info.h"
#include "test_util.h"

namespace iree_rt::drivers::cpu {
namespace {

using base::StatusCode;
using testing::ElfEditor;
using testing::IsError;
using testing::ReadTestExecutable;

std::string EmbeddedFormat() { return "embedded-elf-" + std::string(ExecutableLibrary::HostArchName()); }

std::unique_ptr<ExecutableLibrary> LoadKernel(
    const std::string& name, const ExecutableLibrary::ImportResolver& resolver = {}) {
  const std::vector<uint8_t> bytes = ReadTestExecutable(name);
  auto library = ExecutableLibrary::Load(EmbeddedFormat(), bytes, {}, resolver);
  EXPECT_TRUE(library.ok()) << name << ": " << library.status().ToString();
  return library.ok() ? std::move(*library) : nullptr;
}

// Prepares and runs every workgroup of one dispatch, serially, on processor 0.
base::Status Dispatch(const ExecutableLibrary& library, uint32_t ordinal,
                      std::array<uint32_t, 3> count, std::span<const uint32_t> constants,
                      std::vector<void*> bindings, std::vector<size_t> lengths) {
  DispatchStateV0 state;
  RT_RETURN_IF_ERROR(library.PrepareDispatch(ordinal, count.data(), constants, bindings, lengths,
                                             /*max_concurrency=*/1, &state));
  for (uint32_t z = 0; z < count[2]; ++z) {
    for (uint32_t y = 0; y < count[1]; ++y) {
      for (uint32_t x = 0; x < count[0]; ++x) {
        RT_RETURN_IF_ERROR(library.RunWorkgroup(ordinal, state, x, y, z, 0, nullptr, 0));
      }
    }
  }
  return base::Status::Ok();
}

TEST(ExecutableLibraryTest, Formats) {
  const std::string arch(ExecutableLibrary::HostArchName());
  ASSERT_FALSE(arch.empty());
  EXPECT_TRUE(ExecutableLibrary::SupportsFormat("embedded-elf-" + arch));
  EXPECT_TRUE(ExecutableLibrary::SupportsFormat("system-elf-" + arch));
  EXPECT_FALSE(ExecutableLibrary::SupportsFormat("embedded-elf-riscv_64"));
  EXPECT_FALSE(ExecutableLibrary::SupportsFormat("embedded-elf-" + arch + "x"));
  EXPECT_FALSE(ExecutableLibrary::SupportsFormat("static"));
  EXPECT_FALSE(ExecutableLibrary::SupportsFormat("vmvx-bytecode-fb"));
  const std::vector<uint8_t> bytes = ReadTestExecutable("abs");
  EXPECT_TRUE(IsError(ExecutableLibrary::Load("cuda-nvptx-fb", bytes, {}).status(),
                      StatusCode::kUnimplemented, "executable format 'cuda-nvptx-fb'"));
}

TEST(ExecutableLibraryTest, AbsMetadataAndEnvironment) {
  auto library = LoadKernel("abs");
  ASSERT_TRUE(library);
  EXPECT_EQ(library->name(), "executable");
  ASSERT_EQ(library->export_count(), 1u);
  const auto& info = library->export_info(0);
  EXPECT_EQ(info.name, "abs");
  EXPECT_EQ(info.constant_count, 0u);
  EXPECT_EQ(info.binding_count, 2u);
  EXPECT_EQ(info.workgroup_size[0], 1u);
  EXPECT_EQ(info.workgroup_size[1], 1u);
  EXPECT_EQ(info.workgroup_size[2], 1u);
  EXPECT_EQ(info.local_memory_size, 0u);
  EXPECT_EQ(info.flags, 0u);
  const EnvironmentV0& environment = library->environment();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(&environment) % 64, 0u);
  EXPECT_EQ(environment.constants, nullptr);
  EXPECT_NE(environment.import_thunk, nullptr);
  EXPECT_EQ(environment.import_funcs, nullptr);  // no imports
  EXPECT_EQ(std::memcmp(&environment.processor, &HostProcessorData(), sizeof(ProcessorV0)), 0);
}

TEST(ExecutableLibraryTest, RunsAbs) {
  auto library = LoadKernel("abs");
  ASSERT_TRUE(library);
  // The kernels use aligned vector loads: bindings honour the declared alignment(64).
  alignas(64) float input[2] = {-1.5f, 2.25f};
  alignas(64) float output[2] = {0, 0};
  ASSERT_TRUE(Dispatch(*library, 0, {1, 1, 1}, {}, {input, output}, {sizeof(input), sizeof(output)}).ok());
  EXPECT_EQ(output[0], 1.5f);
  EXPECT_EQ(output[1], 2.25f);
}

TEST(ExecutableLibraryTest, RunsWriteConstants) {
  auto library = LoadKernel("write_constants");
  ASSERT_TRUE(library);
  EXPECT_EQ(library->export_info(0).name, "write_constants");
  EXPECT_EQ(library->export_info(0).constant_count, 4u);
  EXPECT_EQ(library->export_info(0).binding_count, 1u);
  const uint32_t constants[4] = {1, 2, 0xDEADBEEF, 0xFFFFFFFF};
  alignas(64) uint32_t output[4] = {};
  ASSERT_TRUE(Dispatch(*library, 0, {1, 1, 1}, constants, {output}, {sizeof(output)}).ok());
  EXPECT_EQ(std::memcmp(output, constants, sizeof(output)), 0);
}

TEST(ExecutableLibraryTest, RunsScaleAndOffset) {
  auto library = LoadKernel("scale_and_offset");
  ASSERT_TRUE(library);
  EXPECT_EQ(library->export_info(0).constant_count, 2u);
  EXPECT_EQ(library->export_info(0).binding_count, 2u);
  const uint32_t constants[2] = {3, static_cast<uint32_t>(-10)};
  alignas(64) int32_t input[4] = {1, 2, -3, 4};
  alignas(64) int32_t output[4] = {};
  ASSERT_TRUE(Dispatch(*library, 0, {1, 1, 1}, constants, {input, output}, {16, 16}).ok());
  EXPECT_EQ(output[0], -7);
  EXPECT_EQ(output[1], -4);
  EXPECT_EQ(output[2], -19);
  EXPECT_EQ(output[3], 2);
}

TEST(ExecutableLibraryTest, RunsThirtyTwoWorkgroups) {
  auto library = LoadKernel("write_workgroup_ids");
  ASSERT_TRUE(library);
  EXPECT_EQ(library->export_info(0).name, "write_workgroup_ids");
  alignas(64) int32_t output[32];
  std::fill(std::begin(output), std::end(output), -1);
  ASSERT_TRUE(Dispatch(*library, 0, {32, 1, 1}, {}, {output}, {sizeof(output)}).ok());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(output[i], i);
}

TEST(ExecutableLibraryTest, RunsBothEntryPoints) {
  auto library = LoadKernel("multi_entrypoint");
  ASSERT_TRUE(library);
  ASSERT_EQ(library->export_count(), 2u);
  EXPECT_EQ(library->export_info(0).name, "negate");
  EXPECT_EQ(library->export_info(1).name, "double_it");
  auto negate = library->LookupExport("negate");
  auto double_it = library->LookupExport("double_it");
  ASSERT_TRUE(negate.ok() && double_it.ok());
  EXPECT_EQ(*negate, 0u);
  EXPECT_EQ(*double_it, 1u);
  alignas(64) float input[4] = {1, -2, 3.5f, 0};
  alignas(64) float output[4] = {};
  ASSERT_TRUE(Dispatch(*library, *negate, {1, 1, 1}, {}, {input, output}, {16, 16}).ok());
  EXPECT_EQ(output[0], -1);
  EXPECT_EQ(output[1], 2);
  EXPECT_EQ(output[2], -3.5f);
  ASSERT_TRUE(Dispatch(*library, *double_it, {1, 1, 1}, {}, {input, output}, {16, 16}).ok());
  EXPECT_EQ(output[0], 2);
  EXPECT_EQ(output[1], -4);
  EXPECT_EQ(output[2], 7);
  EXPECT_TRUE(IsError(library->LookupExport("triple_it").status(), StatusCode::kNotFound,
                      "export 'triple_it' not found in executable 'executable'"));
}

TEST(ExecutableLibraryTest, RunsWriteDispatchParams) {
  auto library = LoadKernel("write_dispatch_params");
  ASSERT_TRUE(library);
  EXPECT_EQ(library->export_info(0).name, "write_dispatch_params");
  alignas(64) uint32_t output[3] = {};
  ASSERT_TRUE(Dispatch(*library, 0, {1, 1, 1}, {}, {output}, {sizeof(output)}).ok());
  EXPECT_EQ(output[0], 4u);
  EXPECT_EQ(output[1], 1u);
  EXPECT_EQ(output[2], 1u);
}

TEST(ExecutableLibraryTest, KernelsReadWorkgroupSizeFromTheDispatchState) {
  auto library = LoadKernel("workgroup_size");
  ASSERT_TRUE(library);
  alignas(64) uint32_t output[4] = {9, 9, 9, 9};
  ASSERT_TRUE(Dispatch(*library, 0, {1, 1, 1}, {}, {output}, {sizeof(output)}).ok());
  EXPECT_EQ(output[0], 1u);  // workgroup_size.x from the attrs, never 0
  EXPECT_EQ(output[1], 1u);
  EXPECT_EQ(output[2], 1u);  // the static count region folded to a constant
  EXPECT_EQ(output[3], 1u);
}

TEST(ExecutableLibraryTest, PrepareDispatchRejectsMismatches) {
  auto library = LoadKernel("scale_and_offset");
  ASSERT_TRUE(library);
  alignas(64) int32_t a[4], b[4];
  const uint32_t constants[2] = {1, 2};
  const uint32_t one[3] = {1, 1, 1};
  std::vector<void*> bindings = {a, b};
  std::vector<size_t> lengths = {16, 16};
  DispatchStateV0 state{};
  state.binding_count = 77;  // sentinel: errors leave the output untouched
  EXPECT_TRUE(IsError(library->PrepareDispatch(0, one, std::span(constants, 1), bindings, lengths, 1, &state),
                      StatusCode::kInvalidArgument,
                      "export 'scale_and_offset' expects 2 constants but 1 were given"));
  EXPECT_TRUE(IsError(library->PrepareDispatch(0, one, constants, std::span(bindings).first(1),
                                               std::span(lengths).first(1), 1, &state),
                      StatusCode::kInvalidArgument, "expects 2 bindings but 1 pointers"));
  EXPECT_TRUE(IsError(library->PrepareDispatch(0, one, constants, bindings,
                                               std::span(lengths).first(1), 1, &state),
                      StatusCode::kInvalidArgument, "and 1 lengths"));
  std::vector<void*> with_null = {a, nullptr};
  EXPECT_TRUE(IsError(library->PrepareDispatch(0, one, constants, with_null, lengths, 1, &state),
                      StatusCode::kInvalidArgument, "export 'scale_and_offset' binding 1 is null"));
  const uint32_t deep[3] = {1, 1, 65536};
  EXPECT_TRUE(IsError(library->PrepareDispatch(0, deep, constants, bindings, lengths, 1, &state),
                      StatusCode::kInvalidArgument, "workgroup count z 65536 exceeds 65535"));
  EXPECT_TRUE(IsError(library->PrepareDispatch(1, one, constants, bindings, lengths, 1, &state),
                      StatusCode::kOutOfRange, "export ordinal 1 is out of range"));
  EXPECT_EQ(state.binding_count, 77);

  const uint32_t count[3] = {7, 8, 65535};
  ASSERT_TRUE(library->PrepareDispatch(0, count, constants, bindings, lengths, 1000, &state).ok());
  EXPECT_EQ(state.workgroup_size_x, 1u);
  EXPECT_EQ(state.workgroup_size_y, 1u);
  EXPECT_EQ(state.workgroup_size_z, 1u);
  EXPECT_EQ(state.constant_count, 2u);
  EXPECT_EQ(state.workgroup_count_x, 7u);
  EXPECT_EQ(state.workgroup_count_y, 8u);
  EXPECT_EQ(state.workgroup_count_z, 65535u);
  EXPECT_EQ(state.max_concurrency, 255u);  // clamped to the u8 field
  EXPECT_EQ(state.binding_count, 2u);
  EXPECT_EQ(state.constants, constants);
  EXPECT_EQ(state.binding_ptrs, bindings.data());
  EXPECT_EQ(state.binding_lengths, lengths.data());
  ASSERT_TRUE(library->PrepareDispatch(0, count, constants, bindings, lengths, 0, &state).ok());
  EXPECT_EQ(state.max_concurrency, 1u);

  EXPECT_TRUE(IsError(library->RunWorkgroup(0, state, 7, 0, 0, 0, nullptr, 0),
                      StatusCode::kOutOfRange, "workgroup (7, 0, 0) is outside"));
  EXPECT_TRUE(IsError(library->RunWorkgroup(3, state, 0, 0, 0, 0, nullptr, 0),
                      StatusCode::kOutOfRange, "export ordinal 3"));
}

TEST(ExecutableLibraryTest, ExecutableConstantCountMustMatch) {
  const std::vector<uint8_t> bytes = ReadTestExecutable("abs");
  const uint32_t constants[1] = {5};
  EXPECT_TRUE(IsError(ExecutableLibrary::Load(EmbeddedFormat(), bytes, constants).status(),
                      StatusCode::kFailedPrecondition,
                      "executable 'executable' declares 0 executable constants but 1 were provided"));
}

// The trap kernel stores rt_test_trap(7) into its binding; the import's params struct is
// {int32 result; int32 argument}.
struct TrapParams {
  int32_t result;
  int32_t argument;
};

TEST(ExecutableLibraryTest, RequiredImportWithoutProviderFailsTheLoad) {
  const std::vector<uint8_t> bytes = ReadTestExecutable("trap");
  EXPECT_TRUE(IsError(ExecutableLibrary::Load(EmbeddedFormat(), bytes, {}).status(),
                      StatusCode::kNotFound,
                      "executable 'executable' requires import 'rt_test_trap'"));
  auto unrelated = [](std::string_view) { return ExecutableLibrary::ImportBinding{}; };
  EXPECT_TRUE(IsError(ExecutableLibrary::Load(EmbeddedFormat(), bytes, {}, unrelated).status(),
                      StatusCode::kNotFound, "'rt_test_trap'"));
}

TEST(ExecutableLibraryTest, ImportsAreCalledThroughTheThunk) {
  static int context_tag = 0;
  auto resolver = [](std::string_view name) {
    EXPECT_EQ(name, "rt_test_trap");
    ExecutableLibrary::ImportBinding binding;
    binding.context = &context_tag;
    binding.function = [](void* params, void* context, void* reserved) {
      auto* p = static_cast<TrapParams*>(params);
      if (context != &context_tag || reserved != nullptr) return 99;
      p->result = p->argument * 6;
      return 0;
    };
    return binding;
  };
  auto library = LoadKernel("trap", resolver);
  ASSERT_TRUE(library);
  ASSERT_NE(library->environment().import_funcs, nullptr);
  alignas(64) int32_t output[1] = {0};
  ASSERT_TRUE(Dispatch(*library, 0, {1, 1, 1}, {}, {output}, {sizeof(output)}).ok());
  EXPECT_EQ(output[0], 42);
}

TEST(ExecutableLibraryTest, NonZeroKernelReturnBecomesInternalError) {
  auto resolver = [](std::string_view) {
    ExecutableLibrary::ImportBinding binding;
    binding.function = [](void*, void*, void*) { return 5; };
    return binding;
  };
  auto library = LoadKernel("trap", resolver);
  ASSERT_TRUE(library);
  alignas(64) int32_t output[1] = {-1};
  EXPECT_TRUE(IsError(Dispatch(*library, 0, {1, 1, 1}, {}, {output}, {sizeof(output)}),
                      StatusCode::kInternal,
                      "executable 'executable' export 'trap' failed with code 5 in workgroup "
                      "(0, 0, 0)"));
  EXPECT_EQ(output[0], -1);  // the kernel stops before its store
}

// Finds the library header inside |bytes| (via a throwaway load) and returns its file
// offset, so tests can corrupt header fields of a real compiler output.
uint64_t HeaderFileOffset(const std::vector<uint8_t>& bytes) {
  auto module = ElfModule::Load(bytes);
  if (!module.ok()) return 0;
  auto query = reinterpret_cast<LibraryQueryFunctionV0>((*module)->LookupSymbol(kLibraryQuerySymbol));
  EnvironmentV0 environment{};
  const LibraryHeaderV0* header = *query(kLibraryVersion, &environment);
  ElfEditor editor(bytes);
  // These images are linked at address 0, so image offsets are link-time addresses.
  EXPECT_EQ(editor.phdr(editor.FindPhdr(elf::kPtLoad)).p_vaddr, 0u);
  return editor.VaddrToOffset(reinterpret_cast<const uint8_t*>(header) - (*module)->image_base());
}

TEST(ExecutableLibraryTest, HeaderVersionAndSanitizerAreChecked) {
  const std::vector<uint8_t> original = ReadTestExecutable("abs");
  const uint64_t header = HeaderFileOffset(original);
  ASSERT_NE(header, 0u);
  ElfEditor editor(original);
  ASSERT_EQ(editor.Read<uint32_t>(header), kLibraryVersion);
  editor.Write<uint32_t>(header, 7);
  EXPECT_TRUE(IsError(ExecutableLibrary::Load(EmbeddedFormat(), editor.bytes(), {}).status(),
                      StatusCode::kIncompatible, "library header version 7 is not supported"));
  editor.Write<uint32_t>(header, kLibraryVersion);
  editor.Write<int32_t>(header + offsetof(LibraryHeaderV0, sanitizer), 1);
  EXPECT_TRUE(IsError(ExecutableLibrary::Load(EmbeddedFormat(), editor.bytes(), {}).status(),
                      StatusCode::kUnavailable, "embedded ELF executables cannot use sanitizers"));
}

#if defined(__x86_64__)
TEST(ExecutableLibraryTest, QueryRefusingVersionSixIsIncompatible) {
  // The generated query is "cmp edi, 6; ...": make it answer only version 7.
  std::vector<uint8_t> bytes = ReadTestExecutable("abs");
  const uint8_t cmp_edi_6[] = {0x83, 0xFF, 0x06};
  auto it = std::search(bytes.begin(), bytes.end(), std::begin(cmp_edi_6), std::end(cmp_edi_6));
  ASSERT_NE(it, bytes.end());
  it[2] = 0x07;
  EXPECT_TRUE(IsError(ExecutableLibrary::Load(EmbeddedFormat(), bytes, {}).status(),
                      StatusCode::kIncompatible,
                      "does not support ABI version 6 (its query returned null)"));
}
#endif

}  // namespace
}  // namespace iree_rt::drivers::cpu
