// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// C ABI tests of modules, contexts, function calls and value lists, on programs compiled by
// iree-compile at build time (tests/unit/api/programs).
#include <atomic>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "vm_test_util.h"

namespace iree_rt_test {
namespace {

TEST_F(VmApiTest, ModuleReflection) {
  iree_rt_module_t module = Load("scalars");
  const char* name = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_module_name(module, &name)));
  EXPECT_STREQ(name, "module");
  size_t count = 0;
  ASSERT_TRUE(IsOk(iree_rt_module_function_count(module, &count)));
  ASSERT_EQ(count, 1u);
  const char* function_name = nullptr;
  const char* signature = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_module_function_name(module, 0, &function_name)));
  ASSERT_TRUE(IsOk(iree_rt_module_function_signature(module, 0, &signature)));
  EXPECT_STREQ(function_name, "add");
  EXPECT_STREQ(signature, "0iIf_If");
  size_t attr_count = 0;
  ASSERT_TRUE(IsOk(iree_rt_module_function_attr_count(module, 0, &attr_count)));
  bool found_declaration = false;
  for (size_t i = 0; i < attr_count; ++i) {
    const char* key = nullptr;
    const char* value = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_module_function_attr(module, 0, i, &key, &value)));
    if (std::string(key) == "iree.abi.declaration") {
      found_declaration = true;
      EXPECT_NE(std::string(value).find("sync func @add"), std::string::npos) << value;
    }
  }
  EXPECT_TRUE(found_declaration);
  EXPECT_TRUE(HasCode(iree_rt_module_function_name(module, 1, &function_name),
                      IREE_RT_STATUS_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(iree_rt_module_function_attr(module, 0, attr_count, &name, &name),
                      IREE_RT_STATUS_OUT_OF_RANGE));
}

TEST_F(VmApiTest, CallScalars) {
  iree_rt_context_t context = Link({Load("scalars")});
  iree_rt_function_t add = Lookup(context, "add");
  const char* signature = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_function_signature(add, &signature)));
  EXPECT_STREQ(signature, "0iIf_If");
  const char* declaration = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_function_attr(add, "iree.abi.declaration", &declaration)));
  ASSERT_NE(declaration, nullptr);
  const char* missing = "unchanged";
  ASSERT_TRUE(IsOk(iree_rt_function_attr(add, "no.such.attr", &missing)));
  EXPECT_EQ(missing, nullptr);

  iree_rt_value_list_t args = List();
  iree_rt_value_list_t results = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(args, -7)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i64(args, int64_t{1} << 40)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_f32(args, 1.5f)));
  ASSERT_TRUE(IsOk(iree_rt_function_call(add, args, results)));
  ASSERT_EQ(Size(results), 2u);
  iree_rt_value_type_t type = IREE_RT_VALUE_TYPE_NONE;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_type(results, 0, &type)));
  EXPECT_EQ(type, IREE_RT_VALUE_TYPE_I64);
  int64_t sum = 0;
  float square = 0;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_i64(results, 0, &sum)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_f32(results, 1, &square)));
  EXPECT_EQ(sum, (int64_t{1} << 40) - 7);
  EXPECT_EQ(square, 2.25f);
  // An i64 that does not fit in i32, and a float read as an integer, are errors.
  int32_t narrow = 0;
  EXPECT_TRUE(HasCode(iree_rt_value_list_get_i32(results, 0, &narrow), IREE_RT_STATUS_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(iree_rt_value_list_get_i64(results, 1, &sum), IREE_RT_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(iree_rt_value_list_get_i64(results, 2, &sum), IREE_RT_STATUS_OUT_OF_RANGE));
}

TEST_F(VmApiTest, ArgumentMismatchesNameTheProblem) {
  iree_rt_context_t context = Link({Load("scalars")});
  iree_rt_function_t add = Lookup(context, "add");
  iree_rt_value_list_t results = List();
  iree_rt_value_list_t too_few = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(too_few, 1)));
  EXPECT_TRUE(HasCode(iree_rt_function_call(add, too_few, results), IREE_RT_STATUS_INVALID_ARGUMENT));
  iree_rt_value_list_t wrong_type = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(wrong_type, 1)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_f32(wrong_type, 2.0f)));  // i64 expected
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_f32(wrong_type, 3.0f)));
  EXPECT_TRUE(HasCode(iree_rt_function_call(add, wrong_type, results),
                      IREE_RT_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(iree_rt_function_call(add, nullptr, results), IREE_RT_STATUS_INVALID_ARGUMENT));
  EXPECT_EQ(Size(results), 0u);  // untouched on error
  // Results are required when the function returns values.
  EXPECT_TRUE(IsInvalidArgument(iree_rt_function_call(add, wrong_type, nullptr), "results"));
  iree_rt_function_t missing = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_context_lookup_function(context, "nope", &missing),
                      IREE_RT_STATUS_NOT_FOUND, "nope"));
  EXPECT_EQ(missing, nullptr);
}

TEST_F(VmApiTest, ListsInAndOut) {
  iree_rt_context_t context = Link({Load("vm_ops")});
  iree_rt_value_list_t args = List();
  iree_rt_value_list_t results = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(args, 5)));
  ASSERT_TRUE(IsOk(iree_rt_function_call(Lookup(context, "iota"), args, results)));
  const char* type_name = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_ref_type(results, 0, &type_name)));
  EXPECT_STREQ(type_name, "vm.list");
  iree_rt_value_list_t iota = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_list(results, 0, &iota)));
  Keep(iota, iree_rt_value_list_release);
  ASSERT_EQ(Size(iota), 5u);
  for (size_t i = 0; i < 5; ++i) {
    int32_t value = -1;
    ASSERT_TRUE(IsOk(iree_rt_value_list_get_i32(iota, i, &value)));
    EXPECT_EQ(value, static_cast<int32_t>(i));
  }
  // The program's list goes back in as an argument.
  iree_rt_value_list_t sum_args = List();
  iree_rt_value_list_t sum_results = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_list(sum_args, iota)));
  ASSERT_TRUE(IsOk(iree_rt_function_call(Lookup(context, "sum"), sum_args, sum_results)));
  int32_t sum = 0;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_i32(sum_results, 0, &sum)));
  EXPECT_EQ(sum, 0 + 1 + 2 + 3 + 4);
  // A list cannot hold itself (a reference cycle would leak).
  EXPECT_TRUE(HasCode(iree_rt_value_list_push_list(sum_args, sum_args),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "itself"));
}

TEST_F(VmApiTest, BufferViewsPassThrough) {
  iree_rt_context_t context = Link({Load("vm_ops")});
  iree_rt_buffer_t buffer = Allocate(device_, 16);
  const int64_t shape[] = {2, 2};
  iree_rt_buffer_view_t view = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_create(buffer, shape, 2, IREE_RT_ELEMENT_TYPE_FLOAT_32,
                                              IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view)));
  Keep(view, iree_rt_buffer_view_release);
  iree_rt_value_list_t args = List();
  iree_rt_value_list_t results = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_buffer_view(args, view)));
  ASSERT_TRUE(IsOk(iree_rt_function_call(Lookup(context, "echo"), args, results)));
  iree_rt_buffer_view_t echoed = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_buffer_view(results, 0, &echoed)));
  Keep(echoed, iree_rt_buffer_view_release);
  size_t rank = 0;
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_rank(echoed, &rank)));
  EXPECT_EQ(rank, 2u);
  // The same buffer comes back: a write through the original is visible.
  const float value = 4.5f;
  ASSERT_TRUE(IsOk(iree_rt_buffer_write(buffer, 4, &value, sizeof(value))));
  float read = 0;
  iree_rt_buffer_t echoed_buffer = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_buffer(echoed, &echoed_buffer)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_read(echoed_buffer, 4, &read, sizeof(read))));
  EXPECT_EQ(read, value);
  // A NULL reference is a valid argument, and a list is not a buffer view.
  iree_rt_value_list_t null_args = List();
  iree_rt_value_list_t null_results = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_buffer_view(null_args, nullptr)));
  ASSERT_TRUE(IsOk(iree_rt_function_call(Lookup(context, "echo"), null_args, null_results)));
  iree_rt_buffer_view_t null_view = view;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_buffer_view(null_results, 0, &null_view)));
  EXPECT_EQ(null_view, nullptr);
  iree_rt_value_list_t nested = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_list(nested, args)));
  EXPECT_TRUE(HasCode(iree_rt_value_list_get_buffer_view(nested, 0, &null_view),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "vm.list"));
}

TEST_F(VmApiTest, ProgramFailureCarriesCodeMessageAndBacktrace) {
  iree_rt_context_t context = Link({Load("vm_ops")});
  iree_rt_function_t maybe_fail = Lookup(context, "maybe_fail");
  iree_rt_value_list_t args = List();
  iree_rt_value_list_t results = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(args, 0)));
  ASSERT_TRUE(IsOk(iree_rt_function_call(maybe_fail, args, results)));
  int32_t value = 0;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_i32(results, 0, &value)));
  EXPECT_EQ(value, 1);
  iree_rt_value_list_t fail_args = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(fail_args, 3)));
  iree_rt_status_t status = iree_rt_function_call(maybe_fail, fail_args, results);
  ASSERT_NE(status, nullptr);
  EXPECT_EQ(iree_rt_status_code(status), IREE_RT_STATUS_NOT_FOUND);
  const std::string message = iree_rt_status_message(status);
  EXPECT_NE(message.find("maybe_fail was asked to fail"), std::string::npos) << message;
  EXPECT_NE(message.find("vmops.maybe_fail"), std::string::npos) << message;  // backtrace
  iree_rt_status_free(status);
  EXPECT_EQ(Size(results), 1u);
  // The context stays usable after a failed call.
  ASSERT_TRUE(IsOk(iree_rt_function_call(maybe_fail, args, results)));
}

TEST_F(VmApiTest, CheckModuleReportsFailedExpectations) {
  iree_rt_module_t check = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_module_create_check(instance_, &check)));
  Keep(check, iree_rt_module_release);
  iree_rt_context_t context = Link({check, Load("check_scalar")});
  ASSERT_TRUE(IsOk(iree_rt_function_call(Lookup(context, "passes"), nullptr, nullptr)));
  iree_rt_value_list_t args = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(args, 0)));
  // expect_true(0) fails, expect_false(0) passes.
  EXPECT_TRUE(HasCode(iree_rt_function_call(Lookup(context, "fails"), args, nullptr),
                      IREE_RT_STATUS_FAILED_PRECONDITION, "Expected 0 to be nonzero"));
  // Without the check module the expectations are skipped (optional imports).
  iree_rt_context_t unchecked = Link({Load("check_scalar")});
  EXPECT_TRUE(IsOk(iree_rt_function_call(Lookup(unchecked, "fails"), args, nullptr)));
}

TEST_F(VmApiTest, LoadFromMemoryWithoutCopy) {
  std::vector<char> bytes = ReadFile(ProgramPath("scalars"));
  ASSERT_FALSE(bytes.empty());
  static std::atomic<int> released{0};
  released = 0;
  auto on_release = [](void* user_data) { released += *static_cast<int*>(user_data); };
  int increment = 1;
  iree_rt_module_t module = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_module_load_memory(instance_, bytes.data(), bytes.size(),
                                              IREE_RT_MODULE_LOAD_FLAG_NONE, on_release,
                                              &increment, &module)));
  iree_rt_context_t context = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_context_create(instance_, &module, 1, &context)));
  iree_rt_module_release(module);
  EXPECT_EQ(released.load(), 0);  // the context still holds the module
  iree_rt_function_t add = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_context_lookup_function(context, "module.add", &add)));
  iree_rt_context_release(context);
  EXPECT_EQ(released.load(), 0);  // the function holds the context
  iree_rt_value_list_t args = List();
  iree_rt_value_list_t results = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(args, 1)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i64(args, 2)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_f32(args, 3)));
  ASSERT_TRUE(IsOk(iree_rt_function_call(add, args, results)));
  iree_rt_function_release(add);
  EXPECT_EQ(released.load(), 1);
}

TEST_F(VmApiTest, LoadFromMemoryWithCopy) {
  std::vector<char> bytes = ReadFile(ProgramPath("scalars"));
  static std::atomic<int> released{0};
  released = 0;
  iree_rt_module_t module = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_module_load_memory(
      instance_, bytes.data(), bytes.size(), IREE_RT_MODULE_LOAD_FLAG_COPY,
      [](void*) { ++released; }, nullptr, &module)));
  Keep(module, iree_rt_module_release);
  EXPECT_EQ(released.load(), 1);  // copied: the caller's bytes are free at once
  std::fill(bytes.begin(), bytes.end(), 0);
  iree_rt_context_t context = Link({module});
  iree_rt_value_list_t args = List();
  iree_rt_value_list_t results = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(args, 1)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i64(args, 2)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_f32(args, 3)));
  ASSERT_TRUE(IsOk(iree_rt_function_call(Lookup(context, "add"), args, results)));
  int64_t sum = 0;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_i64(results, 0, &sum)));
  EXPECT_EQ(sum, 3);
}

TEST_F(VmApiTest, MalformedModulesAreRejected) {
  std::vector<char> bytes = ReadFile(ProgramPath("vm_ops"));
  ASSERT_GT(bytes.size(), 256u);
  static std::atomic<int> released{0};
  released = 0;
  auto on_release = [](void*) { ++released; };
  iree_rt_module_t module = nullptr;
  // Truncated, then corrupted in the FlatBuffer: both rejected, the callback never runs (the
  // caller keeps its memory), and no handle comes back.
  EXPECT_TRUE(HasCode(iree_rt_module_load_memory(instance_, bytes.data(), bytes.size() / 2,
                                                 IREE_RT_MODULE_LOAD_FLAG_NONE, on_release,
                                                 nullptr, &module),
                      IREE_RT_STATUS_INVALID_ARGUMENT));
  std::vector<char> garbage(bytes.size(), 0x5A);
  EXPECT_TRUE(HasCode(iree_rt_module_load_memory(instance_, garbage.data(), garbage.size(),
                                                 IREE_RT_MODULE_LOAD_FLAG_COPY, on_release,
                                                 nullptr, &module),
                      IREE_RT_STATUS_INVALID_ARGUMENT));
  EXPECT_EQ(module, nullptr);
  EXPECT_EQ(released.load(), 0);
  EXPECT_TRUE(HasCode(iree_rt_module_load_file(instance_, "/nonexistent/m.vmfb", &module),
                      IREE_RT_STATUS_NOT_FOUND, "/nonexistent/m.vmfb"));
  EXPECT_TRUE(HasCode(iree_rt_module_load_memory(instance_, bytes.data(), bytes.size(), 0x80,
                                                 nullptr, nullptr, &module),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "flags"));
}

// Where a compiled module stores its bytecode version: the FlatBuffer (size-prefixed, after the
// zip archive's local file header when there is one), its root table, field 13
// (BytecodeModuleDef.bytecode_version, vtable slot 4 + 2 * 13). Written against the bytes so the
// test needs only the public header; fails (returns 0) when the layout is not what it expects.
size_t BytecodeVersionPos(const std::vector<char>& bytes) {
  auto read = [&](size_t pos, size_t n) {
    uint32_t v = 0;
    if (pos + n <= bytes.size()) std::memcpy(&v, bytes.data() + pos, n);
    return v;
  };
  size_t prefix = 0;
  if (bytes.size() > 30 && std::memcmp(bytes.data(), "PK\x03\x04", 4) == 0) {
    prefix = 30 + read(26, 2) + read(28, 2);
  }
  if (prefix + 12 > bytes.size() || std::memcmp(bytes.data() + prefix + 8, "IREE", 4) != 0) {
    return 0;
  }
  const size_t root = prefix + 4 + read(prefix + 4, 4);
  const size_t vtable = root - static_cast<int32_t>(read(root, 4));
  const uint32_t slot = 4 + 2 * 13;
  if (slot + 2 > read(vtable, 2)) return 0;
  const uint32_t field = read(vtable + slot, 2);
  return field == 0 ? 0 : root + field;
}

TEST_F(VmApiTest, OtherBytecodeVersionIsIncompatible) {
  const std::vector<char> original = ReadFile(ProgramPath("scalars"));
  const size_t pos = BytecodeVersionPos(original);
  ASSERT_NE(pos, 0u) << "no bytecode_version field found in the compiled module";
  uint32_t version = 0;
  std::memcpy(&version, original.data() + pos, 4);
  ASSERT_EQ(version, 17u << 16) << "iree-compile 3.13.0 writes bytecode 17.0";
  iree_rt_module_t module = nullptr;
  // The unpatched bytes load: the position found is the one that matters.
  ASSERT_TRUE(IsOk(iree_rt_module_load_memory(instance_, original.data(), original.size(),
                                              IREE_RT_MODULE_LOAD_FLAG_COPY, nullptr, nullptr,
                                              &module)));
  iree_rt_module_release(module);
  module = nullptr;
  for (auto [patched, text] : {std::pair<uint32_t, const char*>{18u << 16, "18.0"},
                               {(17u << 16) | 1, "17.1"},
                               {16u << 16, "16.0"}}) {
    std::vector<char> bytes = original;
    std::memcpy(bytes.data() + pos, &patched, 4);
    // The message names both versions: the module's and the one this runtime accepts.
    EXPECT_TRUE(HasCode(iree_rt_module_load_memory(instance_, bytes.data(), bytes.size(),
                                                   IREE_RT_MODULE_LOAD_FLAG_COPY, nullptr,
                                                   nullptr, &module),
                        IREE_RT_STATUS_INCOMPATIBLE,
                        std::string("runtime supports 17.0, module has ") + text));
    EXPECT_EQ(module, nullptr);
  }
}

TEST_F(VmApiTest, MissingImportsFailContextCreation) {
  // vm_ops imports nothing; check_scalar's imports are optional; a program importing a
  // required function from a module not linked must fail to link, naming the module.
  iree_rt_module_t hal_user = Load("needs_hal");
  iree_rt_context_t context = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_context_create(instance_, &hal_user, 1, &context),
                      IREE_RT_STATUS_NOT_FOUND, "hal"));
  EXPECT_EQ(context, nullptr);
}

// A 4xf32 buffer view on |device| holding |values|.
iree_rt_buffer_view_t MakeVector(VmApiTest& test, iree_rt_device_t device, const float (&values)[4],
                                 iree_rt_buffer_t buffer) {
  EXPECT_TRUE(IsOk(iree_rt_buffer_write(buffer, 0, values, sizeof(values))));
  const int64_t shape[] = {4};
  iree_rt_buffer_view_t view = nullptr;
  EXPECT_TRUE(IsOk(iree_rt_buffer_view_create(buffer, shape, 1, IREE_RT_ELEMENT_TYPE_FLOAT_32,
                                              IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view)));
  return view;
}

std::vector<float> ReadVector(iree_rt_value_list_t results) {
  iree_rt_buffer_view_t view = nullptr;
  EXPECT_TRUE(IsOk(iree_rt_value_list_get_buffer_view(results, 0, &view)));
  if (!view) return {};
  iree_rt_buffer_t buffer = nullptr;
  EXPECT_TRUE(IsOk(iree_rt_buffer_view_buffer(view, &buffer)));
  std::vector<float> data(4);
  EXPECT_TRUE(IsOk(iree_rt_buffer_read(buffer, 0, data.data(), 16)));
  iree_rt_buffer_view_release(view);
  return data;
}

TEST_F(VmApiTest, TensorProgramRunsWithTheHalModule) {
  for (const char* uri : {"local-sync", "local-task"}) {
    iree_rt_device_t device = CreateDevice(uri);
    iree_rt_module_t hal = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_module_create_hal(instance_, &device, 1, &hal)));
    Keep(hal, iree_rt_module_release);
    iree_rt_context_t context = Link({hal, Load("needs_hal")});
    iree_rt_function_t negate = Lookup(context, "negate");
    iree_rt_value_list_t args = List();
    iree_rt_value_list_t results = List();
    iree_rt_buffer_view_t input = MakeVector(*this, device, {1.5f, -2.0f, 0.0f, 8.0f}, Allocate(device, 16));
    ASSERT_TRUE(IsOk(iree_rt_value_list_push_buffer_view(args, input)));
    iree_rt_buffer_view_release(input);
    ASSERT_TRUE(IsOk(iree_rt_function_call(negate, args, results))) << uri;
    EXPECT_EQ(ReadVector(results), (std::vector<float>{-1.5f, 2.0f, -0.0f, -8.0f})) << uri;

    // A wrongly shaped input is refused by the program, naming the input.
    ASSERT_TRUE(IsOk(iree_rt_value_list_clear(args)));
    ASSERT_TRUE(IsOk(iree_rt_value_list_clear(results)));
    const int64_t shape[] = {2, 2};
    iree_rt_buffer_view_t square = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_buffer_view_create(Allocate(device, 16), shape, 2,
                                                IREE_RT_ELEMENT_TYPE_FLOAT_32,
                                                IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &square)));
    ASSERT_TRUE(IsOk(iree_rt_value_list_push_buffer_view(args, square)));
    iree_rt_buffer_view_release(square);
    EXPECT_TRUE(HasCode(iree_rt_function_call(negate, args, results),
                        IREE_RT_STATUS_INVALID_ARGUMENT, "input0: rank mismatch"));
  }
}

TEST_F(VmApiTest, AsyncExternalFunctionTakesWaitAndSignalFences) {
  iree_rt_module_t hal = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_module_create_hal(instance_, &device_, 1, &hal)));
  Keep(hal, iree_rt_module_release);
  iree_rt_context_t context = Link({hal, Load("needs_hal_async")});
  iree_rt_function_t negate = Lookup(context, "negate");
  iree_rt_fence_t wait = CreateFence(CreateSemaphore(device_), 1);
  iree_rt_fence_t signal = CreateFence(CreateSemaphore(device_), 1);
  iree_rt_value_list_t args = List();
  iree_rt_value_list_t results = List();
  iree_rt_buffer_view_t input = MakeVector(*this, device_, {1, 2, 3, 4}, Allocate(device_, 16));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_buffer_view(args, input)));
  iree_rt_buffer_view_release(input);
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_fence(args, wait)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_fence(args, signal)));
  // Returns before the work may start; the result is usable once |signal| is reached.
  ASSERT_TRUE(IsOk(iree_rt_function_call(negate, args, results)));
  EXPECT_TRUE(HasCode(iree_rt_fence_query(signal), IREE_RT_STATUS_DEFERRED));
  ASSERT_TRUE(IsOk(iree_rt_fence_signal(wait)));
  ASSERT_TRUE(IsOk(iree_rt_fence_wait(signal, INT64_MAX)));
  EXPECT_EQ(ReadVector(results), (std::vector<float>{-1, -2, -3, -4}));
}

TEST_F(VmApiTest, HalModuleNeedsDevices) {
  iree_rt_module_t hal = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_module_create_hal(instance_, &device_, 0, &hal),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "device_count"));
  iree_rt_device_t devices[] = {device_, nullptr};
  EXPECT_TRUE(HasCode(iree_rt_module_create_hal(instance_, devices, 2, &hal),
                      IREE_RT_STATUS_INVALID_ARGUMENT));
  EXPECT_EQ(hal, nullptr);
}

TEST_F(VmApiTest, ValueListBasics) {
  iree_rt_value_list_t list = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_f64(list, 0.25)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(list, -3)));
  double d = 0;
  float f = 0;
  int64_t wide = 0;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_f64(list, 0, &d)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_f32(list, 0, &f)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_i64(list, 1, &wide)));
  EXPECT_EQ(d, 0.25);
  EXPECT_EQ(f, 0.25f);
  EXPECT_EQ(wide, -3);
  const char* type_name = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_value_list_get_ref_type(list, 1, &type_name),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "i32"));
  ASSERT_TRUE(IsOk(iree_rt_value_list_clear(list)));
  EXPECT_EQ(Size(list), 0u);
  EXPECT_TRUE(HasCode(iree_rt_value_list_get_f64(list, 0, &d), IREE_RT_STATUS_OUT_OF_RANGE));
}

}  // namespace
}  // namespace iree_rt_test
