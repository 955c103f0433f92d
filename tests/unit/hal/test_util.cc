// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "test_util.h"

#include "hal/utils/heap_buffer.h"

namespace iree_rt::hal::testing {

base::Ref<Buffer> MakeHostBuffer(uint64_t size, MemoryTypeBits type, BufferUsageBits usage,
                                 MemoryAccessBits access) {
  base::StatusOr<base::Ref<utils::HeapBuffer>> buffer =
      utils::HeapBuffer::Allocate(type, usage, access, size, {});
  EXPECT_TRUE(IsOk(buffer));
  return buffer.ok() ? base::Ref<Buffer>(std::move(buffer).value()) : nullptr;
}

}  // namespace iree_rt::hal::testing
