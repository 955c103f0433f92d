// utils::HeapBuffer: what new storage holds. Allocations are zeroed (the C ABI promises it);
// queue allocas are not, and checking builds (no NDEBUG: debug and sanitizer builds) fill them
// with 0xCD, so that a program reading scratch before writing it fails there.
#include "hal/utils/heap_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "test_util.h"

namespace iree_rt::hal {
namespace {

using base::Ref;
using testing::IsOk;
using utils::HeapBuffer;

constexpr MemoryTypeBits kType = MemoryType::kHostLocal | MemoryType::kDeviceVisible;
constexpr BufferUsageBits kUsage = BufferUsage::kDefault | BufferUsage::kMapping;
constexpr uint64_t kSize = 64 * 1024;

bool AllBytesAre(const HeapBuffer& buffer, uint8_t value) {
  const uint8_t* data = buffer.data();
  return std::all_of(data, data + buffer.byte_length(), [&](uint8_t b) { return b == value; });
}

// Leaves dirty memory behind for the allocation that follows, which malloc usually hands the
// same block: zeros there are then the runtime's doing, not fresh pages'.
void DirtyTheHeap() {
  base::StatusOr<Ref<HeapBuffer>> dirty =
      HeapBuffer::Allocate(kType, kUsage, MemoryAccess::kAll, kSize, {});
  ASSERT_TRUE(IsOk(dirty));
  std::memset((*dirty)->data(), 0xAB, kSize);
}

TEST(HeapBufferTest, AllocateZeroes) {
  for (int round = 0; round < 3; ++round) {
    DirtyTheHeap();
    base::StatusOr<Ref<HeapBuffer>> buffer =
        HeapBuffer::Allocate(kType, kUsage, MemoryAccess::kAll, kSize, {});
    ASSERT_TRUE(IsOk(buffer));
    EXPECT_TRUE(AllBytesAre(**buffer, 0)) << "round " << round;
  }
}

TEST(HeapBufferTest, TransientsArePoisonedInCheckingBuilds) {
#ifdef NDEBUG
  GTEST_SKIP() << "release build: queue allocas are left as malloc returns them";
#endif
  DirtyTheHeap();
  base::StatusOr<Ref<HeapBuffer>> buffer = HeapBuffer::AllocateTransient(
      kType, kUsage, MemoryAccess::kAll, kSize, 0, {});
  ASSERT_TRUE(IsOk(buffer));
  EXPECT_TRUE(AllBytesAre(**buffer, 0xCD));
}

}  // namespace
}  // namespace iree_rt::hal
