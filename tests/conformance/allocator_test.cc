// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// AllocatorTest: allocation, reported properties, limits, statistics and host imports.
#include <atomic>
#include <cstdlib>

#include "cts_test.h"
#include "hal/allocator.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::StatusCode;
using hal::BufferParams;
namespace MemoryType = hal::MemoryType;
namespace BufferUsage = hal::BufferUsage;
namespace MemoryAccess = hal::MemoryAccess;

class AllocatorTest : public CtsTest {
 protected:
  // Allocates and checks the buffer reports at least what was asked for.
  void ExpectCompatible(const BufferParams& params, uint64_t size) {
    base::StatusOr<Ref<hal::Buffer>> buffer = device().allocator().AllocateBuffer(params, size);
    ASSERT_TRUE(IsOk(buffer)) << hal::MemoryTypeToString(params.type) << " / "
                              << hal::BufferUsageToString(params.usage);
    EXPECT_EQ((*buffer)->memory_type() & params.type, params.type)
        << hal::MemoryTypeToString((*buffer)->memory_type());
    EXPECT_EQ((*buffer)->allowed_usage() & params.usage, params.usage)
        << hal::BufferUsageToString((*buffer)->allowed_usage());
    EXPECT_EQ((*buffer)->allowed_access() & params.access, params.access);
    EXPECT_GE((*buffer)->byte_length(), size);
    EXPECT_EQ((*buffer)->byte_offset(), 0u);
    EXPECT_EQ((*buffer)->allocated_buffer(), buffer->get());
  }
};

TEST_P(AllocatorTest, BaselineBufferCompatibility) {
  ExpectCompatible({MemoryType::kHostLocal | MemoryType::kDeviceVisible, BufferUsage::kTransfer,
                    MemoryAccess::kAll},
                   1024);
  ExpectCompatible({MemoryType::kDeviceLocal | MemoryType::kHostVisible, BufferUsage::kTransfer,
                    MemoryAccess::kAll},
                   1024);
  ExpectCompatible({MemoryType::kHostLocal, BufferUsage::kDispatchStorage, MemoryAccess::kAll}, 1024);
  ExpectCompatible({MemoryType::kDeviceLocal, BufferUsage::kDefault, MemoryAccess::kRead}, 4096);
}

TEST_P(AllocatorTest, AllocateBuffer) {
  ExpectCompatible({MemoryType::kDeviceLocal, BufferUsage::kTransfer, MemoryAccess::kAll}, 123);
}

TEST_P(AllocatorTest, AllocateEmptyBuffer) {
  base::StatusOr<Ref<hal::Buffer>> buffer =
      device().allocator().AllocateBuffer(DefaultBufferParams(), 0);
  ASSERT_TRUE(IsOk(buffer));
  EXPECT_EQ((*buffer)->byte_length(), 0u);
  EXPECT_TRUE(IsOk((*buffer)->Fill(0, hal::kWholeBuffer, 0xAB, 1)));
  EXPECT_TRUE(IsError((*buffer)->Fill(0, 4, 0xAB, 1), StatusCode::kOutOfRange));
}

TEST_P(AllocatorTest, NewBuffersAreZeroed) {
  Ref<hal::Buffer> buffer = AllocateBuffer(4096);
  ASSERT_TRUE(buffer);
  EXPECT_EQ(ReadBytes(*buffer), std::vector<uint8_t>(4096, 0));
}

TEST_P(AllocatorTest, AllocationOverLimitIsResourceExhausted) {
  const uint64_t limit = device().allocator().max_allocation_size();
  ASSERT_LT(limit, UINT64_MAX);
  EXPECT_TRUE(IsError(device().allocator().AllocateBuffer(DefaultBufferParams(), limit + 1).status(),
                      StatusCode::kResourceExhausted));
  EXPECT_TRUE(IsError(device().allocator().AllocateBuffer(DefaultBufferParams(), UINT64_MAX).status(),
                      StatusCode::kResourceExhausted));
}

// An allocation that fails says what the allocator held then, per memory type.
TEST_P(AllocatorTest, ResourceExhaustedNamesWhatWasLive) {
  Ref<hal::Buffer> held = AllocateBuffer(4096);
  ASSERT_TRUE(held);
  const hal::AllocatorStatistics stats = device().allocator().statistics();
  EXPECT_GE(stats.device_local.live_count + stats.host_local.live_count, 1u);
  const uint64_t limit = device().allocator().max_allocation_size();
  const base::Status status =
      device().allocator().AllocateBuffer(DefaultBufferParams(), limit + 1).status();
  EXPECT_TRUE(IsError(status, StatusCode::kResourceExhausted, "; live in "));
  EXPECT_TRUE(IsError(status, StatusCode::kResourceExhausted, " buffers (peak "));
  EXPECT_TRUE(IsError(status, StatusCode::kResourceExhausted, "HOST_LOCAL "));
}

TEST_P(AllocatorTest, UnknownAccessBitsAreRejected) {
  BufferParams params = DefaultBufferParams();
  params.access = 0x100;
  EXPECT_TRUE(IsError(device().allocator().AllocateBuffer(params, 16).status(),
                      StatusCode::kInvalidArgument));
}

TEST_P(AllocatorTest, StatisticsTrackLiveBytes) {
  const hal::AllocatorStatistics before = device().allocator().statistics();
  Ref<hal::Buffer> a = AllocateBuffer(1000);
  Ref<hal::Buffer> b = AllocateBuffer(3000);
  ASSERT_TRUE(a && b);
  hal::AllocatorStatistics during = device().allocator().statistics();
  EXPECT_EQ(during.bytes_allocated, before.bytes_allocated + 4000);
  EXPECT_GE(during.peak_bytes_allocated, during.bytes_allocated);
  EXPECT_EQ(during.allocation_count, before.allocation_count + 2);
  // A subspan keeps its root allocation alive.
  base::StatusOr<Ref<hal::Buffer>> view = hal::Buffer::Subspan(a, 100, 100);
  ASSERT_TRUE(IsOk(view));
  a = nullptr;
  EXPECT_EQ(device().allocator().statistics().bytes_allocated, before.bytes_allocated + 4000);
  *view = nullptr;
  b = nullptr;
  const hal::AllocatorStatistics after = device().allocator().statistics();
  EXPECT_EQ(after.bytes_allocated, before.bytes_allocated);
  EXPECT_GE(after.peak_bytes_allocated, before.bytes_allocated + 4000);
}

// Host memory the suite owns, aligned as generated code expects of bindings.
struct HostAllocation {
  explicit HostAllocation(size_t size) : size(size), data(std::aligned_alloc(64, size)) {
    std::memset(data, 0, size);
  }
  ~HostAllocation() { std::free(data); }
  size_t size;
  void* data;
};

TEST_P(AllocatorTest, ImportHostAllocationNullCallback) {
  HostAllocation host(256);
  BufferParams params = DefaultBufferParams();
  params.type = MemoryType::kHostLocal | MemoryType::kDeviceVisible;
  for (int round = 0; round < 2; ++round) {  // the same pointer can be imported again
    base::StatusOr<Ref<hal::Buffer>> buffer =
        device().allocator().ImportHostBuffer(params, host.data, host.size, nullptr);
    if (buffer.status().code() == StatusCode::kUnimplemented) {
      GTEST_SKIP() << "host import not supported: " << buffer.status().ToString();
    }
    ASSERT_TRUE(IsOk(buffer));
    EXPECT_EQ((*buffer)->byte_length(), host.size);
    // Zero copy both ways: host writes show through the buffer and buffer writes in host memory.
    static_cast<uint8_t*>(host.data)[7] = static_cast<uint8_t>(0x40 + round);
    EXPECT_EQ(ReadBytes(**buffer, 7, 1), std::vector<uint8_t>{static_cast<uint8_t>(0x40 + round)});
    ASSERT_TRUE(IsOk((*buffer)->Fill(64, 64, 0x5A, 1)));
    EXPECT_EQ(static_cast<uint8_t*>(host.data)[64], 0x5A);
    EXPECT_EQ(static_cast<uint8_t*>(host.data)[127], 0x5A);
    EXPECT_EQ(static_cast<uint8_t*>(host.data)[128], 0);
  }
}

TEST_P(AllocatorTest, ImportHostAllocationWithCallback) {
  HostAllocation host(128);
  for (int round = 0; round < 2; ++round) {
    std::atomic<int> released{0};
    base::StatusOr<Ref<hal::Buffer>> buffer = device().allocator().ImportHostBuffer(
        DefaultBufferParams(), host.data, host.size, [&released] { released.fetch_add(1); });
    if (buffer.status().code() == StatusCode::kUnimplemented) {
      GTEST_SKIP() << "host import not supported: " << buffer.status().ToString();
    }
    ASSERT_TRUE(IsOk(buffer));
    base::StatusOr<Ref<hal::Buffer>> view = hal::Buffer::Subspan(*buffer, 64, 64);
    ASSERT_TRUE(IsOk(view));
    *buffer = nullptr;
    EXPECT_EQ(released.load(), 0) << "released while a subspan still references the import";
    *view = nullptr;
    EXPECT_EQ(released.load(), 1);
  }
}

TEST_P(AllocatorTest, ImportNullHostPointerIsRejected) {
  bool released = false;
  base::StatusOr<Ref<hal::Buffer>> buffer = device().allocator().ImportHostBuffer(
      DefaultBufferParams(), nullptr, 64, [&released] { released = true; });
  EXPECT_TRUE(IsError(buffer.status(), StatusCode::kInvalidArgument));
  EXPECT_FALSE(released) << "a failed import must not call the release callback";
}

TEST_P(AllocatorTest, ImportedBufferIsUsableByTheQueue) {
  HostAllocation host(64);
  std::atomic<int> released{0};
  base::StatusOr<Ref<hal::Buffer>> buffer = device().allocator().ImportHostBuffer(
      DefaultBufferParams(), host.data, host.size, [&released] { released.fetch_add(1); });
  if (buffer.status().code() == StatusCode::kUnimplemented) GTEST_SKIP() << "no host import";
  ASSERT_TRUE(IsOk(buffer));
  Ref<hal::Semaphore> done = CreateSemaphore();
  ASSERT_TRUE(done);
  hal::SemaphorePoint signal{done.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {}, {&signal, 1}, *buffer, 16, 32,
                                      0x01020304u, 4)));
  *buffer = nullptr;  // the queue operation keeps the import alive until it completes
  ASSERT_TRUE(IsOk(WaitFor(*done, 1)));
  const uint8_t* bytes = static_cast<const uint8_t*>(host.data);
  EXPECT_EQ(bytes[15], 0);
  EXPECT_EQ(bytes[16], 0x04);
  EXPECT_EQ(bytes[19], 0x01);
  EXPECT_EQ(bytes[47], 0x01);
  EXPECT_EQ(bytes[48], 0);
  // Queue operations drop what they retained before signaling.
  EXPECT_EQ(released.load(), 1);
}

INSTANTIATE_TEST_SUITE_P(Cts, AllocatorTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
