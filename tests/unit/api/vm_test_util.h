// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The fixture of the C ABI tests that run compiled programs (tests/unit/api/programs): loading,
// linking, function lookup and value lists, each handle released at the end of the test.
#ifndef IREE_RT_TESTS_UNIT_API_VM_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_API_VM_TEST_UTIL_H_

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "test_util.h"

namespace iree_rt_test {

inline std::string ProgramPath(const char* name) {
  return std::string(IREE_RT_TEST_API_PROGRAMS_DIR) + "/api_program_" + name + ".vmfb";
}

inline std::vector<char> ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(file)), {});
}

class VmApiTest : public ApiTest {
 protected:
  iree_rt_module_t Load(const char* name) {
    iree_rt_module_t module = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_module_load_file(instance_, ProgramPath(name).c_str(), &module)));
    return Keep(module, iree_rt_module_release);
  }
  iree_rt_context_t Link(std::vector<iree_rt_module_t> modules) {
    iree_rt_context_t context = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_context_create(instance_, modules.data(), modules.size(), &context)));
    return Keep(context, iree_rt_context_release);
  }
  iree_rt_function_t Lookup(iree_rt_context_t context, const char* name) {
    iree_rt_function_t function = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_context_lookup_function(context, name, &function))) << name;
    return Keep(function, iree_rt_function_release);
  }
  iree_rt_value_list_t List() {
    iree_rt_value_list_t list = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_value_list_create(4, &list)));
    return Keep(list, iree_rt_value_list_release);
  }
  size_t Size(iree_rt_value_list_t list) {
    size_t size = 0;
    EXPECT_TRUE(IsOk(iree_rt_value_list_size(list, &size)));
    return size;
  }
};

}  // namespace iree_rt_test

#endif  // IREE_RT_TESTS_UNIT_API_VM_TEST_UTIL_H_
