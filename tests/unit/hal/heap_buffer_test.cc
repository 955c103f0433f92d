// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// utils::HeapBuffer: what new storage holds. Allocations are zeroed (the C ABI promises it);
// queue allocas are not, and checking builds (no NDEBUG: debug and sanitizer builds) fill them
// with 0xCD, so that a program reading scratch before writing it fails there.
#include "hal/utils/heap_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
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

// Counts what a buffer reports freed.
class FreeCounter : public base::RefObject {
 public:
  static void OnFree(base::RefObject* self, uint64_t bytes) {
    auto* counter = static_cast<FreeCounter*>(self);
    ++counter->calls;
    counter->bytes += bytes;
  }
  int calls = 0;
  uint64_t bytes = 0;
};

// Small buffers share one block with their object, larger ones have their own: either way the
// bytes are aligned, all writable without touching the object, and reported freed exactly once.
TEST(HeapBufferTest, SmallAndLargeStorageIsAlignedSeparateAndFreedOnce) {
  for (uint64_t size : {uint64_t{0}, uint64_t{1}, uint64_t{100}, uint64_t{4096}, uint64_t{4097},
                        kSize}) {
    for (bool transient : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "size " << size << (transient ? " transient" : ""));
      Ref<FreeCounter> counter = base::MakeRef<FreeCounter>();
      {
        HeapBuffer::FreeObserver observer(&FreeCounter::OnFree, counter);
        base::StatusOr<Ref<HeapBuffer>> buffer =
            transient ? HeapBuffer::AllocateTransient(kType, kUsage, MemoryAccess::kAll, size, 0, observer)
                      : HeapBuffer::Allocate(kType, kUsage, MemoryAccess::kAll, size, observer);
        ASSERT_TRUE(IsOk(buffer));
        EXPECT_EQ(reinterpret_cast<uintptr_t>((*buffer)->data()) % utils::kHeapBufferAlignment, 0u);
        // Every byte up to the next alignment unit is the buffer's.
        const uint64_t padded = std::max<uint64_t>(
            (size + utils::kHeapBufferAlignment - 1) / utils::kHeapBufferAlignment * utils::kHeapBufferAlignment,
            utils::kHeapBufferAlignment);
        std::memset((*buffer)->data(), 0xFF, padded);
        EXPECT_EQ((*buffer)->byte_length(), size);
        EXPECT_EQ((*buffer)->memory_type(), kType);
        base::StatusOr<uint8_t*> mapped = (*buffer)->Map(MemoryAccess::kRead, 0, size);
        ASSERT_TRUE(IsOk(mapped));
        EXPECT_EQ(*mapped, (*buffer)->data());
        EXPECT_EQ(counter->calls, 0);
        if (transient) {
          (*buffer)->Decommit();
          EXPECT_EQ(counter->calls, 1);
          EXPECT_EQ((*buffer)->Map(MemoryAccess::kRead, 0, size).status().code(),
                    base::StatusCode::kFailedPrecondition);
          (*buffer)->Decommit();  // a second one is a no-op
        }
      }
      EXPECT_EQ(counter->calls, 1);
      EXPECT_EQ(counter->bytes, size);
    }
  }
}

}  // namespace
}  // namespace iree_rt::hal
