#include "test_util.h"

#include "hal/utils/heap_buffer.h"

namespace iree_rt::hal::testing {

::testing::AssertionResult IsOk(const base::Status& status) {
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status.ToString();
}

::testing::AssertionResult IsError(const base::Status& status, base::StatusCode code,
                                   std::string_view substring) {
  if (status.code() != code) {
    return ::testing::AssertionFailure()
           << "expected " << base::StatusCodeName(code) << " but got " << status.ToString();
  }
  if (!substring.empty() && status.message().find(substring) == std::string_view::npos) {
    return ::testing::AssertionFailure() << "message '" << status.message() << "' lacks '" << substring << "'";
  }
  return ::testing::AssertionSuccess();
}

base::Ref<Buffer> MakeHostBuffer(uint64_t size, MemoryTypeBits type, BufferUsageBits usage,
                                 MemoryAccessBits access) {
  base::StatusOr<base::Ref<utils::HeapBuffer>> buffer =
      utils::HeapBuffer::Allocate(type, usage, access, size, nullptr);
  EXPECT_TRUE(IsOk(buffer));
  return buffer.ok() ? base::Ref<Buffer>(std::move(buffer).value()) : nullptr;
}

}  // namespace iree_rt::hal::testing
