// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// DispatchReuseTest: reusable command buffers resubmitted with different binding tables, deferred
// submissions that must retain what they use, large and many dispatches, and alloca/execute/
// dealloca cycles ordered only by semaphores (IREE command_buffer/dispatch_reuse_test).
#include <atomic>
#include <cstdlib>

#include "dispatch_util.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::StatusCode;
namespace CommandBufferMode = hal::CommandBufferMode;
namespace DispatchFlag = hal::DispatchFlag;

// Slot refs over a whole table entry.
hal::BufferRef Slot(uint32_t slot) { return hal::BufferRef{nullptr, slot, 0, hal::kWholeBuffer}; }

class DispatchReuseTest : public DispatchTestBase {
 protected:
  // A reusable command buffer: out(slot 1) = in(slot 0) * scale + offset.
  Ref<hal::CommandBuffer> RecordScaleAndOffsetSlots(const Ref<hal::Executable>& executable, int32_t scale,
                                                    int32_t offset) {
    Ref<hal::CommandBuffer> command_buffer = CreateCommandBufferWithCapacity(
        CommandBufferMode::kDefault, hal::CommandCategory::kAny, 2);
    if (!command_buffer) return nullptr;
    EXPECT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, Slot(0), Slot(1), scale, offset)));
    EXPECT_TRUE(IsOk(command_buffer->Finalize()));
    return command_buffer;
  }
};

TEST_P(DispatchReuseTest, ResubmitWithDifferentBindings) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  ASSERT_TRUE(executable);
  Ref<hal::CommandBuffer> command_buffer = RecordScaleAndOffsetSlots(executable, 2, 1);
  ASSERT_TRUE(command_buffer);
  for (int32_t round = 0; round < 4; ++round) {
    Ref<hal::Buffer> input = AllocateWith<int32_t>({round, round + 1, round + 2, round + 3});
    Ref<hal::Buffer> output = AllocateFilled(16, 0);
    ASSERT_TRUE(input && output);
    const std::vector<hal::BufferBinding> table = {{input, 0, 16}, {output, 0, 16}};
    ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, table)));
    EXPECT_EQ(ReadAs<int32_t>(*output),
              (std::vector<int32_t>{2 * round + 1, 2 * round + 3, 2 * round + 5, 2 * round + 7}));
  }
}

TEST_P(DispatchReuseTest, ConcurrentSubmissionsWithDifferentTables) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  ASSERT_TRUE(executable);
  Ref<hal::CommandBuffer> command_buffer = RecordScaleAndOffsetSlots(executable, 3, 0);
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(command_buffer && semaphore);
  constexpr int kSubmissions = 16;
  // One root allocation, sliced: every submission gets its own 64-byte-aligned in/out pair.
  Ref<hal::Buffer> inputs = AllocateBuffer(kSubmissions * 64);
  Ref<hal::Buffer> outputs = AllocateFilled(kSubmissions * 64, 0);
  ASSERT_TRUE(inputs && outputs);
  for (int i = 0; i < kSubmissions; ++i) {
    const int32_t values[4] = {i, -i, 100 * i, 7};
    ASSERT_TRUE(IsOk(inputs->Write(i * 64, values, 16)));
  }
  // All submissions wait on value 1 so they become ready together and may run concurrently.
  hal::SemaphorePoint start{semaphore.get(), 1};
  std::vector<Ref<hal::Semaphore>> done(kSubmissions);
  for (int i = 0; i < kSubmissions; ++i) {
    done[i] = CreateSemaphore();
    ASSERT_TRUE(done[i]);
    const std::vector<hal::BufferBinding> table = {{inputs, uint64_t(i) * 64, 16}, {outputs, uint64_t(i) * 64, 16}};
    hal::SemaphorePoint signal{done[i].get(), 1};
    ASSERT_TRUE(IsOk(Execute(command_buffer, table, {&start, 1}, {&signal, 1})));
  }
  command_buffer = nullptr;  // the submissions keep it alive
  ASSERT_TRUE(IsOk(semaphore->Signal(1)));
  for (int i = 0; i < kSubmissions; ++i) {
    ASSERT_TRUE(IsOk(WaitFor(*done[i], 1)));
    EXPECT_EQ(ReadAs<int32_t>(*outputs, i * 64, 16), (std::vector<int32_t>{3 * i, -3 * i, 300 * i, 21}));
  }
}

TEST_P(DispatchReuseTest, ReusablePipelineWithDifferentInputs) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  ASSERT_TRUE(executable);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBufferWithCapacity(
      CommandBufferMode::kDefault, hal::CommandCategory::kAny, 3);
  ASSERT_TRUE(command_buffer);
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, Slot(0), Slot(1), 2, 0)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, Slot(1), Slot(2), 1, 5)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  for (int32_t round = 1; round <= 3; ++round) {
    Ref<hal::Buffer> input = AllocateWith<int32_t>({round, 10 * round, -round, 0});
    Ref<hal::Buffer> scratch = AllocateFilled(16, 0);
    Ref<hal::Buffer> output = AllocateFilled(16, 0);
    ASSERT_TRUE(input && scratch && output);
    const std::vector<hal::BufferBinding> table = {
        {input, 0, hal::kWholeBuffer}, {scratch, 0, hal::kWholeBuffer}, {output, 0, hal::kWholeBuffer}};
    ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, table)));
    EXPECT_EQ(ReadAs<int32_t>(*output), (std::vector<int32_t>{2 * round + 5, 20 * round + 5, 5 - 2 * round, 5}));
  }
}

// Host memory imported as a buffer, with a flag set when the device lets go of it.
struct TrackedImport {
  TrackedImport() : data(static_cast<int32_t*>(std::aligned_alloc(64, 64))) {}
  ~TrackedImport() { std::free(data); }
  int32_t* data;
  std::atomic<bool> released{false};
};

TEST_P(DispatchReuseTest, DeferredExecuteRetainsDispatchBindingTable) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  Ref<hal::Buffer> output = AllocateFilled(16, 0);
  ASSERT_TRUE(executable && semaphore && output);
  TrackedImport host;
  for (int i = 0; i < 4; ++i) host.data[i] = i + 1;
  base::StatusOr<Ref<hal::Buffer>> input = device().allocator().ImportHostBuffer(
      DefaultBufferParams(), host.data, 16, [&host] { host.released = true; });
  if (input.status().code() == StatusCode::kUnimplemented) GTEST_SKIP() << "no host import";
  ASSERT_TRUE(IsOk(input));
  Ref<hal::CommandBuffer> command_buffer = RecordScaleAndOffsetSlots(executable, 10, 0);
  ASSERT_TRUE(command_buffer);
  hal::SemaphorePoint wait{semaphore.get(), 1}, signal{semaphore.get(), 2};
  {
    // The table is a temporary: the submission must copy it.
    std::vector<hal::BufferBinding> table = {{*input, 0, 16}, {output, 0, 16}};
    ASSERT_TRUE(IsOk(Execute(command_buffer, table, {&wait, 1}, {&signal, 1})));
  }
  // The host lets go of everything but the output before the submission may start.
  command_buffer = nullptr;
  executable = nullptr;
  *input = nullptr;
  EXPECT_FALSE(host.released) << "the pending submission must retain its bindings";
  EXPECT_EQ(ValueOf(*semaphore), 0u);
  ASSERT_TRUE(IsOk(semaphore->Signal(1)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 2)));
  EXPECT_EQ(ReadAs<int32_t>(*output), (std::vector<int32_t>{10, 20, 30, 40}));
  EXPECT_TRUE(host.released) << "the completed submission must drop its bindings";
}

TEST_P(DispatchReuseTest, LargeWorkgroupCount) {
  Ref<hal::Executable> executable = LoadExecutable("write_workgroup_ids");
  ASSERT_TRUE(executable);
  constexpr uint32_t kCount = 4096;
  Ref<hal::Buffer> output = AllocateFilled(kCount * 4, 0xFF);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(output && command_buffer);
  hal::DispatchConfig config;
  config.workgroup_count[0] = kCount;
  const hal::BufferRef refs[1] = {hal::BufferRef{output, 0, 0, hal::kWholeBuffer}};
  ASSERT_TRUE(IsOk(command_buffer->Dispatch(executable, 0, config, {}, refs, DispatchFlag::kNone)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer)));
  std::vector<int32_t> values = ReadAs<int32_t>(*output);
  ASSERT_EQ(values.size(), kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(values[i], static_cast<int32_t>(i)) << "workgroup " << i << " did not run exactly right";
  }
}

TEST_P(DispatchReuseTest, MixedDirectAndIndirectBindings) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  Ref<hal::Buffer> input = AllocateWith<int32_t>({5, 6, 7, 8});
  Ref<hal::Buffer> output = AllocateFilled(128, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBufferWithCapacity(
      CommandBufferMode::kOneShot, hal::CommandCategory::kAny, 1);
  ASSERT_TRUE(executable && input && output && command_buffer);
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, hal::BufferRef{input, 0, 0, 16},
                                        hal::BufferRef{nullptr, 0, 64, 16}, -1, 0)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  const std::vector<hal::BufferBinding> table = {{output, 0, hal::kWholeBuffer}};
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, table)));
  EXPECT_EQ(ReadAs<int32_t>(*output, 64, 16), (std::vector<int32_t>{-5, -6, -7, -8}));
  EXPECT_EQ(ReadAs<int32_t>(*output, 0, 64), std::vector<int32_t>(16, 0));
}

TEST_P(DispatchReuseTest, MultipleDispatchesInSingleCommandBuffer) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  Ref<hal::Buffer> a = AllocateWith<int32_t>({0, 10, 20, 30});
  Ref<hal::Buffer> b = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(executable && a && b && command_buffer);
  constexpr int kDispatches = 128;  // ping-pong a → b → a ..., each adding 1
  for (int i = 0; i < kDispatches; ++i) {
    const Ref<hal::Buffer>& from = i % 2 ? b : a;
    const Ref<hal::Buffer>& to = i % 2 ? a : b;
    ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, hal::BufferRef{from, 0, 0, 16},
                                          hal::BufferRef{to, 0, 0, 16}, 1, 1)));
    ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  }
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer)));
  EXPECT_EQ(ReadAs<int32_t>(*a), (std::vector<int32_t>{128, 138, 148, 158}));
  EXPECT_EQ(ReadAs<int32_t>(*b), (std::vector<int32_t>{127, 137, 147, 157}));
}

TEST_P(DispatchReuseTest, AllocaExecuteDeallocaCycle) {
  // alloca → execute (dispatch into the transient, copy out) → dealloca, ten times, every step
  // ordered only by one semaphore; the host waits once at the end.
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  Ref<hal::Buffer> input = AllocateWith<int32_t>({1, 2, 3, 4});
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(executable && input && semaphore);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBufferWithCapacity(
      CommandBufferMode::kDefault, hal::CommandCategory::kAny, 2);
  ASSERT_TRUE(command_buffer);
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, hal::BufferRef{input, 0, 0, 16},
                                        Slot(0), 1, 0)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(command_buffer->Copy(Slot(0), Slot(1), 16)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  constexpr int kCycles = 10;
  std::vector<Ref<hal::Buffer>> results;
  uint64_t value = 0;
  for (int i = 0; i < kCycles; ++i) {
    hal::SemaphorePoint wait{semaphore.get(), value}, allocated{semaphore.get(), value + 1},
        executed{semaphore.get(), value + 2}, freed{semaphore.get(), value + 3};
    base::StatusOr<Ref<hal::Buffer>> transient = device().QueueAlloca(
        hal::kQueueAffinityAny, {&wait, 1}, {&allocated, 1}, DefaultBufferParams(), 16, 0);
    ASSERT_TRUE(IsOk(transient));
    results.push_back(AllocateFilled(16, 0));
    ASSERT_TRUE(results.back());
    const std::vector<hal::BufferBinding> table = {{*transient, 0, 16}, {results.back(), 0, 16}};
    ASSERT_TRUE(IsOk(Execute(command_buffer, table, {&allocated, 1}, {&executed, 1})));
    ASSERT_TRUE(IsOk(device().QueueDealloca(hal::kQueueAffinityAny, {&executed, 1}, {&freed, 1}, *transient, 0)));
    value += 3;
  }
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, value)));
  for (int i = 0; i < kCycles; ++i) EXPECT_EQ(ReadAs<int32_t>(*results[i]), (std::vector<int32_t>{1, 2, 3, 4}));
}

TEST_P(DispatchReuseTest, ImportedConstantPoolSlicesAsTableEntries) {
  // What compiled programs do with their constants: import read-only host memory (the module's
  // rodata) without a copy, then bind subspans of it as table entries of a reusable command buffer.
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  ASSERT_TRUE(executable);
  static const int32_t kPool[8] = {100, 200, 300, 400, 5, 6, 7, 8};
  hal::BufferParams params = DefaultBufferParams();
  params.usage |= hal::BufferUsage::kSharingImmutable;
  params.access = hal::MemoryAccess::kRead;
  base::StatusOr<Ref<hal::Buffer>> pool = device().allocator().ImportHostBuffer(
      params, const_cast<int32_t*>(kPool), sizeof(kPool), nullptr);
  if (!pool.ok() && pool.status().code() == StatusCode::kUnimplemented) {
    GTEST_SKIP() << "this device cannot import host memory";
  }
  ASSERT_TRUE(IsOk(pool));
  Ref<hal::CommandBuffer> command_buffer = RecordScaleAndOffsetSlots(executable, 2, -1);
  ASSERT_TRUE(command_buffer);
  for (uint64_t offset : {16u, 0u}) {
    Ref<hal::Buffer> output = AllocateFilled(16, 0);
    ASSERT_TRUE(output);
    base::StatusOr<Ref<hal::Buffer>> slice = hal::Buffer::Subspan(*pool, offset, 16);
    ASSERT_TRUE(IsOk(slice));
    const std::vector<hal::BufferBinding> table = {{*slice, 0, 16}, {output, 0, 16}};
    ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, table)));
    const int32_t* in = kPool + offset / sizeof(int32_t);
    EXPECT_EQ(ReadAs<int32_t>(*output),
              (std::vector<int32_t>{2 * in[0] - 1, 2 * in[1] - 1, 2 * in[2] - 1, 2 * in[3] - 1}));
  }
  // The constants are untouched.
  EXPECT_EQ(kPool[0], 100);
  EXPECT_EQ(kPool[4], 5);
}

TEST_P(DispatchReuseTest, PipelinedAllocaExecuteDealloca) {
  // Several allocas in flight, then their executes, then their deallocas.
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  Ref<hal::Semaphore> allocs = CreateSemaphore(), execs = CreateSemaphore(), frees = CreateSemaphore();
  Ref<hal::Buffer> output = AllocateFilled(4 * 64, 0);
  ASSERT_TRUE(executable && allocs && execs && frees && output);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBufferWithCapacity(
      CommandBufferMode::kDefault, hal::CommandCategory::kAny, 3);
  ASSERT_TRUE(command_buffer);
  ASSERT_TRUE(IsOk(command_buffer->Fill(Slot(0), 5, 4)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, Slot(0), Slot(1), 1, 9)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(command_buffer->Copy(Slot(1), Slot(2), 16)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  constexpr int kPhases = 4;
  std::vector<Ref<hal::Buffer>> transients;
  for (int i = 0; i < kPhases; ++i) {
    hal::SemaphorePoint wait{allocs.get(), uint64_t(i)}, signal{allocs.get(), uint64_t(i) + 1};
    base::StatusOr<Ref<hal::Buffer>> buffer = device().QueueAlloca(
        hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, DefaultBufferParams(), 32, 0);
    ASSERT_TRUE(IsOk(buffer));
    transients.push_back(*buffer);
  }
  for (int i = 0; i < kPhases; ++i) {
    hal::SemaphorePoint wait[2] = {{allocs.get(), kPhases}, {execs.get(), uint64_t(i)}};
    hal::SemaphorePoint signal{execs.get(), uint64_t(i) + 1};
    const std::vector<hal::BufferBinding> table = {
        {transients[i], 0, 16}, {transients[i], 16, 16}, {output, uint64_t(i) * 64, 16}};
    ASSERT_TRUE(IsOk(Execute(command_buffer, table, wait, {&signal, 1})));
  }
  for (int i = 0; i < kPhases; ++i) {
    hal::SemaphorePoint wait{execs.get(), kPhases};
    hal::SemaphorePoint signal{frees.get(), uint64_t(i) + 1};
    hal::SemaphorePoint prior{frees.get(), uint64_t(i)};
    const hal::SemaphorePoint waits[2] = {wait, prior};
    ASSERT_TRUE(IsOk(device().QueueDealloca(hal::kQueueAffinityAny, waits, {&signal, 1}, transients[i], 0)));
  }
  ASSERT_TRUE(IsOk(WaitFor(*frees, kPhases)));
  for (int i = 0; i < kPhases; ++i) EXPECT_EQ(ReadAs<int32_t>(*output, i * 64, 16), std::vector<int32_t>(4, 14));
}

TEST_P(DispatchReuseTest, MultiDispatchMultiResubmit) {
  // An 8-dispatch chain resubmitted with fresh transient buffers each time.
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(executable && semaphore);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBufferWithCapacity(
      CommandBufferMode::kDefault, hal::CommandCategory::kAny, 2);
  ASSERT_TRUE(command_buffer);
  for (int i = 0; i < 8; ++i) {
    // slot 0 holds two 64-byte halves; ping-pong between them, each step doubling.
    const hal::BufferRef from{nullptr, 0, uint64_t(i % 2) * 64, 16};
    const hal::BufferRef to{nullptr, 0, uint64_t((i + 1) % 2) * 64, 16};
    ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, from, to, 2, 0)));
    ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  }
  ASSERT_TRUE(IsOk(command_buffer->Copy(hal::BufferRef{nullptr, 0, 0, 16}, Slot(1), 16)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  uint64_t value = 0;
  for (int32_t round = 1; round <= 5; ++round) {
    hal::SemaphorePoint wait{semaphore.get(), value}, allocated{semaphore.get(), value + 1},
        done{semaphore.get(), value + 2};
    base::StatusOr<Ref<hal::Buffer>> scratch = device().QueueAlloca(
        hal::kQueueAffinityAny, {&wait, 1}, {&allocated, 1}, DefaultBufferParams(), 128, 0);
    ASSERT_TRUE(IsOk(scratch));
    const int32_t seed[4] = {round, -round, 0, 1};
    ASSERT_TRUE(IsOk(WaitFor(*semaphore, value + 1)));
    ASSERT_TRUE(IsOk((*scratch)->Write(0, seed, 16)));
    Ref<hal::Buffer> result = AllocateFilled(16, 0);
    ASSERT_TRUE(result);
    const std::vector<hal::BufferBinding> table = {{*scratch, 0, 128}, {result, 0, 16}};
    ASSERT_TRUE(IsOk(Execute(command_buffer, table, {&allocated, 1}, {&done, 1})));
    ASSERT_TRUE(IsOk(device().QueueDealloca(hal::kQueueAffinityAny, {&done, 1}, {}, *scratch, 0)));
    ASSERT_TRUE(IsOk(WaitFor(*semaphore, value + 2)));
    EXPECT_EQ(ReadAs<int32_t>(*result), (std::vector<int32_t>{256 * round, -256 * round, 0, 256}));
    value += 2;
  }
}

INSTANTIATE_TEST_SUITE_P(Cts, DispatchReuseTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
