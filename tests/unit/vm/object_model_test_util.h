// Helpers shared by the VM object model tests.
#ifndef IREE_RT_TESTS_UNIT_VM_OBJECT_MODEL_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_VM_OBJECT_MODEL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "base/status.h"

namespace iree_rt::vm::testing {

// Succeeds when |status| has |code| and its message contains |substring|.
inline ::testing::AssertionResult IsError(const base::Status& status, base::StatusCode code,
                                          std::string_view substring = "") {
  if (status.code() != code || status.message().find(substring) == std::string_view::npos) {
    return ::testing::AssertionFailure()
           << "expected " << base::StatusCodeName(code) << " containing \"" << substring
           << "\" but got " << status.ToString();
  }
  return ::testing::AssertionSuccess();
}

template <typename T>
::testing::AssertionResult IsError(const base::StatusOr<T>& status_or, base::StatusCode code,
                                   std::string_view substring = "") {
  return IsError(status_or.status(), code, substring);
}

}  // namespace iree_rt::vm::testing

#endif  // IREE_RT_TESTS_UNIT_VM_OBJECT_MODEL_TEST_UTIL_H_
