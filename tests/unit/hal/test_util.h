// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Helpers for the HAL unit tests: status assertions and a heap buffer factory.
#ifndef IREE_RT_TESTS_UNIT_HAL_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_HAL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string_view>

#include "status_matchers.h"
#include "base/ref_object.h"
#include "base/status.h"
#include "hal/buffer.h"

namespace iree_rt::hal::testing {

using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;


// A zeroed host buffer (utils::HeapBuffer) with the given properties.
base::Ref<Buffer> MakeHostBuffer(uint64_t size,
                                 MemoryTypeBits type = MemoryType::kHostLocal | MemoryType::kDeviceVisible,
                                 BufferUsageBits usage = BufferUsage::kDefault | BufferUsage::kMappingScoped,
                                 MemoryAccessBits access = MemoryAccess::kAll);

}  // namespace iree_rt::hal::testing

#endif  // IREE_RT_TESTS_UNIT_HAL_TEST_UTIL_H_
