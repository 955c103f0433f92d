// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Helpers for tests that parse tensors: status assertions and a real CPU device to allocate from.
#ifndef IREE_RT_TESTS_UNIT_HAL_TEXT_CPU_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_HAL_TEXT_CPU_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "status_matchers.h"
#include "base/status.h"
#include "hal/allocator.h"
#include "hal/device.h"

namespace iree_rt::testing {

// A local-sync device, created once per test binary, and its allocator.
hal::Device& CpuDevice();
hal::Allocator& CpuAllocator();

// A fresh path under the test's temporary directory.
std::string TempPath(std::string_view name);

}  // namespace iree_rt::testing

#endif  // IREE_RT_TESTS_UNIT_HAL_TEXT_CPU_TEST_UTIL_H_
