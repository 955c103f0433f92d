// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Helpers for the tooling tests: status assertions and a real CPU device to allocate from.
#ifndef IREE_RT_TESTS_UNIT_TOOLING_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_TOOLING_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "status_matchers.h"
#include "base/status.h"
#include "hal/allocator.h"
#include "hal/device.h"

namespace iree_rt::tooling::testing {

using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;


// A local-sync device, created once per test binary, and its allocator.
hal::Device& CpuDevice();
hal::Allocator& CpuAllocator();

// A fresh path under the test's temporary directory.
std::string TempPath(std::string_view name);

}  // namespace iree_rt::tooling::testing

#endif  // IREE_RT_TESTS_UNIT_TOOLING_TEST_UTIL_H_
