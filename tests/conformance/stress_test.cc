// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CommandBufferStressTest: many small submissions in a tight loop, command buffers with thousands
// of commands, and several host threads submitting to one device at once (IREE
// command_buffer/stress_test).
#include <thread>

#include "cts_test.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using hal::SemaphorePoint;
namespace CommandBufferMode = hal::CommandBufferMode;

class CommandBufferStressTest : public CtsTest {};

TEST_P(CommandBufferStressTest, RapidFillSubmit) {
  // Independent one-shot submissions, each with its own semaphore, all in flight at once.
  constexpr int kSubmissions = 200;
  Ref<hal::Buffer> buffer = AllocateFilled(kSubmissions * 4, 0);
  ASSERT_TRUE(buffer);
  std::vector<Ref<hal::Semaphore>> done(kSubmissions);
  std::vector<SemaphorePoint> signals(kSubmissions);
  for (int i = 0; i < kSubmissions; ++i) {
    done[i] = CreateSemaphore();
    Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
    ASSERT_TRUE(done[i] && command_buffer);
    ASSERT_TRUE(IsOk(command_buffer->Fill(hal::BufferRef{buffer, 0, uint64_t(i) * 4, 4}, uint32_t(i) + 1, 4)));
    ASSERT_TRUE(IsOk(command_buffer->Finalize()));
    signals[i] = {done[i].get(), 1};
    ASSERT_TRUE(IsOk(device().QueueExecute(hal::kQueueAffinityAny, {}, {&signals[i], 1}, command_buffer, {})));
  }
  ASSERT_TRUE(IsOk(hal::WaitSemaphores(hal::WaitMode::kAll, signals, kWaitTimeoutNs)));
  std::vector<uint32_t> expected(kSubmissions);
  for (int i = 0; i < kSubmissions; ++i) expected[i] = uint32_t(i) + 1;
  EXPECT_EQ(ReadAs<uint32_t>(*buffer), expected);
}

TEST_P(CommandBufferStressTest, RapidCopySubmit) {
  constexpr int kSubmissions = 200;
  Ref<hal::Buffer> source = AllocateBuffer(kSubmissions * 8);
  Ref<hal::Buffer> target = AllocateFilled(kSubmissions * 8, 0);
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(source && target && semaphore);
  std::vector<uint64_t> words(kSubmissions);
  for (int i = 0; i < kSubmissions; ++i) words[i] = 0x0101010101010101ull * uint64_t(i % 251);
  ASSERT_TRUE(IsOk(source->Write(0, words.data(), words.size() * 8)));
  for (int i = 0; i < kSubmissions; ++i) {
    // One-shot, through binding-table slots: every submission resolves its own table.
    Ref<hal::CommandBuffer> command_buffer = CreateCommandBufferWithCapacity(
        CommandBufferMode::kOneShot, hal::CommandCategory::kTransfer, 2);
    ASSERT_TRUE(command_buffer);
    ASSERT_TRUE(IsOk(command_buffer->Copy(hal::BufferRef{nullptr, 0, 0, 8}, hal::BufferRef{nullptr, 1, 0, 8}, 8)));
    ASSERT_TRUE(IsOk(command_buffer->Finalize()));
    const std::vector<hal::BufferBinding> table = {{source, uint64_t(i) * 8, 8},
                                                   {target, uint64_t(kSubmissions - 1 - i) * 8, 8}};
    SemaphorePoint wait{semaphore.get(), uint64_t(i)}, signal{semaphore.get(), uint64_t(i) + 1};
    ASSERT_TRUE(IsOk(device().QueueExecute(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, command_buffer, table)));
  }
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, kSubmissions)));
  std::vector<uint64_t> expected(words.rbegin(), words.rend());
  EXPECT_EQ(ReadAs<uint64_t>(*target), expected);
}

TEST_P(CommandBufferStressTest, LargeFillCommandBuffer) {
  // Thousands of commands in one command buffer; the signal fires only after the last one.
  constexpr int kCommands = 4096;
  Ref<hal::Buffer> buffer = AllocateFilled(kCommands * 4, 0);
  Ref<hal::Semaphore> gate = CreateSemaphore(), done = CreateSemaphore();
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(buffer && gate && done && command_buffer);
  for (int i = 0; i < kCommands; ++i) {
    ASSERT_TRUE(IsOk(command_buffer->Fill(hal::BufferRef{buffer, 0, uint64_t(i) * 4, 4}, uint32_t(i) * 3, 4)));
    if (i % 64 == 63) {
      ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
    }
  }
  // The last command overwrites the first word: visible only if everything ran in order.
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(command_buffer->Copy(hal::BufferRef{buffer, 0, uint64_t(kCommands - 1) * 4, 4},
                                        hal::BufferRef{buffer, 0, 0, 4}, 4)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  SemaphorePoint wait{gate.get(), 1}, signal{done.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueExecute(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, command_buffer, {})));
  EXPECT_EQ(ValueOf(*done), 0u);
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  ASSERT_TRUE(IsOk(WaitFor(*done, 1)));
  std::vector<uint32_t> expected(kCommands);
  for (int i = 0; i < kCommands; ++i) expected[i] = uint32_t(i) * 3;
  expected[0] = uint32_t(kCommands - 1) * 3;
  EXPECT_EQ(ReadAs<uint32_t>(*buffer), expected);
}

TEST_P(CommandBufferStressTest, ReusableCommandBufferResubmittedManyTimes) {
  Ref<hal::Buffer> counter = AllocateFilled(4, 0);
  Ref<hal::Buffer> scratch = AllocateFilled(4, 0);
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer(CommandBufferMode::kDefault);
  ASSERT_TRUE(counter && scratch && semaphore && command_buffer);
  // Each run appends one more byte of 0x01 into a 4-byte rotation: resubmissions stay ordered.
  ASSERT_TRUE(IsOk(command_buffer->Copy(hal::BufferRef{counter, 0, 0, 3}, hal::BufferRef{scratch, 0, 1, 3}, 3)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(command_buffer->Fill(hal::BufferRef{scratch, 0, 0, 1}, 0x01, 1)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(command_buffer->Copy(hal::BufferRef{scratch, 0, 0, 4}, hal::BufferRef{counter, 0, 0, 4}, 4)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  auto submit = [&](uint64_t first, uint64_t last) {
    for (uint64_t i = first; i < last; ++i) {
      SemaphorePoint wait{semaphore.get(), i}, signal{semaphore.get(), i + 1};
      ASSERT_TRUE(IsOk(device().QueueExecute(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, command_buffer, {})));
    }
  };
  ASSERT_NO_FATAL_FAILURE(submit(0, 2));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 2)));
  EXPECT_EQ(ReadBytes(*counter), (std::vector<uint8_t>{1, 1, 0, 0}));
  ASSERT_NO_FATAL_FAILURE(submit(2, 100));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 100)));
  EXPECT_EQ(ReadBytes(*counter), std::vector<uint8_t>(4, 0x01));
}

TEST_P(CommandBufferStressTest, SubmissionsFromManyThreads) {
  constexpr int kThreads = 6;
  constexpr int kPerThread = 50;
  Ref<hal::Buffer> buffer = AllocateFilled(kThreads * kPerThread * 4, 0);
  ASSERT_TRUE(buffer);
  std::vector<Ref<hal::Semaphore>> semaphores(kThreads);
  for (Ref<hal::Semaphore>& semaphore : semaphores) {
    semaphore = CreateSemaphore();
    ASSERT_TRUE(semaphore);
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        base::StatusOr<Ref<hal::CommandBuffer>> command_buffer = device().CreateCommandBuffer(
            CommandBufferMode::kOneShot, hal::CommandCategory::kTransfer, hal::kQueueAffinityAny, 0);
        if (!IsOk(command_buffer)) return;
        const uint64_t offset = (uint64_t(t) * kPerThread + i) * 4;
        EXPECT_TRUE(IsOk((*command_buffer)->Fill(hal::BufferRef{buffer, 0, offset, 4}, 0xC0DE0000u + offset, 4)));
        EXPECT_TRUE(IsOk((*command_buffer)->Finalize()));
        // Each thread chains its own submissions, so its last value means all of them ran.
        SemaphorePoint wait{semaphores[t].get(), uint64_t(i)}, signal{semaphores[t].get(), uint64_t(i) + 1};
        EXPECT_TRUE(IsOk(device().QueueExecute(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, *command_buffer, {})));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const Ref<hal::Semaphore>& semaphore : semaphores) ASSERT_TRUE(IsOk(WaitFor(*semaphore, kPerThread)));
  std::vector<uint32_t> values = ReadAs<uint32_t>(*buffer);
  ASSERT_EQ(values.size(), size_t(kThreads * kPerThread));
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(values[i], 0xC0DE0000u + i * 4) << "word " << i;
}

INSTANTIATE_TEST_SUITE_P(Cts, CommandBufferStressTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
