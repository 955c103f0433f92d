// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// QueueAllocaTest: queue-ordered allocation and deallocation (IREE queue/queue_alloca_test and
// command_buffer/transient_buffer_test). The buffer handle exists at once; its storage may be used
// after the alloca signals and is released by a dealloca, after which the handle fails cleanly.
#include "cts_test.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using hal::SemaphorePoint;
namespace MemoryAccess = hal::MemoryAccess;

class QueueAllocaTest : public CtsTest {
 protected:
  base::StatusOr<Ref<hal::Buffer>> Alloca(hal::SemaphoreList wait, hal::SemaphoreList signal, uint64_t size,
                                          uint64_t flags = 0,
                                          const hal::BufferParams& params = DefaultBufferParams()) {
    return device().QueueAlloca(hal::kQueueAffinityAny, wait, signal, params, size, flags);
  }
  Status Dealloca(hal::SemaphoreList wait, hal::SemaphoreList signal, const Ref<hal::Buffer>& buffer) {
    return device().QueueDealloca(hal::kQueueAffinityAny, wait, signal, buffer, 0);
  }
};

TEST_P(QueueAllocaTest, BasicAlloca) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(semaphore);
  SemaphorePoint signal{semaphore.get(), 1};
  base::StatusOr<Ref<hal::Buffer>> buffer = Alloca({}, {&signal, 1}, 1024);
  ASSERT_TRUE(IsOk(buffer));
  ASSERT_TRUE(*buffer);
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 1)));
  ASSERT_TRUE(IsOk((*buffer)->Fill(0, 1024, 0xA5, 1)));
  EXPECT_EQ(ReadBytes(**buffer), std::vector<uint8_t>(1024, 0xA5));
}

TEST_P(QueueAllocaTest, BufferMetadata) {
  hal::BufferParams params = DefaultBufferParams();
  params.access = MemoryAccess::kRead | MemoryAccess::kWrite;
  base::StatusOr<Ref<hal::Buffer>> buffer = Alloca({}, {}, 333, 0, params);
  ASSERT_TRUE(IsOk(buffer));
  EXPECT_EQ((*buffer)->byte_length(), 333u);
  EXPECT_EQ((*buffer)->memory_type() & params.type, params.type);
  EXPECT_EQ((*buffer)->allowed_usage() & params.usage, params.usage);
  EXPECT_EQ((*buffer)->allowed_access() & params.access, params.access);
}

TEST_P(QueueAllocaTest, ZeroAccessFlagsCanonicalized) {
  hal::BufferParams params = DefaultBufferParams();
  params.access = MemoryAccess::kNone;  // what the HAL module passes
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(semaphore);
  SemaphorePoint signal{semaphore.get(), 1};
  base::StatusOr<Ref<hal::Buffer>> buffer = Alloca({}, {&signal, 1}, 64, 0, params);
  ASSERT_TRUE(IsOk(buffer));
  EXPECT_EQ((*buffer)->allowed_access() & MemoryAccess::kAll, MemoryAccess::kAll);
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 1)));
  SemaphorePoint filled{semaphore.get(), 2};
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&signal, 1}, {&filled, 1}, *buffer, 0, 64, 0x0F, 1)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 2)));
  EXPECT_EQ(ReadBytes(**buffer), std::vector<uint8_t>(64, 0x0F));
}

TEST_P(QueueAllocaTest, AllocaWithWaitSemaphores) {
  Ref<hal::Semaphore> gate = CreateSemaphore(), allocated = CreateSemaphore();
  ASSERT_TRUE(gate && allocated);
  SemaphorePoint wait{gate.get(), 1}, signal{allocated.get(), 1};
  base::StatusOr<Ref<hal::Buffer>> buffer = Alloca({&wait, 1}, {&signal, 1}, 256);
  ASSERT_TRUE(IsOk(buffer)) << "the handle must come back at once, before the wait is met";
  ASSERT_TRUE(*buffer);
  EXPECT_EQ((*buffer)->byte_length(), 256u);
  // Work queued behind the alloca must not run before the wait either.
  Ref<hal::Semaphore> filled = CreateSemaphore();
  ASSERT_TRUE(filled);
  SemaphorePoint fill_signal{filled.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&signal, 1}, {&fill_signal, 1}, *buffer, 0, 256, 0x42, 1)));
  EXPECT_EQ(ValueOf(*allocated), 0u) << "the alloca signaled before its wait was met";
  EXPECT_EQ(ValueOf(*filled), 0u);
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  ASSERT_TRUE(IsOk(WaitFor(*allocated, 1)));
  ASSERT_TRUE(IsOk(WaitFor(*filled, 1)));
  EXPECT_EQ(ReadBytes(**buffer), std::vector<uint8_t>(256, 0x42));
}

TEST_P(QueueAllocaTest, AllocaDeallocaCycle) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(semaphore);
  SemaphorePoint s1{semaphore.get(), 1}, s2{semaphore.get(), 2}, s3{semaphore.get(), 3};
  base::StatusOr<Ref<hal::Buffer>> buffer = Alloca({}, {&s1, 1}, 128);
  ASSERT_TRUE(IsOk(buffer));
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&s1, 1}, {&s2, 1}, *buffer, 0, 128, 0x01, 1)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 2)));
  EXPECT_EQ(ReadBytes(**buffer), std::vector<uint8_t>(128, 0x01));
  ASSERT_TRUE(IsOk(Dealloca({&s2, 1}, {&s3, 1}, *buffer)));
  EXPECT_TRUE(IsOk(WaitFor(*semaphore, 3)));
}

TEST_P(QueueAllocaTest, DeallocaReleasesMemory) {
  constexpr uint64_t kSize = 1 << 20;
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(semaphore);
  const uint64_t before = device().allocator().statistics().bytes_allocated;
  SemaphorePoint s1{semaphore.get(), 1}, s2{semaphore.get(), 2};
  base::StatusOr<Ref<hal::Buffer>> buffer = Alloca({}, {&s1, 1}, kSize);
  ASSERT_TRUE(IsOk(buffer));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 1)));
  EXPECT_GE(device().allocator().statistics().bytes_allocated, before + kSize);
  ASSERT_TRUE(IsOk(Dealloca({&s1, 1}, {&s2, 1}, *buffer)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 2)));
  // The handle is still referenced here, but its storage is gone.
  EXPECT_EQ(device().allocator().statistics().bytes_allocated, before);
  // Every later use fails with a status instead of touching freed memory.
  EXPECT_FALSE((*buffer)->Map(MemoryAccess::kRead, 0, 16).ok());
  uint8_t byte = 0;
  EXPECT_FALSE((*buffer)->Read(0, &byte, 1).ok());
  Ref<hal::Semaphore> after = CreateSemaphore();
  ASSERT_TRUE(after);
  SemaphorePoint fill_signal{after.get(), 1};
  base::Status fill = device().QueueFill(hal::kQueueAffinityAny, {}, {&fill_signal, 1}, *buffer, 0, 16, 0, 1);
  if (fill.ok()) {
    EXPECT_FALSE(WaitFor(*after, 1).ok()) << "a fill of a deallocated buffer must fail its signal";
  }
  // ...and the device keeps working.
  Ref<hal::Buffer> fresh = AllocateBuffer(16);
  ASSERT_TRUE(fresh);
  Ref<hal::Semaphore> ok = CreateSemaphore();
  ASSERT_TRUE(ok);
  SemaphorePoint ok_signal{ok.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {}, {&ok_signal, 1}, fresh, 0, 16, 9, 1)));
  EXPECT_TRUE(IsOk(WaitFor(*ok, 1)));
}

TEST_P(QueueAllocaTest, FailedDeallocaWaitDoesNotDealloca) {
  Ref<hal::Semaphore> gate = CreateSemaphore(), done = CreateSemaphore();
  ASSERT_TRUE(gate && done);
  base::StatusOr<Ref<hal::Buffer>> buffer = Alloca({}, {}, 64);
  ASSERT_TRUE(IsOk(buffer));
  ASSERT_TRUE(IsOk((*buffer)->Fill(0, 64, 0x77, 1)));
  SemaphorePoint wait{gate.get(), 1}, signal{done.get(), 1};
  ASSERT_TRUE(IsOk(Dealloca({&wait, 1}, {&signal, 1}, *buffer)));
  gate->Fail(Status(StatusCode::kAborted, "upstream failed"));
  EXPECT_TRUE(IsError(WaitFor(*done, 1), StatusCode::kAborted));
  EXPECT_EQ(ReadBytes(**buffer), std::vector<uint8_t>(64, 0x77)) << "the storage must still be there";
}

TEST_P(QueueAllocaTest, ChainedAllocaDealloca) {
  // alloca → update → copy out → dealloca, submitted back to front, ordered only by semaphores.
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  Ref<hal::Buffer> result = AllocateFilled(16, 0);
  ASSERT_TRUE(semaphore && result);
  SemaphorePoint s[5];
  for (uint64_t i = 0; i < 5; ++i) s[i] = {semaphore.get(), i + 1};
  base::StatusOr<Ref<hal::Buffer>> buffer = Alloca({&s[0], 1}, {&s[1], 1}, 16);
  ASSERT_TRUE(IsOk(buffer));
  ASSERT_TRUE(IsOk(Dealloca({&s[3], 1}, {&s[4], 1}, *buffer)));
  ASSERT_TRUE(IsOk(device().QueueCopy(hal::kQueueAffinityAny, {&s[2], 1}, {&s[3], 1}, *buffer, 0, result, 0, 16)));
  const uint8_t data[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  ASSERT_TRUE(IsOk(device().QueueUpdate(hal::kQueueAffinityAny, {&s[1], 1}, {&s[2], 1}, data, 16, *buffer, 0)));
  EXPECT_EQ(ValueOf(*semaphore), 0u);
  ASSERT_TRUE(IsOk(semaphore->Signal(1)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 5)));
  EXPECT_EQ(ReadBytes(*result), std::vector<uint8_t>(data, data + 16));
}

TEST_P(QueueAllocaTest, DefaultPoolRepeatedChainedAllocaDealloca) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(semaphore);
  const uint64_t before = device().allocator().statistics().bytes_allocated;
  constexpr int kRounds = 50;
  uint64_t value = 0;
  for (int i = 0; i < kRounds; ++i) {
    SemaphorePoint wait{semaphore.get(), value}, allocated{semaphore.get(), value + 1},
        filled{semaphore.get(), value + 2}, freed{semaphore.get(), value + 3};
    base::StatusOr<Ref<hal::Buffer>> buffer = Alloca({&wait, 1}, {&allocated, 1}, 4096 + i);
    ASSERT_TRUE(IsOk(buffer));
    ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&allocated, 1}, {&filled, 1}, *buffer, 0,
                                        4096, static_cast<uint32_t>(i), 1)));
    ASSERT_TRUE(IsOk(Dealloca({&filled, 1}, {&freed, 1}, *buffer)));
    value += 3;
  }
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, value)));
  EXPECT_EQ(device().allocator().statistics().bytes_allocated, before) << "deallocas leaked storage";
}

TEST_P(QueueAllocaTest, IndeterminateLifetimeDeallocaOnlyOrders) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(semaphore);
  const uint64_t before = device().allocator().statistics().bytes_allocated;
  SemaphorePoint s1{semaphore.get(), 1}, s2{semaphore.get(), 2};
  base::StatusOr<Ref<hal::Buffer>> buffer = Alloca({}, {&s1, 1}, 4096, hal::AllocaFlag::kIndeterminateLifetime);
  ASSERT_TRUE(IsOk(buffer));
  ASSERT_TRUE(IsOk(Dealloca({&s1, 1}, {&s2, 1}, *buffer)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 2)));
  ASSERT_TRUE(IsOk((*buffer)->Fill(0, 4096, 0x3, 1))) << "the storage lives while referenced";
  EXPECT_EQ(ReadBytes(**buffer, 4000, 4), std::vector<uint8_t>(4, 0x3));
  *buffer = nullptr;
  EXPECT_EQ(device().allocator().statistics().bytes_allocated, before) << "freed when the last reference drops";
}

TEST_P(QueueAllocaTest, DeallocaOfAnOrdinaryBufferIsABarrier) {
  Ref<hal::Buffer> buffer = AllocateFilled(32, 0x44);
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(buffer && semaphore);
  SemaphorePoint signal{semaphore.get(), 1};
  ASSERT_TRUE(IsOk(Dealloca({}, {&signal, 1}, buffer)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 1)));
  EXPECT_EQ(ReadBytes(*buffer), std::vector<uint8_t>(32, 0x44));
}

TEST_P(QueueAllocaTest, AllocaOverTheLimitIsRejectedAtOnce) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(semaphore);
  SemaphorePoint signal{semaphore.get(), 1};
  const uint64_t limit = device().allocator().max_allocation_size();
  base::StatusOr<Ref<hal::Buffer>> buffer = Alloca({}, {&signal, 1}, limit + 1);
  if (buffer.ok()) {
    // A driver may defer the failure to the queue; then the signal must fail.
    EXPECT_TRUE(IsError(WaitFor(*semaphore, 1), StatusCode::kResourceExhausted));
  } else {
    EXPECT_TRUE(IsError(buffer.status(), StatusCode::kResourceExhausted));
    EXPECT_EQ(ValueOf(*semaphore), 0u);
  }
}

TEST_P(QueueAllocaTest, NullBufferDeallocaIsRejected) {
  EXPECT_TRUE(IsError(Dealloca({}, {}, nullptr), StatusCode::kInvalidArgument));
}

// ---------------------------------------------------------------------------------------------
// Transient buffers used through command buffers (IREE TransientBufferTest).

class TransientBufferTest : public QueueAllocaTest {
 protected:
  // Allocas |size| bytes, runs |command_buffer| (recorded by |record| against the transient)
  // after it, copies the transient into a readback buffer, deallocas, and returns the bytes.
  std::vector<uint8_t> RunOnTransient(uint64_t size, const std::function<void(hal::CommandBuffer&, Bindings&,
                                                                               const Ref<hal::Buffer>&)>& record) {
    Ref<hal::Semaphore> semaphore = CreateSemaphore();
    Ref<hal::Buffer> readback = AllocateFilled(size, 0);
    Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
    if (!semaphore || !readback || !command_buffer) return {};
    SemaphorePoint s1{semaphore.get(), 1}, s2{semaphore.get(), 2}, s3{semaphore.get(), 3};
    base::StatusOr<Ref<hal::Buffer>> transient = Alloca({}, {&s1, 1}, size);
    EXPECT_TRUE(IsOk(transient));
    if (!transient.ok()) return {};
    // Recorded before the alloca is known to have committed (the handle exists already).
    Bindings bindings(mode());
    record(*command_buffer, bindings, *transient);
    EXPECT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
    EXPECT_TRUE(IsOk(command_buffer->Copy(bindings.Bind(*transient), bindings.Bind(readback), size)));
    EXPECT_TRUE(IsOk(command_buffer->Finalize()));
    EXPECT_TRUE(IsOk(device().QueueExecute(hal::kQueueAffinityAny, {&s1, 1}, {&s2, 1}, command_buffer,
                                           bindings.table())));
    EXPECT_TRUE(IsOk(Dealloca({&s2, 1}, {&s3, 1}, *transient)));
    EXPECT_TRUE(IsOk(WaitFor(*semaphore, 3)));
    return ReadBytes(*readback);
  }
};

TEST_P(TransientBufferTest, FillTransientBuffer) {
  std::vector<uint8_t> bytes = RunOnTransient(64, [](hal::CommandBuffer& cb, Bindings& b, const Ref<hal::Buffer>& t) {
    EXPECT_TRUE(IsOk(cb.Fill(b.Bind(t), 0xDDCCBBAAu, 4)));
  });
  std::vector<uint8_t> expected;
  for (int i = 0; i < 16; ++i) expected.insert(expected.end(), {0xAA, 0xBB, 0xCC, 0xDD});
  EXPECT_EQ(bytes, expected);
}

TEST_P(TransientBufferTest, FillTransientBufferSubrange) {
  std::vector<uint8_t> bytes = RunOnTransient(64, [](hal::CommandBuffer& cb, Bindings& b, const Ref<hal::Buffer>& t) {
    EXPECT_TRUE(IsOk(cb.Fill(b.Bind(t), 0, 1)));
    EXPECT_TRUE(IsOk(cb.ExecutionBarrier(0, 0)));
    EXPECT_TRUE(IsOk(cb.Fill(b.Bind(t, 16, 32), 0x99, 1)));
  });
  std::vector<uint8_t> expected(64, 0);
  std::fill(expected.begin() + 16, expected.begin() + 48, 0x99);
  EXPECT_EQ(bytes, expected);
}

TEST_P(TransientBufferTest, FillTransientBuffer1Byte) {
  std::vector<uint8_t> bytes = RunOnTransient(13, [](hal::CommandBuffer& cb, Bindings& b, const Ref<hal::Buffer>& t) {
    EXPECT_TRUE(IsOk(cb.Fill(b.Bind(t), 0x31, 1)));
  });
  EXPECT_EQ(bytes, std::vector<uint8_t>(13, 0x31));
}

TEST_P(TransientBufferTest, CopyToTransientBuffer) {
  Ref<hal::Buffer> source = AllocateWith<uint32_t>({1, 2, 3, 4});
  ASSERT_TRUE(source);
  std::vector<uint8_t> bytes = RunOnTransient(16, [&](hal::CommandBuffer& cb, Bindings& b, const Ref<hal::Buffer>& t) {
    EXPECT_TRUE(IsOk(cb.Copy(b.Bind(source), b.Bind(t), 16)));
  });
  EXPECT_EQ(bytes, ReadBytes(*source));
}

TEST_P(TransientBufferTest, FillThenCopyInSingleCommandBuffer) {
  std::vector<uint8_t> bytes = RunOnTransient(32, [](hal::CommandBuffer& cb, Bindings& b, const Ref<hal::Buffer>& t) {
    EXPECT_TRUE(IsOk(cb.Fill(b.Bind(t, 0, 16), 0x12, 1)));
    EXPECT_TRUE(IsOk(cb.ExecutionBarrier(0, 0)));
    EXPECT_TRUE(IsOk(cb.Copy(b.Bind(t, 0, 16), b.Bind(t, 16, 16), 16)));
  });
  EXPECT_EQ(bytes, std::vector<uint8_t>(32, 0x12));
}

TEST_P(TransientBufferTest, UpdateTransientBuffer) {
  std::vector<uint8_t> bytes = RunOnTransient(8, [](hal::CommandBuffer& cb, Bindings& b, const Ref<hal::Buffer>& t) {
    const uint8_t data[8] = {8, 7, 6, 5, 4, 3, 2, 1};
    EXPECT_TRUE(IsOk(cb.Update(data, 8, b.Bind(t))));
  });
  EXPECT_EQ(bytes, (std::vector<uint8_t>{8, 7, 6, 5, 4, 3, 2, 1}));
}

TEST_P(TransientBufferTest, CopyFromTransientBufferAfterQueueFill) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  Ref<hal::Buffer> readback = AllocateFilled(16, 0);
  ASSERT_TRUE(semaphore && readback);
  SemaphorePoint s1{semaphore.get(), 1}, s2{semaphore.get(), 2}, s3{semaphore.get(), 3};
  base::StatusOr<Ref<hal::Buffer>> transient = Alloca({}, {&s1, 1}, 16);
  ASSERT_TRUE(IsOk(transient));
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&s1, 1}, {&s2, 1}, *transient, 0, 16, 0x6E, 1)));
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(command_buffer->Copy(bindings.Bind(*transient), bindings.Bind(readback), 16)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(device().QueueExecute(hal::kQueueAffinityAny, {&s2, 1}, {&s3, 1}, command_buffer, bindings.table())));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 3)));
  EXPECT_EQ(ReadBytes(*readback), std::vector<uint8_t>(16, 0x6E));
}

INSTANTIATE_TEST_SUITE_P(Cts, QueueAllocaTest, ::testing::ValuesIn(BackendParams()), BackendName);
INSTANTIATE_TEST_SUITE_P(Cts, TransientBufferTest, ::testing::ValuesIn(BackendAndModeParams()), BackendModeName);

}  // namespace
}  // namespace iree_rt::cts
