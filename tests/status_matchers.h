// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Status assertions shared by every C++ test: EXPECT_TRUE(IsOk(x)) and
// EXPECT_TRUE(IsError(x, code, "substring")) print the status when they fail.
#ifndef IREE_RT_TESTS_STATUS_MATCHERS_H_
#define IREE_RT_TESTS_STATUS_MATCHERS_H_

#include <gtest/gtest.h>

#include <string_view>

#include "base/status.h"

namespace iree_rt::testing {

inline ::testing::AssertionResult IsOk(const base::Status& status) {
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status.ToString();
}
template <typename T>
::testing::AssertionResult IsOk(const base::StatusOr<T>& status_or) {
  return IsOk(status_or.status());
}

// Passes if |status| has |code| and, when given, its message contains |substring|.
inline ::testing::AssertionResult IsError(const base::Status& status, base::StatusCode code,
                                          std::string_view substring = {}) {
  if (status.code() != code) {
    return ::testing::AssertionFailure()
           << "expected " << base::StatusCodeName(code) << " but got " << status.ToString();
  }
  if (!substring.empty() && status.message().find(substring) == std::string_view::npos) {
    return ::testing::AssertionFailure()
           << "message '" << status.message() << "' lacks '" << substring << "'";
  }
  return ::testing::AssertionSuccess();
}
template <typename T>
::testing::AssertionResult IsError(const base::StatusOr<T>& status_or, base::StatusCode code,
                                   std::string_view substring = {}) {
  return IsError(status_or.status(), code, substring);
}

}  // namespace iree_rt::testing

#endif  // IREE_RT_TESTS_STATUS_MATCHERS_H_
