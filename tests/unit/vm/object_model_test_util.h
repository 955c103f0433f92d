// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Helpers shared by the VM object model tests.
#ifndef IREE_RT_TESTS_UNIT_VM_OBJECT_MODEL_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_VM_OBJECT_MODEL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include "status_matchers.h"

namespace iree_rt::vm::testing {

using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

}  // namespace iree_rt::vm::testing

#endif  // IREE_RT_TESTS_UNIT_VM_OBJECT_MODEL_TEST_UTIL_H_
