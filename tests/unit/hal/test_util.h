// Helpers for the HAL unit tests: status assertions and a heap buffer factory.
#ifndef IREE_RT_TESTS_UNIT_HAL_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_HAL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string_view>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/buffer.h"

namespace iree_rt::hal::testing {

// EXPECT_TRUE(IsOk(x)) prints the status when it fails.
::testing::AssertionResult IsOk(const base::Status& status);
template <typename T>
::testing::AssertionResult IsOk(const base::StatusOr<T>& status_or) {
  return IsOk(status_or.status());
}
// Passes if |status| has |code| and, when given, its message contains |substring|.
::testing::AssertionResult IsError(const base::Status& status, base::StatusCode code,
                                   std::string_view substring = {});

// A zeroed host buffer (utils::HeapBuffer) with the given properties.
base::Ref<Buffer> MakeHostBuffer(uint64_t size,
                                 MemoryTypeBits type = MemoryType::kHostLocal | MemoryType::kDeviceVisible,
                                 BufferUsageBits usage = BufferUsage::kDefault | BufferUsage::kMappingScoped,
                                 MemoryAccessBits access = MemoryAccess::kAll);

}  // namespace iree_rt::hal::testing

#endif  // IREE_RT_TESTS_UNIT_HAL_TEST_UTIL_H_
