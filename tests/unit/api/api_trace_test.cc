// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// C ABI tests of tracing: iree_rt_instance_options_set_trace_path and iree_rt_instance_trace_flush
// (the file's full content is checked by tests/tools/trace_test.py).
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "vm_test_util.h"

namespace iree_rt_test {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

TEST_F(VmApiTest, TracePathWritesTheFileOnFlushAndWhenTheInstanceEnds) {
  const std::string path = ::testing::TempDir() + "/api_trace_test.json";
  std::remove(path.c_str());
  iree_rt_instance_options_t options = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_options_create(&options)));
  EXPECT_TRUE(HasCode(iree_rt_instance_options_set_trace_path(options, ""),
                      IREE_RT_STATUS_INVALID_ARGUMENT));
  ASSERT_TRUE(IsOk(iree_rt_instance_options_set_trace_path(options, path.c_str())));
  iree_rt_instance_t traced = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_create(IREE_RT_ABI_VERSION, options, &traced)));
  iree_rt_instance_options_release(options);

  iree_rt_module_t module = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_module_load_file(traced, ProgramPath("scalars").c_str(), &module)));
  iree_rt_context_t context = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_context_create(traced, &module, 1, &context)));
  iree_rt_function_t add = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_context_lookup_function(context, "add", &add)));
  iree_rt_value_list_t args = List();
  iree_rt_value_list_t results = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i32(args, 1)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_i64(args, 2)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_f32(args, 1.5f)));
  ASSERT_TRUE(IsOk(iree_rt_function_call(add, args, results)));

  ASSERT_TRUE(IsOk(iree_rt_instance_trace_flush(traced)));
  const std::string flushed = ReadFile(path);
  EXPECT_EQ(flushed.rfind("{\"traceEvents\":[", 0), 0u) << flushed;
  EXPECT_NE(flushed.find("\"name\":\"module.add\""), std::string::npos) << flushed;
  EXPECT_NE(flushed.find("\"displayTimeUnit\":\"ns\"}"), std::string::npos) << flushed;

  ASSERT_TRUE(IsOk(iree_rt_function_call(add, args, results)));
  iree_rt_function_release(add);
  iree_rt_context_release(context);
  iree_rt_module_release(module);
  iree_rt_instance_release(traced);
  // The instance wrote the file again as it ended, with the second call, and stopped tracing.
  const std::string final_text = ReadFile(path);
  size_t calls = 0;
  for (size_t at = final_text.find("\"module.add\""); at != std::string::npos;
       at = final_text.find("\"module.add\"", at + 1)) {
    ++calls;
  }
  EXPECT_EQ(calls, 2u) << final_text;
  // Tracing is off again: flushing through another instance leaves the file as it is.
  ASSERT_TRUE(IsOk(iree_rt_instance_trace_flush(instance_)));
  EXPECT_EQ(ReadFile(path), final_text);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace iree_rt_test
