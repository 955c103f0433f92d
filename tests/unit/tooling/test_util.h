// Helpers for the tooling tests: status assertions and a real CPU device to allocate from.
#ifndef IREE_RT_TESTS_UNIT_TOOLING_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_TOOLING_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "base/status.h"
#include "hal/allocator.h"

namespace iree_rt::tooling::testing {

// EXPECT_TRUE(IsOk(x)) prints the status when it fails.
::testing::AssertionResult IsOk(const base::Status& status);
template <typename T>
::testing::AssertionResult IsOk(const base::StatusOr<T>& status_or) {
  return IsOk(status_or.status());
}
// Passes if |status| has |code| and, when given, its message contains |substring|.
::testing::AssertionResult IsError(const base::Status& status, base::StatusCode code,
                                   std::string_view substring = {});
template <typename T>
::testing::AssertionResult IsError(const base::StatusOr<T>& status_or, base::StatusCode code,
                                   std::string_view substring = {}) {
  return IsError(status_or.status(), code, substring);
}

// The allocator of a local-sync device, created once per test binary.
hal::Allocator& CpuAllocator();

// A fresh path under the test's temporary directory.
std::string TempPath(std::string_view name);

}  // namespace iree_rt::tooling::testing

#endif  // IREE_RT_TESTS_UNIT_TOOLING_TEST_UTIL_H_
