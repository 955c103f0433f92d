// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// C ABI tests: argument misuse (NULL handles and pointers, handles of the wrong type, released
// handles), the exhaustive NULL-argument table, thread-safe retain/release, and create/release
// loops that the ASan build checks for leaks.
#include <atomic>
#include <fstream>
#include <functional>
#include <set>
#include <thread>

#include "test_util.h"

namespace iree_rt_test {
namespace {

void NotifyNothing(void*, iree_rt_status_code_t, const char*) {}

// One call with one NULL argument; it must fail with INVALID_ARGUMENT naming |parameter|.
struct NullCall {
  std::string function;
  std::string parameter;
  std::function<iree_rt_status_t()> call;
};

class MisuseTest : public ApiTest {
 protected:
  void SetUp() override {
    ApiTest::SetUp();
    ASSERT_TRUE(IsOk(iree_rt_instance_options_create(&instance_options_)));
    Keep(instance_options_, iree_rt_instance_options_release);
    ASSERT_TRUE(IsOk(iree_rt_device_options_create(&device_options_)));
    Keep(device_options_, iree_rt_device_options_release);
    ASSERT_TRUE(IsOk(iree_rt_instance_enumerate_devices(instance_, nullptr, &list_)));
    Keep(list_, iree_rt_device_info_list_release);
    buffer_ = Allocate(device_, 64);
    const int64_t shape[] = {4};
    ASSERT_TRUE(IsOk(iree_rt_buffer_view_create(buffer_, shape, 1, IREE_RT_ELEMENT_TYPE_INT_32,
                                                IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view_)));
    Keep(view_, iree_rt_buffer_view_release);
    semaphore_ = CreateSemaphore(device_);
    fence_ = CreateFence(semaphore_, 1);
    ASSERT_TRUE(
        IsOk(iree_rt_command_buffer_create(device_, IREE_RT_COMMAND_BUFFER_MODE_DEFAULT,
                                           IREE_RT_COMMAND_CATEGORY_ANY, 1, &command_buffer_)));
    Keep(command_buffer_, iree_rt_command_buffer_release);
    const std::string program =
        std::string(IREE_RT_TEST_API_PROGRAMS_DIR) + "/api_program_scalars.vmfb";
    ASSERT_TRUE(IsOk(iree_rt_module_load_file(instance_, program.c_str(), &module_)));
    Keep(module_, iree_rt_module_release);
    ASSERT_TRUE(IsOk(iree_rt_context_create(instance_, &module_, 1, &context_)));
    Keep(context_, iree_rt_context_release);
    ASSERT_TRUE(IsOk(iree_rt_context_lookup_function(context_, "add", &function_)));
    Keep(function_, iree_rt_function_release);
    ASSERT_TRUE(IsOk(iree_rt_value_list_create(1, &value_list_)));
    Keep(value_list_, iree_rt_value_list_release);
    ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(value_list_, 1)));
    ASSERT_TRUE(IsOk(iree_rt_parameters_create(instance_, "s", &parameters_)));
    Keep(parameters_, iree_rt_parameters_release);
    std::ifstream file(TestExecutablePath("scale_and_offset"), std::ios::binary);
    std::vector<char> data((std::istreambuf_iterator<char>(file)), {});
    if (!data.empty()) {
      ASSERT_TRUE(IsOk(iree_rt_executable_load(device_, HostEmbeddedElfFormat(), data.data(),
                                               data.size(), nullptr, 0, &executable_)));
      Keep(executable_, iree_rt_executable_release);
    }
  }

  std::vector<NullCall> NullCalls();
  std::vector<NullCall> VmNullCalls();
  std::vector<NullCall> ParametersNullCalls();

  iree_rt_module_t module_ = nullptr;
  iree_rt_context_t context_ = nullptr;
  iree_rt_function_t function_ = nullptr;
  iree_rt_value_list_t value_list_ = nullptr;
  iree_rt_parameters_t parameters_ = nullptr;

  iree_rt_instance_options_t instance_options_ = nullptr;
  iree_rt_device_options_t device_options_ = nullptr;
  iree_rt_device_info_list_t list_ = nullptr;
  iree_rt_buffer_t buffer_ = nullptr;
  iree_rt_buffer_view_t view_ = nullptr;
  iree_rt_semaphore_t semaphore_ = nullptr;
  iree_rt_fence_t fence_ = nullptr;
  iree_rt_command_buffer_t command_buffer_ = nullptr;
  iree_rt_executable_t executable_ = nullptr;  // null when the build has no test kernels
};

std::vector<NullCall> MisuseTest::NullCalls() {
  // Valid values for the arguments that are not under test.
  auto* io = instance_options_;
  auto* in = instance_;
  auto* li = list_;
  auto* dopt = device_options_;
  auto* dev = device_;
  auto* buf = buffer_;
  auto* view = view_;
  auto* sem = semaphore_;
  auto* fence = fence_;
  auto* cb = command_buffer_;
  auto* exe = executable_;
  static size_t size;
  static uint64_t u64;
  static int64_t i64;
  static uint32_t u32;
  static const char* str;
  static void* ptr;
  static uint8_t bytes[64];
  static const int64_t shape[] = {4};
  static const uint32_t word = 0;
  static iree_rt_memory_type_t memory_type;
  static iree_rt_buffer_usage_t usage;
  static iree_rt_memory_access_t access;
  static iree_rt_element_type_t element_type;
  static iree_rt_encoding_type_t encoding;
  const iree_rt_semaphore_t sems[] = {sem};
  const uint64_t values[] = {1};
  static iree_rt_device_info_list_t out_li;
  static iree_rt_device_t out_dev;
  static iree_rt_buffer_t out_buf;
  static iree_rt_buffer_view_t out_view;
  static iree_rt_semaphore_t out_sem;
  static iree_rt_fence_t out_fence;
  static iree_rt_executable_t out_exe;
  static iree_rt_command_buffer_t out_cb;
  const auto V = IREE_RT_ABI_VERSION;
  const auto T = IREE_RT_MEMORY_TYPE_DEVICE_LOCAL;
  const auto U = IREE_RT_BUFFER_USAGE_DEFAULT;
  const auto A = IREE_RT_MEMORY_ACCESS_ALL;
  const auto F32 = IREE_RT_ELEMENT_TYPE_FLOAT_32;
  const auto DENSE = IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR;
  const auto BYTES = IREE_RT_MEMORY_STATISTIC_BYTES_ALLOCATED;
  const char* fmt = HostEmbeddedElfFormat();

  std::vector<NullCall> calls = {
      {"iree_rt_instance_options_create", "out_options",
       [=] { return iree_rt_instance_options_create(nullptr); }},
      {"iree_rt_instance_options_allow_driver", "options",
       [=] { return iree_rt_instance_options_allow_driver(nullptr, "x"); }},
      {"iree_rt_instance_options_allow_driver", "driver_name",
       [=] { return iree_rt_instance_options_allow_driver(io, nullptr); }},
      {"iree_rt_instance_options_set_device_param", "options",
       [=] { return iree_rt_instance_options_set_device_param(nullptr, "d", "k", "v"); }},
      {"iree_rt_instance_options_set_device_param", "driver_name",
       [=] { return iree_rt_instance_options_set_device_param(io, nullptr, "k", "v"); }},
      {"iree_rt_instance_options_set_device_param", "key",
       [=] { return iree_rt_instance_options_set_device_param(io, "d", nullptr, "v"); }},
      {"iree_rt_instance_options_set_device_param", "value",
       [=] { return iree_rt_instance_options_set_device_param(io, "d", "k", nullptr); }},
      {"iree_rt_instance_options_set_limit", "options",
       [=] {
         return iree_rt_instance_options_set_limit(nullptr, IREE_RT_LIMIT_MAX_CALL_DEPTH, 1);
       }},
      {"iree_rt_instance_options_set_trace_path", "options",
       [=] { return iree_rt_instance_options_set_trace_path(nullptr, "t.json"); }},
      {"iree_rt_instance_options_set_trace_path", "path",
       [=] { return iree_rt_instance_options_set_trace_path(io, nullptr); }},
      {"iree_rt_instance_trace_flush", "instance",
       [=] { return iree_rt_instance_trace_flush(nullptr); }},
      {"iree_rt_instance_create", "out_instance",
       [=] { return iree_rt_instance_create(V, nullptr, nullptr); }},
      {"iree_rt_instance_driver_count", "instance",
       [=] { return iree_rt_instance_driver_count(nullptr, &size); }},
      {"iree_rt_instance_driver_count", "out_count",
       [=] { return iree_rt_instance_driver_count(in, nullptr); }},
      {"iree_rt_instance_driver_name", "instance",
       [=] { return iree_rt_instance_driver_name(nullptr, 0, &str); }},
      {"iree_rt_instance_driver_name", "out_name",
       [=] { return iree_rt_instance_driver_name(in, 0, nullptr); }},
      {"iree_rt_instance_enumerate_devices", "instance",
       [=] { return iree_rt_instance_enumerate_devices(nullptr, nullptr, &out_li); }},
      {"iree_rt_instance_enumerate_devices", "out_list",
       [=] { return iree_rt_instance_enumerate_devices(in, nullptr, nullptr); }},
      {"iree_rt_device_info_list_count", "list",
       [=] { return iree_rt_device_info_list_count(nullptr, &size); }},
      {"iree_rt_device_info_list_count", "out_count",
       [=] { return iree_rt_device_info_list_count(li, nullptr); }},
      {"iree_rt_device_info_list_name", "list",
       [=] { return iree_rt_device_info_list_name(nullptr, 0, &str); }},
      {"iree_rt_device_info_list_name", "out_name",
       [=] { return iree_rt_device_info_list_name(li, 0, nullptr); }},
      {"iree_rt_device_info_list_uri", "list",
       [=] { return iree_rt_device_info_list_uri(nullptr, 0, &str); }},
      {"iree_rt_device_info_list_uri", "out_uri",
       [=] { return iree_rt_device_info_list_uri(li, 0, nullptr); }},
      {"iree_rt_device_info_list_property_count", "list",
       [=] { return iree_rt_device_info_list_property_count(nullptr, 0, &size); }},
      {"iree_rt_device_info_list_property_count", "out_count",
       [=] { return iree_rt_device_info_list_property_count(li, 0, nullptr); }},
      {"iree_rt_device_info_list_property_key", "list",
       [=] { return iree_rt_device_info_list_property_key(nullptr, 0, 0, &str); }},
      {"iree_rt_device_info_list_property_key", "out_key",
       [=] { return iree_rt_device_info_list_property_key(li, 0, 0, nullptr); }},
      {"iree_rt_device_info_list_property_value", "list",
       [=] { return iree_rt_device_info_list_property_value(nullptr, 0, 0, &str); }},
      {"iree_rt_device_info_list_property_value", "out_value",
       [=] { return iree_rt_device_info_list_property_value(li, 0, 0, nullptr); }},
      {"iree_rt_device_options_create", "out_options",
       [=] { return iree_rt_device_options_create(nullptr); }},
      {"iree_rt_device_options_set_string", "options",
       [=] { return iree_rt_device_options_set_string(nullptr, "k", "v"); }},
      {"iree_rt_device_options_set_string", "key",
       [=] { return iree_rt_device_options_set_string(dopt, nullptr, "v"); }},
      {"iree_rt_device_options_set_string", "value",
       [=] { return iree_rt_device_options_set_string(dopt, "k", nullptr); }},
      {"iree_rt_device_create", "instance",
       [=] { return iree_rt_device_create(nullptr, "local-sync", nullptr, &out_dev); }},
      {"iree_rt_device_create", "uri",
       [=] { return iree_rt_device_create(in, nullptr, nullptr, &out_dev); }},
      {"iree_rt_device_create", "out_device",
       [=] { return iree_rt_device_create(in, "local-sync", nullptr, nullptr); }},
      {"iree_rt_device_id", "device", [=] { return iree_rt_device_id(nullptr, &str); }},
      {"iree_rt_device_id", "out_id", [=] { return iree_rt_device_id(dev, nullptr); }},
      {"iree_rt_device_query_i64", "device",
       [=] { return iree_rt_device_query_i64(nullptr, "c", "k", &i64); }},
      {"iree_rt_device_query_i64", "category",
       [=] { return iree_rt_device_query_i64(dev, nullptr, "k", &i64); }},
      {"iree_rt_device_query_i64", "key",
       [=] { return iree_rt_device_query_i64(dev, "c", nullptr, &i64); }},
      {"iree_rt_device_query_i64", "out_value",
       [=] { return iree_rt_device_query_i64(dev, "c", "k", nullptr); }},
      {"iree_rt_device_memory_statistic", "device",
       [=] { return iree_rt_device_memory_statistic(nullptr, BYTES, &u64); }},
      {"iree_rt_device_memory_statistic", "out_value",
       [=] { return iree_rt_device_memory_statistic(dev, BYTES, nullptr); }},
      {"iree_rt_buffer_allocate", "device",
       [=] { return iree_rt_buffer_allocate(nullptr, T, U, 16, &out_buf); }},
      {"iree_rt_buffer_allocate", "out_buffer",
       [=] { return iree_rt_buffer_allocate(dev, T, U, 16, nullptr); }},
      {"iree_rt_buffer_import_host", "device",
       [=] {
         return iree_rt_buffer_import_host(nullptr, T, U, A, bytes, 16, nullptr, nullptr, &out_buf);
       }},
      {"iree_rt_buffer_import_host", "ptr",
       [=] {
         return iree_rt_buffer_import_host(dev, T, U, A, nullptr, 16, nullptr, nullptr, &out_buf);
       }},
      {"iree_rt_buffer_import_host", "out_buffer",
       [=] {
         return iree_rt_buffer_import_host(dev, T, U, A, bytes, 16, nullptr, nullptr, nullptr);
       }},
      {"iree_rt_buffer_subspan", "buffer",
       [=] { return iree_rt_buffer_subspan(nullptr, 0, 4, &out_buf); }},
      {"iree_rt_buffer_subspan", "out_buffer",
       [=] { return iree_rt_buffer_subspan(buf, 0, 4, nullptr); }},
      {"iree_rt_buffer_length", "buffer", [=] { return iree_rt_buffer_length(nullptr, &u64); }},
      {"iree_rt_buffer_length", "out_length", [=] { return iree_rt_buffer_length(buf, nullptr); }},
      {"iree_rt_buffer_memory_type", "buffer",
       [=] { return iree_rt_buffer_memory_type(nullptr, &memory_type); }},
      {"iree_rt_buffer_memory_type", "out_memory_type",
       [=] { return iree_rt_buffer_memory_type(buf, nullptr); }},
      {"iree_rt_buffer_usage", "buffer", [=] { return iree_rt_buffer_usage(nullptr, &usage); }},
      {"iree_rt_buffer_usage", "out_usage", [=] { return iree_rt_buffer_usage(buf, nullptr); }},
      {"iree_rt_buffer_allowed_access", "buffer",
       [=] { return iree_rt_buffer_allowed_access(nullptr, &access); }},
      {"iree_rt_buffer_allowed_access", "out_access",
       [=] { return iree_rt_buffer_allowed_access(buf, nullptr); }},
      {"iree_rt_buffer_map", "buffer", [=] { return iree_rt_buffer_map(nullptr, A, 0, 4, &ptr); }},
      {"iree_rt_buffer_map", "out_ptr", [=] { return iree_rt_buffer_map(buf, A, 0, 4, nullptr); }},
      {"iree_rt_buffer_unmap", "buffer", [=] { return iree_rt_buffer_unmap(nullptr, bytes); }},
      {"iree_rt_buffer_unmap", "ptr", [=] { return iree_rt_buffer_unmap(buf, nullptr); }},
      {"iree_rt_buffer_read", "buffer", [=] { return iree_rt_buffer_read(nullptr, 0, bytes, 4); }},
      {"iree_rt_buffer_read", "target", [=] { return iree_rt_buffer_read(buf, 0, nullptr, 4); }},
      {"iree_rt_buffer_write", "buffer",
       [=] { return iree_rt_buffer_write(nullptr, 0, bytes, 4); }},
      {"iree_rt_buffer_write", "source", [=] { return iree_rt_buffer_write(buf, 0, nullptr, 4); }},
      {"iree_rt_buffer_fill", "buffer",
       [=] { return iree_rt_buffer_fill(nullptr, 0, 4, &word, 4); }},
      {"iree_rt_buffer_fill", "pattern",
       [=] { return iree_rt_buffer_fill(buf, 0, 4, nullptr, 4); }},
      {"iree_rt_buffer_copy", "source", [=] { return iree_rt_buffer_copy(nullptr, 0, buf, 0, 4); }},
      {"iree_rt_buffer_copy", "target", [=] { return iree_rt_buffer_copy(buf, 0, nullptr, 0, 4); }},
      {"iree_rt_element_type_byte_count", "out_byte_count",
       [=] { return iree_rt_element_type_byte_count(F32, 1, nullptr); }},
      {"iree_rt_buffer_view_create", "buffer",
       [=] { return iree_rt_buffer_view_create(nullptr, shape, 1, F32, DENSE, &out_view); }},
      {"iree_rt_buffer_view_create", "shape",
       [=] { return iree_rt_buffer_view_create(buf, nullptr, 1, F32, DENSE, &out_view); }},
      {"iree_rt_buffer_view_create", "out_view",
       [=] { return iree_rt_buffer_view_create(buf, shape, 1, F32, DENSE, nullptr); }},
      {"iree_rt_buffer_view_buffer", "view",
       [=] { return iree_rt_buffer_view_buffer(nullptr, &out_buf); }},
      {"iree_rt_buffer_view_buffer", "out_buffer",
       [=] { return iree_rt_buffer_view_buffer(view, nullptr); }},
      {"iree_rt_buffer_view_rank", "view",
       [=] { return iree_rt_buffer_view_rank(nullptr, &size); }},
      {"iree_rt_buffer_view_rank", "out_rank",
       [=] { return iree_rt_buffer_view_rank(view, nullptr); }},
      {"iree_rt_buffer_view_dim", "view",
       [=] { return iree_rt_buffer_view_dim(nullptr, 0, &i64); }},
      {"iree_rt_buffer_view_dim", "out_dim",
       [=] { return iree_rt_buffer_view_dim(view, 0, nullptr); }},
      {"iree_rt_buffer_view_shape", "view",
       [=] { return iree_rt_buffer_view_shape(nullptr, 1, &i64, &size); }},
      {"iree_rt_buffer_view_shape", "out_shape",
       [=] { return iree_rt_buffer_view_shape(view, 1, nullptr, &size); }},
      {"iree_rt_buffer_view_shape", "out_rank",
       [=] { return iree_rt_buffer_view_shape(view, 1, &i64, nullptr); }},
      {"iree_rt_buffer_view_element_type", "view",
       [=] { return iree_rt_buffer_view_element_type(nullptr, &element_type); }},
      {"iree_rt_buffer_view_element_type", "out_element_type",
       [=] { return iree_rt_buffer_view_element_type(view, nullptr); }},
      {"iree_rt_buffer_view_encoding", "view",
       [=] { return iree_rt_buffer_view_encoding(nullptr, &encoding); }},
      {"iree_rt_buffer_view_encoding", "out_encoding",
       [=] { return iree_rt_buffer_view_encoding(view, nullptr); }},
      {"iree_rt_buffer_view_byte_length", "view",
       [=] { return iree_rt_buffer_view_byte_length(nullptr, &u64); }},
      {"iree_rt_buffer_view_byte_length", "out_byte_length",
       [=] { return iree_rt_buffer_view_byte_length(view, nullptr); }},
      {"iree_rt_buffer_view_element_count", "view",
       [=] { return iree_rt_buffer_view_element_count(nullptr, &u64); }},
      {"iree_rt_buffer_view_element_count", "out_element_count",
       [=] { return iree_rt_buffer_view_element_count(view, nullptr); }},
      {"iree_rt_semaphore_create", "device",
       [=] { return iree_rt_semaphore_create(nullptr, 0, &out_sem); }},
      {"iree_rt_semaphore_create", "out_semaphore",
       [=] { return iree_rt_semaphore_create(dev, 0, nullptr); }},
      {"iree_rt_semaphore_query", "semaphore",
       [=] { return iree_rt_semaphore_query(nullptr, &u64); }},
      {"iree_rt_semaphore_query", "out_value",
       [=] { return iree_rt_semaphore_query(sem, nullptr); }},
      {"iree_rt_semaphore_signal", "semaphore",
       [=] { return iree_rt_semaphore_signal(nullptr, 1); }},
      {"iree_rt_semaphore_fail", "semaphore",
       [=] { return iree_rt_semaphore_fail(nullptr, IREE_RT_STATUS_ABORTED, "x"); }},
      {"iree_rt_semaphore_wait", "semaphore",
       [=] { return iree_rt_semaphore_wait(nullptr, 1, 0); }},
      {"iree_rt_semaphore_wait_many", "semaphores",
       [=] { return iree_rt_semaphore_wait_many(nullptr, values, 1, IREE_RT_WAIT_MODE_ALL, 0); }},
      {"iree_rt_semaphore_wait_many", "values",
       [=] { return iree_rt_semaphore_wait_many(sems, nullptr, 1, IREE_RT_WAIT_MODE_ALL, 0); }},
      {"iree_rt_fence_create", "out_fence", [=] { return iree_rt_fence_create(nullptr); }},
      {"iree_rt_fence_insert", "fence", [=] { return iree_rt_fence_insert(nullptr, sem, 1); }},
      {"iree_rt_fence_insert", "semaphore",
       [=] { return iree_rt_fence_insert(fence, nullptr, 1); }},
      {"iree_rt_fence_join", "fences", [=] { return iree_rt_fence_join(nullptr, 1, &out_fence); }},
      {"iree_rt_fence_join", "out_fence", [=] { return iree_rt_fence_join(&fence, 1, nullptr); }},
      {"iree_rt_fence_size", "fence", [=] { return iree_rt_fence_size(nullptr, &size); }},
      {"iree_rt_fence_size", "out_size", [=] { return iree_rt_fence_size(fence, nullptr); }},
      {"iree_rt_fence_query", "fence", [=] { return iree_rt_fence_query(nullptr); }},
      {"iree_rt_fence_signal", "fence", [=] { return iree_rt_fence_signal(nullptr); }},
      {"iree_rt_fence_fail", "fence",
       [=] { return iree_rt_fence_fail(nullptr, IREE_RT_STATUS_ABORTED, "x"); }},
      {"iree_rt_fence_wait", "fence", [=] { return iree_rt_fence_wait(nullptr, 0); }},
      {"iree_rt_fence_wait_any", "fence", [=] { return iree_rt_fence_wait_any(nullptr, 0); }},
      {"iree_rt_fence_notify", "fence",
       [=] { return iree_rt_fence_notify(nullptr, NotifyNothing, nullptr); }},
      {"iree_rt_fence_notify", "callback",
       [=] { return iree_rt_fence_notify(fence, nullptr, nullptr); }},
      {"iree_rt_executable_load", "device",
       [=] { return iree_rt_executable_load(nullptr, fmt, bytes, 64, nullptr, 0, &out_exe); }},
      {"iree_rt_executable_load", "format",
       [=] { return iree_rt_executable_load(dev, nullptr, bytes, 64, nullptr, 0, &out_exe); }},
      {"iree_rt_executable_load", "data",
       [=] { return iree_rt_executable_load(dev, fmt, nullptr, 64, nullptr, 0, &out_exe); }},
      {"iree_rt_executable_load", "constants",
       [=] { return iree_rt_executable_load(dev, fmt, bytes, 64, nullptr, 2, &out_exe); }},
      {"iree_rt_executable_load", "out_executable",
       [=] { return iree_rt_executable_load(dev, fmt, bytes, 64, nullptr, 0, nullptr); }},
      {"iree_rt_executable_export_count", "executable",
       [=] { return iree_rt_executable_export_count(nullptr, &size); }},
      {"iree_rt_executable_export_name", "executable",
       [=] { return iree_rt_executable_export_name(nullptr, 0, &str); }},
      {"iree_rt_executable_lookup_export", "executable",
       [=] { return iree_rt_executable_lookup_export(nullptr, "x", &u32); }},
      {"iree_rt_executable_export_constant_count", "executable",
       [=] { return iree_rt_executable_export_constant_count(nullptr, 0, &size); }},
      {"iree_rt_executable_export_binding_count", "executable",
       [=] { return iree_rt_executable_export_binding_count(nullptr, 0, &size); }},
      {"iree_rt_command_buffer_create", "device",
       [=] {
         return iree_rt_command_buffer_create(nullptr, 0, IREE_RT_COMMAND_CATEGORY_ANY, 0, &out_cb);
       }},
      {"iree_rt_command_buffer_create", "out_command_buffer",
       [=] {
         return iree_rt_command_buffer_create(dev, 0, IREE_RT_COMMAND_CATEGORY_ANY, 0, nullptr);
       }},
      {"iree_rt_command_buffer_fill", "command_buffer",
       [=] { return iree_rt_command_buffer_fill(nullptr, buf, 0, 0, 4, &word, 4); }},
      {"iree_rt_command_buffer_fill", "pattern",
       [=] { return iree_rt_command_buffer_fill(cb, buf, 0, 0, 4, nullptr, 4); }},
      {"iree_rt_command_buffer_update", "command_buffer",
       [=] { return iree_rt_command_buffer_update(nullptr, bytes, 4, buf, 0, 0); }},
      {"iree_rt_command_buffer_update", "source",
       [=] { return iree_rt_command_buffer_update(cb, nullptr, 4, buf, 0, 0); }},
      {"iree_rt_command_buffer_copy", "command_buffer",
       [=] { return iree_rt_command_buffer_copy(nullptr, buf, 0, 0, buf, 0, 8, 4); }},
      {"iree_rt_command_buffer_dispatch", "command_buffer",
       [=] {
         return iree_rt_command_buffer_dispatch(nullptr, exe, 0, 1, 1, 1, nullptr, 0, nullptr,
                                                nullptr, nullptr, nullptr, 0);
       }},
      {"iree_rt_command_buffer_dispatch", "executable",
       [=] {
         return iree_rt_command_buffer_dispatch(cb, nullptr, 0, 1, 1, 1, nullptr, 0, nullptr,
                                                nullptr, nullptr, nullptr, 0);
       }},
      {"iree_rt_command_buffer_barrier", "command_buffer",
       [=] { return iree_rt_command_buffer_barrier(nullptr); }},
      {"iree_rt_command_buffer_finalize", "command_buffer",
       [=] { return iree_rt_command_buffer_finalize(nullptr); }},
      {"iree_rt_device_queue_execute", "device",
       [=] {
         return iree_rt_device_queue_execute(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                             nullptr, 0);
       }},
      {"iree_rt_device_queue_execute", "binding_buffers",
       [=] {
         return iree_rt_device_queue_execute(dev, nullptr, nullptr, nullptr, nullptr, nullptr,
                                             nullptr, 1);
       }},
      {"iree_rt_device_queue_fill", "device",
       [=] { return iree_rt_device_queue_fill(nullptr, nullptr, nullptr, buf, 0, 4, &word, 4); }},
      {"iree_rt_device_queue_fill", "target",
       [=] { return iree_rt_device_queue_fill(dev, nullptr, nullptr, nullptr, 0, 4, &word, 4); }},
      {"iree_rt_device_queue_fill", "pattern",
       [=] { return iree_rt_device_queue_fill(dev, nullptr, nullptr, buf, 0, 4, nullptr, 4); }},
      {"iree_rt_device_queue_copy", "device",
       [=] { return iree_rt_device_queue_copy(nullptr, nullptr, nullptr, buf, 0, buf, 8, 4); }},
      {"iree_rt_device_queue_copy", "source",
       [=] { return iree_rt_device_queue_copy(dev, nullptr, nullptr, nullptr, 0, buf, 8, 4); }},
      {"iree_rt_device_queue_copy", "target",
       [=] { return iree_rt_device_queue_copy(dev, nullptr, nullptr, buf, 0, nullptr, 8, 4); }},
      {"iree_rt_device_queue_update", "device",
       [=] { return iree_rt_device_queue_update(nullptr, nullptr, nullptr, bytes, 4, buf, 0); }},
      {"iree_rt_device_queue_update", "source",
       [=] { return iree_rt_device_queue_update(dev, nullptr, nullptr, nullptr, 4, buf, 0); }},
      {"iree_rt_device_queue_update", "target",
       [=] { return iree_rt_device_queue_update(dev, nullptr, nullptr, bytes, 4, nullptr, 0); }},
      {"iree_rt_device_queue_alloca", "device",
       [=] {
         return iree_rt_device_queue_alloca(nullptr, nullptr, nullptr, T, U, 16, 0, &out_buf);
       }},
      {"iree_rt_device_queue_alloca", "out_buffer",
       [=] { return iree_rt_device_queue_alloca(dev, nullptr, nullptr, T, U, 16, 0, nullptr); }},
      {"iree_rt_device_queue_dealloca", "device",
       [=] { return iree_rt_device_queue_dealloca(nullptr, nullptr, nullptr, buf); }},
      {"iree_rt_device_queue_dealloca", "buffer",
       [=] { return iree_rt_device_queue_dealloca(dev, nullptr, nullptr, nullptr); }},
      {"iree_rt_device_queue_barrier", "device",
       [=] { return iree_rt_device_queue_barrier(nullptr, nullptr, nullptr); }},
  };
  if (exe) {  // out-pointer checks come after the handle check, so they need a live executable
    std::vector<NullCall> more = {
        {"iree_rt_executable_export_count", "out_count",
         [=] { return iree_rt_executable_export_count(exe, nullptr); }},
        {"iree_rt_executable_export_name", "out_name",
         [=] { return iree_rt_executable_export_name(exe, 0, nullptr); }},
        {"iree_rt_executable_lookup_export", "name",
         [=] { return iree_rt_executable_lookup_export(exe, nullptr, &u32); }},
        {"iree_rt_executable_lookup_export", "out_ordinal",
         [=] { return iree_rt_executable_lookup_export(exe, "x", nullptr); }},
        {"iree_rt_executable_export_constant_count", "out_count",
         [=] { return iree_rt_executable_export_constant_count(exe, 0, nullptr); }},
        {"iree_rt_executable_export_binding_count", "out_count",
         [=] { return iree_rt_executable_export_binding_count(exe, 0, nullptr); }},
        {"iree_rt_command_buffer_dispatch", "constants",
         [=] {
           return iree_rt_command_buffer_dispatch(cb, exe, 0, 1, 1, 1, nullptr, 2, nullptr, nullptr,
                                                  nullptr, nullptr, 0);
         }},
        {"iree_rt_command_buffer_dispatch", "buffers",
         [=] {
           return iree_rt_command_buffer_dispatch(cb, exe, 0, 1, 1, 1, &word, 1, nullptr, nullptr,
                                                  nullptr, nullptr, 2);
         }},
    };
    calls.insert(calls.end(), more.begin(), more.end());
  }
  std::vector<NullCall> vm_calls = VmNullCalls();
  calls.insert(calls.end(), vm_calls.begin(), vm_calls.end());
  std::vector<NullCall> parameters_calls = ParametersNullCalls();
  calls.insert(calls.end(), parameters_calls.begin(), parameters_calls.end());
  return calls;
}

std::vector<NullCall> MisuseTest::VmNullCalls() {
  auto* in = instance_;
  auto* mod = module_;
  auto* ctx = context_;
  auto* fn = function_;
  auto* vl = value_list_;
  auto* view = view_;
  auto* dev = device_;
  auto* fence = fence_;
  static const char* str;
  static size_t size;
  static uint64_t u64;
  static iree_rt_module_t out_module;
  static iree_rt_context_t out_context;
  static iree_rt_function_t out_function;
  static iree_rt_value_list_t out_list;
  static iree_rt_value_type_t type;
  static iree_rt_buffer_view_t out_view;
  static int32_t i32;
  static int64_t i64;
  static float f32;
  static double f64;
  static const char bytes[16] = {};
  return {
      {"iree_rt_module_load_file", "instance",
       [=] { return iree_rt_module_load_file(nullptr, "m.vmfb", &out_module); }},
      {"iree_rt_module_load_file", "path",
       [=] { return iree_rt_module_load_file(in, nullptr, &out_module); }},
      {"iree_rt_module_load_file", "out_module",
       [=] { return iree_rt_module_load_file(in, "m.vmfb", nullptr); }},
      {"iree_rt_module_load_memory", "instance",
       [=] { return iree_rt_module_load_memory(nullptr, bytes, 16, 0, nullptr, nullptr, &out_module); }},
      {"iree_rt_module_load_memory", "data",
       [=] { return iree_rt_module_load_memory(in, nullptr, 16, 0, nullptr, nullptr, &out_module); }},
      {"iree_rt_module_load_memory", "out_module",
       [=] { return iree_rt_module_load_memory(in, bytes, 16, 0, nullptr, nullptr, nullptr); }},
      {"iree_rt_module_create_check", "instance",
       [=] { return iree_rt_module_create_check(nullptr, &out_module); }},
      {"iree_rt_module_create_check", "out_module",
       [=] { return iree_rt_module_create_check(in, nullptr); }},
      {"iree_rt_module_create_hal", "instance",
       [=] { return iree_rt_module_create_hal(nullptr, &dev, 1, &out_module); }},
      {"iree_rt_module_create_hal", "devices",
       [=] { return iree_rt_module_create_hal(in, nullptr, 1, &out_module); }},
      {"iree_rt_module_create_hal", "out_module",
       [=] { return iree_rt_module_create_hal(in, &dev, 1, nullptr); }},
      {"iree_rt_module_name", "module", [=] { return iree_rt_module_name(nullptr, &str); }},
      {"iree_rt_module_name", "out_name", [=] { return iree_rt_module_name(mod, nullptr); }},
      {"iree_rt_module_function_count", "module",
       [=] { return iree_rt_module_function_count(nullptr, &size); }},
      {"iree_rt_module_function_count", "out_count",
       [=] { return iree_rt_module_function_count(mod, nullptr); }},
      {"iree_rt_module_function_name", "module",
       [=] { return iree_rt_module_function_name(nullptr, 0, &str); }},
      {"iree_rt_module_function_name", "out_name",
       [=] { return iree_rt_module_function_name(mod, 0, nullptr); }},
      {"iree_rt_module_function_signature", "module",
       [=] { return iree_rt_module_function_signature(nullptr, 0, &str); }},
      {"iree_rt_module_function_signature", "out_signature",
       [=] { return iree_rt_module_function_signature(mod, 0, nullptr); }},
      {"iree_rt_module_function_attr_count", "module",
       [=] { return iree_rt_module_function_attr_count(nullptr, 0, &size); }},
      {"iree_rt_module_function_attr_count", "out_count",
       [=] { return iree_rt_module_function_attr_count(mod, 0, nullptr); }},
      {"iree_rt_module_function_attr", "module",
       [=] { return iree_rt_module_function_attr(nullptr, 0, 0, &str, &str); }},
      {"iree_rt_module_function_attr", "out_key",
       [=] { return iree_rt_module_function_attr(mod, 0, 0, nullptr, &str); }},
      {"iree_rt_module_function_attr", "out_value",
       [=] { return iree_rt_module_function_attr(mod, 0, 0, &str, nullptr); }},
      {"iree_rt_context_create", "instance",
       [=] { return iree_rt_context_create(nullptr, nullptr, 0, &out_context); }},
      {"iree_rt_context_create", "modules",
       [=] { return iree_rt_context_create(in, nullptr, 1, &out_context); }},
      {"iree_rt_context_create", "out_context",
       [=] { return iree_rt_context_create(in, nullptr, 0, nullptr); }},
      {"iree_rt_context_set_limit", "context",
       [=] { return iree_rt_context_set_limit(nullptr, IREE_RT_LIMIT_MAX_CALL_DEPTH, 1); }},
      {"iree_rt_context_get_limit", "context",
       [=] { return iree_rt_context_get_limit(nullptr, IREE_RT_LIMIT_MAX_CALL_DEPTH, &u64); }},
      {"iree_rt_context_get_limit", "out_value",
       [=] { return iree_rt_context_get_limit(ctx, IREE_RT_LIMIT_MAX_CALL_DEPTH, nullptr); }},
      {"iree_rt_context_memory_used", "context",
       [=] { return iree_rt_context_memory_used(nullptr, &u64); }},
      {"iree_rt_context_memory_used", "out_bytes",
       [=] { return iree_rt_context_memory_used(ctx, nullptr); }},
      {"iree_rt_context_lookup_function", "context",
       [=] { return iree_rt_context_lookup_function(nullptr, "add", &out_function); }},
      {"iree_rt_context_lookup_function", "name",
       [=] { return iree_rt_context_lookup_function(ctx, nullptr, &out_function); }},
      {"iree_rt_context_lookup_function", "out_function",
       [=] { return iree_rt_context_lookup_function(ctx, "add", nullptr); }},
      {"iree_rt_function_name", "function", [=] { return iree_rt_function_name(nullptr, &str); }},
      {"iree_rt_function_name", "out_name", [=] { return iree_rt_function_name(fn, nullptr); }},
      {"iree_rt_function_signature", "function",
       [=] { return iree_rt_function_signature(nullptr, &str); }},
      {"iree_rt_function_signature", "out_signature",
       [=] { return iree_rt_function_signature(fn, nullptr); }},
      {"iree_rt_function_attr", "function",
       [=] { return iree_rt_function_attr(nullptr, "k", &str); }},
      {"iree_rt_function_attr", "key", [=] { return iree_rt_function_attr(fn, nullptr, &str); }},
      {"iree_rt_function_attr", "out_value",
       [=] { return iree_rt_function_attr(fn, "k", nullptr); }},
      {"iree_rt_function_call", "function",
       [=] { return iree_rt_function_call(nullptr, vl, vl); }},
      {"iree_rt_function_call", "results", [=] { return iree_rt_function_call(fn, vl, nullptr); }},
      {"iree_rt_value_list_create", "out_list",
       [=] { return iree_rt_value_list_create(1, nullptr); }},
      {"iree_rt_value_list_size", "list", [=] { return iree_rt_value_list_size(nullptr, &size); }},
      {"iree_rt_value_list_size", "out_size", [=] { return iree_rt_value_list_size(vl, nullptr); }},
      {"iree_rt_value_list_clear", "list", [=] { return iree_rt_value_list_clear(nullptr); }},
      {"iree_rt_value_list_push_i32", "list",
       [=] { return iree_rt_value_list_push_i32(nullptr, 1); }},
      {"iree_rt_value_list_push_i64", "list",
       [=] { return iree_rt_value_list_push_i64(nullptr, 1); }},
      {"iree_rt_value_list_push_f32", "list",
       [=] { return iree_rt_value_list_push_f32(nullptr, 1); }},
      {"iree_rt_value_list_push_f64", "list",
       [=] { return iree_rt_value_list_push_f64(nullptr, 1); }},
      {"iree_rt_value_list_push_buffer_view", "list",
       [=] { return iree_rt_value_list_push_buffer_view(nullptr, view); }},
      {"iree_rt_value_list_push_fence", "list",
       [=] { return iree_rt_value_list_push_fence(nullptr, fence); }},
      {"iree_rt_value_list_push_list", "list",
       [=] { return iree_rt_value_list_push_list(nullptr, vl); }},
      {"iree_rt_value_list_get_type", "list",
       [=] { return iree_rt_value_list_get_type(nullptr, 0, &type); }},
      {"iree_rt_value_list_get_type", "out_type",
       [=] { return iree_rt_value_list_get_type(vl, 0, nullptr); }},
      {"iree_rt_value_list_get_ref_type", "list",
       [=] { return iree_rt_value_list_get_ref_type(nullptr, 0, &str); }},
      {"iree_rt_value_list_get_ref_type", "out_type_name",
       [=] { return iree_rt_value_list_get_ref_type(vl, 0, nullptr); }},
      {"iree_rt_value_list_get_i32", "list",
       [=] { return iree_rt_value_list_get_i32(nullptr, 0, &i32); }},
      {"iree_rt_value_list_get_i32", "out_value",
       [=] { return iree_rt_value_list_get_i32(vl, 0, nullptr); }},
      {"iree_rt_value_list_get_i64", "list",
       [=] { return iree_rt_value_list_get_i64(nullptr, 0, &i64); }},
      {"iree_rt_value_list_get_i64", "out_value",
       [=] { return iree_rt_value_list_get_i64(vl, 0, nullptr); }},
      {"iree_rt_value_list_get_f32", "list",
       [=] { return iree_rt_value_list_get_f32(nullptr, 0, &f32); }},
      {"iree_rt_value_list_get_f32", "out_value",
       [=] { return iree_rt_value_list_get_f32(vl, 0, nullptr); }},
      {"iree_rt_value_list_get_f64", "list",
       [=] { return iree_rt_value_list_get_f64(nullptr, 0, &f64); }},
      {"iree_rt_value_list_get_f64", "out_value",
       [=] { return iree_rt_value_list_get_f64(vl, 0, nullptr); }},
      {"iree_rt_value_list_get_buffer_view", "list",
       [=] { return iree_rt_value_list_get_buffer_view(nullptr, 0, &out_view); }},
      {"iree_rt_value_list_get_buffer_view", "out_view",
       [=] { return iree_rt_value_list_get_buffer_view(vl, 0, nullptr); }},
      {"iree_rt_value_list_get_list", "list",
       [=] { return iree_rt_value_list_get_list(nullptr, 0, &out_list); }},
      {"iree_rt_value_list_get_list", "out_list",
       [=] { return iree_rt_value_list_get_list(vl, 0, nullptr); }},
  };
}

std::vector<NullCall> MisuseTest::ParametersNullCalls() {
  auto* in = instance_;
  auto* ps = parameters_;
  static iree_rt_parameters_t out_parameters;
  static iree_rt_module_t out_module;
  static const char* str;
  static size_t size;
  static uint64_t u64;
  static const char bytes[16] = {};
  constexpr auto kMmap = IREE_RT_PARAMETER_MODE_MMAP;
  constexpr auto kNone = IREE_RT_PARAMETERS_FLAG_NONE;
  return {
      {"iree_rt_parameters_create", "instance",
       [=] { return iree_rt_parameters_create(nullptr, "s", &out_parameters); }},
      {"iree_rt_parameters_create", "out_parameters",
       [=] { return iree_rt_parameters_create(in, "s", nullptr); }},
      {"iree_rt_parameters_add_file", "parameters",
       [=] { return iree_rt_parameters_add_file(nullptr, "p.irpa", kMmap); }},
      {"iree_rt_parameters_add_file", "path",
       [=] { return iree_rt_parameters_add_file(ps, nullptr, kMmap); }},
      {"iree_rt_parameters_add_archive_memory", "parameters",
       [=] { return iree_rt_parameters_add_archive_memory(nullptr, "irpa", bytes, 16, kNone, nullptr, nullptr); }},
      {"iree_rt_parameters_add_archive_memory", "format",
       [=] { return iree_rt_parameters_add_archive_memory(ps, nullptr, bytes, 16, kNone, nullptr, nullptr); }},
      {"iree_rt_parameters_add_archive_memory", "data",
       [=] { return iree_rt_parameters_add_archive_memory(ps, "irpa", nullptr, 16, kNone, nullptr, nullptr); }},
      {"iree_rt_parameters_add_memory", "parameters",
       [=] { return iree_rt_parameters_add_memory(nullptr, "k", bytes, 16, kNone, nullptr, nullptr); }},
      {"iree_rt_parameters_add_memory", "key",
       [=] { return iree_rt_parameters_add_memory(ps, nullptr, bytes, 16, kNone, nullptr, nullptr); }},
      {"iree_rt_parameters_add_memory", "data",
       [=] { return iree_rt_parameters_add_memory(ps, "k", nullptr, 16, kNone, nullptr, nullptr); }},
      {"iree_rt_parameters_add_splat", "parameters",
       [=] { return iree_rt_parameters_add_splat(nullptr, "k", bytes, 4, 16); }},
      {"iree_rt_parameters_add_splat", "key",
       [=] { return iree_rt_parameters_add_splat(ps, nullptr, bytes, 4, 16); }},
      {"iree_rt_parameters_add_splat", "pattern",
       [=] { return iree_rt_parameters_add_splat(ps, "k", nullptr, 4, 16); }},
      {"iree_rt_parameters_scope", "parameters", [=] { return iree_rt_parameters_scope(nullptr, &str); }},
      {"iree_rt_parameters_scope", "out_scope", [=] { return iree_rt_parameters_scope(ps, nullptr); }},
      {"iree_rt_parameters_count", "parameters", [=] { return iree_rt_parameters_count(nullptr, &size); }},
      {"iree_rt_parameters_count", "out_count", [=] { return iree_rt_parameters_count(ps, nullptr); }},
      {"iree_rt_parameters_entry", "parameters",
       [=] { return iree_rt_parameters_entry(nullptr, 0, &str, &u64); }},
      {"iree_rt_parameters_entry", "out_key",
       [=] { return iree_rt_parameters_entry(ps, 0, nullptr, &u64); }},
      {"iree_rt_parameters_entry", "out_length",
       [=] { return iree_rt_parameters_entry(ps, 0, &str, nullptr); }},
      {"iree_rt_module_create_io_parameters", "instance",
       [=] { return iree_rt_module_create_io_parameters(nullptr, &ps, 1, &out_module); }},
      {"iree_rt_module_create_io_parameters", "parameters",
       [=] { return iree_rt_module_create_io_parameters(in, nullptr, 1, &out_module); }},
      {"iree_rt_module_create_io_parameters", "out_module",
       [=] { return iree_rt_module_create_io_parameters(in, &ps, 1, nullptr); }},
  };
}

TEST_F(MisuseTest, NullArgumentsNameTheParameter) {
  for (const NullCall& c : NullCalls()) {
    iree_rt_status_t status = c.call();
    ASSERT_NE(status, nullptr) << c.function << " accepted a NULL '" << c.parameter << "'";
    std::string message = iree_rt_status_message(status);
    EXPECT_EQ(iree_rt_status_code(status), IREE_RT_STATUS_INVALID_ARGUMENT)
        << c.function << "(" << c.parameter << "): " << message;
    EXPECT_EQ(message.rfind(c.function + ": ", 0), 0u) << message;
    EXPECT_NE(message.find("parameter '" + c.parameter + "'"), std::string::npos)
        << c.function << "(" << c.parameter << "): " << message;
    iree_rt_status_free(status);
  }
}

// Every status-returning function has at least one row in the NULL-argument table.
TEST_F(MisuseTest, NullArgumentTableCoversEveryFunction) {
  std::set<std::string> covered;
  for (const NullCall& c : NullCalls()) covered.insert(c.function);
  const std::set<std::string> exempt = {// no status to return, or nothing that may be NULL
                                        "iree_rt_get_abi_version", "iree_rt_get_version_string",
                                        "iree_rt_get_proc",        "iree_rt_status_code",
                                        "iree_rt_status_message",  "iree_rt_status_free",
                                        "iree_rt_status_code_name"};
  std::ifstream symbols(IREE_RT_SYMBOLS_FILE);
  ASSERT_TRUE(symbols.good());
  for (std::string name; std::getline(symbols, name);) {
    if (name.empty() || name[0] == '#' || exempt.count(name)) continue;
    if (name.ends_with("_retain") || name.ends_with("_release")) continue;
    EXPECT_TRUE(covered.count(name)) << name << " has no NULL-argument test";
  }
}

TEST_F(MisuseTest, HandlesOfTheWrongTypeAreRejected) {
  auto as_device = reinterpret_cast<iree_rt_device_t>(buffer_);
  const char* id = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_device_id(as_device, &id), IREE_RT_STATUS_INVALID_ARGUMENT,
                      "parameter 'device' is an iree_rt_buffer_t, expected an iree_rt_device_t"));
  EXPECT_EQ(id, nullptr);
  iree_rt_buffer_t out = nullptr;
  EXPECT_TRUE(IsInvalidArgument(iree_rt_buffer_allocate(as_device, 0, 0, 4, &out), "device"));
  uint64_t length = 0;
  EXPECT_TRUE(IsInvalidArgument(
      iree_rt_buffer_length(reinterpret_cast<iree_rt_buffer_t>(view_), &length), "buffer"));
  EXPECT_TRUE(IsInvalidArgument(
      iree_rt_fence_insert(fence_, reinterpret_cast<iree_rt_semaphore_t>(fence_), 1), "semaphore"));
  EXPECT_TRUE(IsInvalidArgument(
      iree_rt_instance_driver_count(reinterpret_cast<iree_rt_instance_t>(device_), nullptr),
      "instance"));
  const iree_rt_buffer_t bindings[] = {buffer_, reinterpret_cast<iree_rt_buffer_t>(semaphore_)};
  EXPECT_TRUE(IsInvalidArgument(iree_rt_device_queue_execute(device_, nullptr, nullptr, nullptr,
                                                             bindings, nullptr, nullptr, 2),
                                "binding_buffers[1]"));
  EXPECT_TRUE(IsInvalidArgument(
      iree_rt_device_queue_barrier(device_, reinterpret_cast<iree_rt_fence_t>(semaphore_), nullptr),
      "wait_fence"));
  // retain/release cannot report errors: they ignore handles of the wrong type.
  iree_rt_device_retain(as_device);
  iree_rt_device_release(as_device);
  iree_rt_device_release(as_device);
  EXPECT_TRUE(IsOk(iree_rt_buffer_length(buffer_, &length)));
}

#if !defined(IREE_RT_TEST_ASAN)
// Reading a released handle's memory is what ASan exists to catch, so this runs in normal builds.
TEST_F(MisuseTest, ReleasedHandlesAreUsuallyDetected) {
  iree_rt_buffer_t buffer = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_allocate(device_, IREE_RT_MEMORY_TYPE_DEVICE_LOCAL,
                                           IREE_RT_BUFFER_USAGE_DEFAULT, 4096, &buffer)));
  iree_rt_buffer_release(buffer);
  uint64_t length = 0;
  EXPECT_TRUE(HasCode(iree_rt_buffer_length(buffer, &length), IREE_RT_STATUS_INVALID_ARGUMENT,
                      "parameter 'buffer' is not a live iree_rt_buffer_t"));
  iree_rt_buffer_release(buffer);  // a second release is ignored instead of freeing twice
}
#endif

TEST_F(MisuseTest, ReleaseAcceptsNull) {
  iree_rt_instance_options_retain(nullptr);
  iree_rt_instance_options_release(nullptr);
  iree_rt_instance_retain(nullptr);
  iree_rt_instance_release(nullptr);
  iree_rt_device_info_list_retain(nullptr);
  iree_rt_device_info_list_release(nullptr);
  iree_rt_device_options_retain(nullptr);
  iree_rt_device_options_release(nullptr);
  iree_rt_device_retain(nullptr);
  iree_rt_device_release(nullptr);
  iree_rt_buffer_retain(nullptr);
  iree_rt_buffer_release(nullptr);
  iree_rt_buffer_view_retain(nullptr);
  iree_rt_buffer_view_release(nullptr);
  iree_rt_semaphore_retain(nullptr);
  iree_rt_semaphore_release(nullptr);
  iree_rt_fence_retain(nullptr);
  iree_rt_fence_release(nullptr);
  iree_rt_executable_retain(nullptr);
  iree_rt_executable_release(nullptr);
  iree_rt_command_buffer_retain(nullptr);
  iree_rt_command_buffer_release(nullptr);
  iree_rt_module_retain(nullptr);
  iree_rt_module_release(nullptr);
  iree_rt_context_retain(nullptr);
  iree_rt_context_release(nullptr);
  iree_rt_function_retain(nullptr);
  iree_rt_function_release(nullptr);
  iree_rt_value_list_retain(nullptr);
  iree_rt_value_list_release(nullptr);
  iree_rt_parameters_retain(nullptr);
  iree_rt_parameters_release(nullptr);
}

void CountRelease(void* user_data, void*) {
  static_cast<std::atomic<int>*>(user_data)->fetch_add(1);
}

TEST_F(MisuseTest, RetainAndReleaseFromManyThreads) {
  static uint8_t host[64];
  std::atomic<int> released{0};
  iree_rt_buffer_t buffer = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_import_host(
      device_, IREE_RT_MEMORY_TYPE_HOST_LOCAL, IREE_RT_BUFFER_USAGE_DEFAULT,
      IREE_RT_MEMORY_ACCESS_ALL, host, sizeof(host), CountRelease, &released, &buffer)));
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([buffer] {
      for (int i = 0; i < 10000; ++i) {
        iree_rt_buffer_retain(buffer);
        iree_rt_buffer_release(buffer);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(released.load(), 0);
  iree_rt_buffer_release(buffer);
  EXPECT_EQ(released.load(), 1);
}

// Create and release every kind of object many times; the ASan build's LeakSanitizer fails the
// test binary if anything leaks, and the allocator statistics must return to their start.
TEST_F(MisuseTest, CreateReleaseCycles) {
  constexpr int kCycles = 1000;
  std::ifstream file(TestExecutablePath("scale_and_offset"), std::ios::binary);
  const std::vector<char> kernel((std::istreambuf_iterator<char>(file)), {});
  iree_rt_device_t task_device = CreateDevice("local-task://?workers=2");
  uint64_t bytes_before = 0;
  ASSERT_TRUE(IsOk(iree_rt_device_memory_statistic(
      task_device, IREE_RT_MEMORY_STATISTIC_BYTES_ALLOCATED, &bytes_before)));
  for (int i = 0; i < kCycles; ++i) {
    iree_rt_instance_options_t io = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_instance_options_create(&io)));
    ASSERT_TRUE(IsOk(iree_rt_instance_options_set_device_param(io, "local-task", "workers", "1")));
    iree_rt_instance_t instance = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_instance_create(IREE_RT_ABI_VERSION, io, &instance)));
    iree_rt_instance_options_release(io);
    iree_rt_device_info_list_t list = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_instance_enumerate_devices(instance, nullptr, &list)));
    iree_rt_device_info_list_release(list);
    iree_rt_device_options_t dopt = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_device_options_create(&dopt)));
    iree_rt_device_t device = nullptr;
    ASSERT_TRUE(
        IsOk(iree_rt_device_create(instance, i % 2 ? "local-task" : "local-sync", dopt, &device)));
    iree_rt_device_options_release(dopt);
    iree_rt_instance_release(instance);

    iree_rt_buffer_t buffer = nullptr, subspan = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_buffer_allocate(task_device, IREE_RT_MEMORY_TYPE_DEVICE_LOCAL,
                                             IREE_RT_BUFFER_USAGE_DEFAULT, 256, &buffer)));
    ASSERT_TRUE(IsOk(iree_rt_buffer_subspan(buffer, 64, 64, &subspan)));
    void* ptr = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_buffer_map(subspan, IREE_RT_MEMORY_ACCESS_WRITE, 0, 16, &ptr)));
    ASSERT_TRUE(IsOk(iree_rt_buffer_unmap(subspan, ptr)));
    iree_rt_buffer_view_t view = nullptr;
    const int64_t shape[] = {4, 4};
    ASSERT_TRUE(IsOk(iree_rt_buffer_view_create(subspan, shape, 2, IREE_RT_ELEMENT_TYPE_FLOAT_32,
                                                IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view)));
    iree_rt_semaphore_t semaphore = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_semaphore_create(task_device, 0, &semaphore)));
    iree_rt_fence_t wait = nullptr, signal = nullptr, joined = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_fence_create(&wait)));
    ASSERT_TRUE(IsOk(iree_rt_fence_create(&signal)));
    ASSERT_TRUE(IsOk(iree_rt_fence_insert(wait, semaphore, 1)));
    ASSERT_TRUE(IsOk(iree_rt_fence_insert(signal, semaphore, 2)));
    const iree_rt_fence_t parts[] = {wait, signal};
    ASSERT_TRUE(IsOk(iree_rt_fence_join(parts, 2, &joined)));
    iree_rt_command_buffer_t commands = nullptr;
    ASSERT_TRUE(
        IsOk(iree_rt_command_buffer_create(task_device, IREE_RT_COMMAND_BUFFER_MODE_ONE_SHOT,
                                           IREE_RT_COMMAND_CATEGORY_TRANSFER, 0, &commands)));
    const uint32_t pattern = static_cast<uint32_t>(i);
    ASSERT_TRUE(IsOk(iree_rt_command_buffer_fill(commands, buffer, 0, 0, 256, &pattern, 4)));
    ASSERT_TRUE(IsOk(iree_rt_command_buffer_finalize(commands)));
    ASSERT_TRUE(IsOk(iree_rt_device_queue_execute(task_device, wait, signal, commands, nullptr,
                                                  nullptr, nullptr, 0)));
    // Everything but the semaphore is released while the submission still waits.
    iree_rt_command_buffer_release(commands);
    iree_rt_buffer_view_release(view);
    iree_rt_buffer_release(subspan);
    iree_rt_buffer_release(buffer);
    iree_rt_fence_release(wait);
    iree_rt_fence_release(signal);
    iree_rt_fence_release(joined);
    ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(semaphore, 1)));
    ASSERT_TRUE(IsOk(iree_rt_semaphore_wait(semaphore, 2, IREE_RT_INFINITE_TIMEOUT)));
    iree_rt_semaphore_release(semaphore);
    if (!kernel.empty()) {
      iree_rt_executable_t executable = nullptr;
      ASSERT_TRUE(IsOk(iree_rt_executable_load(device, HostEmbeddedElfFormat(), kernel.data(),
                                               kernel.size(), nullptr, 0, &executable)));
      iree_rt_executable_release(executable);
    }
    iree_rt_device_release(device);
    iree_rt_status_free(iree_rt_device_id(nullptr, nullptr));  // error statuses are freed too
  }
  uint64_t bytes_after = 0;
  ASSERT_TRUE(IsOk(iree_rt_device_memory_statistic(
      task_device, IREE_RT_MEMORY_STATISTIC_BYTES_ALLOCATED, &bytes_after)));
  EXPECT_EQ(bytes_after, bytes_before);
}

}  // namespace
}  // namespace iree_rt_test
