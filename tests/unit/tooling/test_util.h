// Helpers for the tooling tests: status assertions and a real CPU device to allocate from.
#ifndef IREE_RT_TESTS_UNIT_TOOLING_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_TOOLING_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "status_matchers.h"
#include "base/status.h"
#include "hal/allocator.h"

namespace iree_rt::tooling::testing {

using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;


// The allocator of a local-sync device, created once per test binary.
hal::Allocator& CpuAllocator();

// A fresh path under the test's temporary directory.
std::string TempPath(std::string_view name);

}  // namespace iree_rt::tooling::testing

#endif  // IREE_RT_TESTS_UNIT_TOOLING_TEST_UTIL_H_
