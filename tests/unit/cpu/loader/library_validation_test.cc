// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExecutableLibrary's handshake and table validation on hand-built libraries (the
// `static` path, LoadFromQuery), covering shapes 3.13 never emits.
#include <gtest/gtest.h>

#include <cstring>

#include "drivers/cpu/loader/executable_library.h"
#include "test_util.h"

namespace iree_rt::drivers::cpu {
namespace {

using base::StatusCode;
using testing::IsError;

// What the fake kernel saw on its last call.
struct Observed {
  DispatchStateV0 dispatch;
  WorkgroupStateV0 workgroup;
  const EnvironmentV0* environment;
  int calls = 0;
};
Observed g_observed;

int RecordingKernel(const EnvironmentV0* environment, const DispatchStateV0* dispatch,
                    const WorkgroupStateV0* workgroup) {
  g_observed.dispatch = *dispatch;
  g_observed.workgroup = *workgroup;
  g_observed.environment = environment;
  ++g_observed.calls;
  // Like generated code, call import 0 through the thunk when there is one.
  if (environment->import_funcs != nullptr) {
    return environment->import_thunk(environment->import_funcs[0], nullptr,
                                     environment->import_contexts[0], nullptr);
  }
  return 0;
}

// A mutable library the test edits before loading; the query hands it out.
struct FakeLibrary {
  FakeLibrary() {
    header = {kLibraryVersion, "fake", 0, 0};
    attrs[0] = {};
    attrs[0].binding_count = 1;
    attrs[0].local_memory_pages = 1;
    attrs[1] = {};
    attrs[1].constant_count = 3;
    attrs[1].workgroup_size_x = 8;
    attrs[1].workgroup_size_y = 2;
    library.header = &header;
    library.exports.count = 2;
    library.exports.ptrs = functions;
    library.exports.attrs = attrs;
    library.exports.names = names;
  }
  LibraryHeaderV0 header;
  DispatchFunctionV0 functions[2] = {&RecordingKernel, &RecordingKernel};
  DispatchAttrsV0 attrs[2];
  const char* names[2] = {"first", "second"};
  const char* imports[2] = {"?optional_fn", "required_fn"};
  LibraryV0 library{};
};
FakeLibrary* g_fake = nullptr;

const LibraryHeaderV0* const* FakeQuery(uint32_t max_version, const EnvironmentV0*) {
  return max_version == kLibraryVersion ? &g_fake->library.header : nullptr;
}
const LibraryHeaderV0* const* NullQuery(uint32_t, const EnvironmentV0*) { return nullptr; }

class LibraryValidationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_fake = &fake_;
    g_observed = {};
  }
  void TearDown() override { g_fake = nullptr; }
  base::Status Load(std::span<const uint32_t> constants = {},
                    const ExecutableLibrary::ImportResolver& resolver = {}) {
    return ExecutableLibrary::LoadFromQuery(&FakeQuery, constants, resolver).status();
  }
  FakeLibrary fake_;
};

TEST_F(LibraryValidationTest, AcceptsAWellFormedLibrary) {
  auto library = ExecutableLibrary::LoadFromQuery(&FakeQuery, {});
  ASSERT_TRUE(library.ok()) << library.status().ToString();
  EXPECT_EQ((*library)->name(), "fake");
  ASSERT_EQ((*library)->export_count(), 2u);
  EXPECT_EQ((*library)->export_info(0).local_memory_size, 4096u);
  EXPECT_EQ((*library)->export_info(1).constant_count, 3u);
  EXPECT_EQ((*library)->export_info(1).workgroup_size[0], 8u);
  EXPECT_EQ((*library)->export_info(1).workgroup_size[1], 2u);
  EXPECT_EQ((*library)->export_info(1).workgroup_size[2], 1u);  // 0 in the attrs
}

TEST_F(LibraryValidationTest, Handshake) {
  EXPECT_TRUE(IsError(ExecutableLibrary::LoadFromQuery(&NullQuery, {}).status(),
                      StatusCode::kIncompatible, "its query returned null"));
  EXPECT_TRUE(IsError(ExecutableLibrary::LoadFromQuery(nullptr, {}).status(),
                      StatusCode::kInvalidArgument, "null query function"));
  fake_.header.version = 5;
  EXPECT_TRUE(IsError(Load(), StatusCode::kIncompatible, "library header version 5"));
  fake_.header.version = kLibraryVersion;
  fake_.header.sanitizer = static_cast<int32_t>(SanitizerKind::kMemory);
  EXPECT_TRUE(IsError(Load(), StatusCode::kUnavailable, "was built with sanitizer 2"));
  fake_.header.sanitizer = 0;
  fake_.header.features = 0x4;
  EXPECT_TRUE(IsError(Load(), StatusCode::kUnavailable, "requires library features 0x4"));
  fake_.header.features = 0;
  fake_.header.name = nullptr;
  EXPECT_TRUE(IsError(Load(), StatusCode::kInvalidArgument, "has no name"));
  fake_.library.header = nullptr;
  EXPECT_TRUE(IsError(Load(), StatusCode::kInvalidArgument, "library header"));
}

TEST_F(LibraryValidationTest, ExportTable) {
  fake_.library.exports.attrs = nullptr;
  EXPECT_TRUE(IsError(Load(), StatusCode::kInvalidArgument, "'fake' has no export attrs"));
  fake_.library.exports.attrs = fake_.attrs;
  fake_.library.exports.names = nullptr;
  EXPECT_TRUE(IsError(Load(), StatusCode::kInvalidArgument, "has no export names"));
  fake_.library.exports.names = fake_.names;
  fake_.names[1] = "";
  EXPECT_TRUE(IsError(Load(), StatusCode::kInvalidArgument, "export 1 has no name"));
  fake_.names[1] = "second";
  fake_.library.exports.ptrs = nullptr;
  EXPECT_TRUE(IsError(Load(), StatusCode::kInvalidArgument, "no export function table"));
  fake_.library.exports.ptrs = fake_.functions;
  fake_.functions[1] = nullptr;
  EXPECT_TRUE(IsError(Load(), StatusCode::kInvalidArgument, "'second' has no valid function"));
  fake_.functions[1] = &RecordingKernel;
  fake_.attrs[1].binding_count = 65;
  EXPECT_TRUE(IsError(Load(), StatusCode::kInvalidArgument,
                      "export 'second' uses 3 constants and 65 bindings; the limits are 64"));
  fake_.attrs[1].binding_count = 0;
  fake_.attrs[1].constant_count = 200;
  EXPECT_TRUE(IsError(Load(), StatusCode::kInvalidArgument, "uses 200 constants"));
  fake_.attrs[1].constant_count = 0;
  fake_.library.exports.count = 100000;
  EXPECT_TRUE(IsError(Load(), StatusCode::kInvalidArgument, "claims 100000 exports"));
  // Without exports the tables are never read.
  fake_.library.exports = {};
  EXPECT_TRUE(Load().ok());
}

TEST_F(LibraryValidationTest, ExecutableConstants) {
  fake_.library.constants.count = 2;
  EXPECT_TRUE(IsError(Load(), StatusCode::kFailedPrecondition,
                      "declares 2 executable constants but 0 were provided"));
  const uint32_t constants[2] = {11, 22};
  auto library = ExecutableLibrary::LoadFromQuery(&FakeQuery, constants);
  ASSERT_TRUE(library.ok());
  const uint32_t* copy = (*library)->environment().constants;
  ASSERT_NE(copy, nullptr);
  EXPECT_NE(copy, constants);  // copied, so the caller's array may go away
  EXPECT_EQ(copy[0], 11u);
  EXPECT_EQ(copy[1], 22u);
}

TEST_F(LibraryValidationTest, Imports) {
  fake_.library.imports = {2, fake_.imports};
  EXPECT_TRUE(IsError(Load(), StatusCode::kNotFound,
                      "'fake' requires import 'required_fn' and no import provider"));
  static int context = 0;
  std::vector<std::string> asked;
  auto resolver = [&asked](std::string_view name) {
    asked.emplace_back(name);
    ExecutableLibrary::ImportBinding binding;
    if (name == "required_fn") {
      binding.function = [](void*, void* ctx, void*) { return ctx == &context ? 0 : 1; };
      binding.context = &context;
    }
    return binding;
  };
  auto library = ExecutableLibrary::LoadFromQuery(&FakeQuery, {}, resolver);
  ASSERT_TRUE(library.ok()) << library.status().ToString();
  EXPECT_EQ(asked, (std::vector<std::string>{"optional_fn", "required_fn"}));  // '?' stripped
  const EnvironmentV0& env = (*library)->environment();
  EXPECT_EQ(env.import_funcs[0], nullptr);  // the weak import stays null
  EXPECT_NE(env.import_funcs[1], nullptr);
  EXPECT_EQ(env.import_contexts[1], &context);
  // Calling a missing weak import through the thunk fails instead of jumping to null.
  EXPECT_NE(env.import_thunk(env.import_funcs[0], nullptr, nullptr, nullptr), 0);
  EXPECT_EQ(env.import_thunk(env.import_funcs[1], nullptr, &context, nullptr), 0);

  fake_.imports[0] = "?";
  EXPECT_TRUE(IsError(Load({}, resolver), StatusCode::kInvalidArgument, "import 0 has no name"));
  fake_.library.imports = {1, nullptr};
  EXPECT_TRUE(IsError(Load(), StatusCode::kInvalidArgument, "malformed import table"));
}

TEST_F(LibraryValidationTest, RunWorkgroupPassesStateAndLocalMemory) {
  auto library = ExecutableLibrary::LoadFromQuery(&FakeQuery, {});
  ASSERT_TRUE(library.ok());
  int buffer = 0;
  void* bindings[1] = {&buffer};
  const size_t lengths[1] = {sizeof(buffer)};
  const uint32_t count[3] = {4, 3, 2};
  DispatchStateV0 state;
  ASSERT_TRUE((*library)->PrepareDispatch(0, count, {}, bindings, lengths, 4, &state).ok());
  EXPECT_TRUE(IsError((*library)->RunWorkgroup(0, state, 0, 0, 0, 0, nullptr, 0),
                      StatusCode::kResourceExhausted,
                      "export 'first' needs 4096 bytes of local memory but 0 were provided"));
  alignas(64) static uint8_t scratch[8192];
  ASSERT_TRUE((*library)->RunWorkgroup(0, state, 3, 2, 1, 5, scratch, sizeof(scratch)).ok());
  EXPECT_EQ(g_observed.calls, 1);
  EXPECT_EQ(g_observed.environment, &(*library)->environment());
  EXPECT_EQ(g_observed.workgroup.workgroup_id_x, 3u);
  EXPECT_EQ(g_observed.workgroup.workgroup_id_y, 2u);
  EXPECT_EQ(g_observed.workgroup.workgroup_id_z, 1u);
  EXPECT_EQ(g_observed.workgroup.processor_id, 5u);
  EXPECT_EQ(g_observed.workgroup.local_memory, scratch);
  EXPECT_EQ(g_observed.workgroup.local_memory_size, sizeof(scratch));
  EXPECT_EQ(g_observed.dispatch.workgroup_count_z, 2u);
  EXPECT_EQ(g_observed.dispatch.max_concurrency, 4u);
  EXPECT_EQ(g_observed.dispatch.binding_ptrs[0], &buffer);

  const uint32_t constants[3] = {1, 2, 3};
  ASSERT_TRUE((*library)->PrepareDispatch(1, count, constants, {}, {}, 1, &state).ok());
  EXPECT_EQ(state.workgroup_size_x, 8u);
  EXPECT_EQ(state.workgroup_size_y, 2u);
  EXPECT_EQ(state.workgroup_size_z, 1u);
  ASSERT_TRUE((*library)->RunWorkgroup(1, state, 0, 0, 0, 0, nullptr, 0).ok());
  EXPECT_EQ(g_observed.workgroup.local_memory, nullptr);
}

}  // namespace
}  // namespace iree_rt::drivers::cpu
