// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Helpers for the C ABI tests: status assertions that free what they inspect, and a fixture that
// owns an instance and a device and releases every handle it is asked to keep.
//
// These tests see the library only through include/iree_rt.h, as any client does.
#ifndef IREE_RT_TESTS_UNIT_API_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_API_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "iree_rt.h"

namespace iree_rt_test {

// Succeeds for a NULL status; otherwise fails with its code and message. Frees |status|.
inline ::testing::AssertionResult IsOk(iree_rt_status_t status) {
  if (!status) return ::testing::AssertionSuccess();
  auto result = ::testing::AssertionFailure()
                << iree_rt_status_code_name(iree_rt_status_code(status)) << ": "
                << iree_rt_status_message(status);
  iree_rt_status_free(status);
  return result;
}

// Succeeds if |status| has |code| and its message contains |substring|. Frees |status|.
inline ::testing::AssertionResult HasCode(iree_rt_status_t status, iree_rt_status_code_t code,
                                          const std::string& substring = "") {
  if (!status) {
    return ::testing::AssertionFailure()
           << "expected " << iree_rt_status_code_name(code) << " but the call succeeded";
  }
  iree_rt_status_code_t actual = iree_rt_status_code(status);
  std::string message = iree_rt_status_message(status);
  iree_rt_status_free(status);
  if (actual != code || message.find(substring) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "expected " << iree_rt_status_code_name(code) << " containing '" << substring
           << "', got " << iree_rt_status_code_name(actual) << ": " << message;
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult IsInvalidArgument(iree_rt_status_t status,
                                                    const std::string& parameter) {
  return HasCode(status, IREE_RT_STATUS_INVALID_ARGUMENT, "'" + parameter);
}

// The kernel tests need tests/testdata/executables (built when iree-compile is available).
inline std::string TestExecutablePath(const char* name) {
  return std::string(IREE_RT_TEST_EXECUTABLES_DIR) + "/rt_exe_" + name + ".so";
}

inline const char* HostEmbeddedElfFormat() {
#if defined(__x86_64__)
  return "embedded-elf-x86_64";
#elif defined(__aarch64__)
  return "embedded-elf-arm_64";
#else
  return "embedded-elf-unknown";
#endif
}

class ApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(IsOk(iree_rt_instance_create(IREE_RT_ABI_VERSION, nullptr, &instance_)));
    Keep(instance_, iree_rt_instance_release);
    device_ = CreateDevice("local-sync");
  }
  void TearDown() override {
    for (auto it = cleanup_.rbegin(); it != cleanup_.rend(); ++it) (*it)();
    cleanup_.clear();
  }

  // Releases |handle| at the end of the test (in reverse order of Keep calls).
  template <typename Handle>
  Handle Keep(Handle handle, void (*release)(Handle)) {
    cleanup_.push_back([handle, release] { release(handle); });
    return handle;
  }

  iree_rt_device_t CreateDevice(const char* uri) {
    iree_rt_device_t device = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_device_create(instance_, uri, nullptr, &device))) << uri;
    return Keep(device, iree_rt_device_release);
  }
  iree_rt_buffer_t Allocate(iree_rt_device_t device, uint64_t size) {
    iree_rt_buffer_t buffer = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_buffer_allocate(device, IREE_RT_MEMORY_TYPE_DEVICE_LOCAL,
                                             IREE_RT_BUFFER_USAGE_DEFAULT, size, &buffer)));
    return Keep(buffer, iree_rt_buffer_release);
  }
  iree_rt_semaphore_t CreateSemaphore(iree_rt_device_t device, uint64_t initial = 0) {
    iree_rt_semaphore_t semaphore = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_semaphore_create(device, initial, &semaphore)));
    return Keep(semaphore, iree_rt_semaphore_release);
  }
  // A fence holding "|semaphore| reaches |value|" (an empty fence if |semaphore| is NULL).
  iree_rt_fence_t CreateFence(iree_rt_semaphore_t semaphore = nullptr, uint64_t value = 0) {
    iree_rt_fence_t fence = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_fence_create(&fence)));
    if (semaphore) {
      EXPECT_TRUE(IsOk(iree_rt_fence_insert(fence, semaphore, value)));
    }
    return Keep(fence, iree_rt_fence_release);
  }
  template <typename T>
  std::vector<T> ReadAll(iree_rt_buffer_t buffer) {
    uint64_t length = 0;
    EXPECT_TRUE(IsOk(iree_rt_buffer_length(buffer, &length)));
    std::vector<T> data(length / sizeof(T));
    EXPECT_TRUE(IsOk(iree_rt_buffer_read(buffer, 0, data.data(), data.size() * sizeof(T))));
    return data;
  }

  iree_rt_instance_t instance_ = nullptr;
  iree_rt_device_t device_ = nullptr;

 private:
  std::vector<std::function<void()>> cleanup_;
};

}  // namespace iree_rt_test

#endif  // IREE_RT_TESTS_UNIT_API_TEST_UTIL_H_
