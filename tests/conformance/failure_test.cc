// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// FailureTest: errors found while recording are returned and enqueue nothing; errors found while
// executing fail the submission's signal semaphores (and everything waiting on them) with the
// error's code, and leave the device usable. Malformed or foreign executables are rejected
// before any code runs.
#include "dispatch_util.h"
#include "hal/executable_cache.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::StatusCode;
namespace CommandBufferMode = hal::CommandBufferMode;
namespace DispatchFlag = hal::DispatchFlag;

class FailureTest : public DispatchTestBase {
 protected:
  // A one-shot command buffer running abs over slots 0 → 1, with 8-byte bindings.
  Ref<hal::CommandBuffer> RecordAbsOverSlots(const Ref<hal::Executable>& executable) {
    Ref<hal::CommandBuffer> command_buffer = CreateCommandBufferWithCapacity(
        CommandBufferMode::kOneShot, hal::CommandCategory::kAny, 2);
    if (!command_buffer) return nullptr;
    const hal::BufferRef refs[2] = {{nullptr, 0, 0, 8}, {nullptr, 1, 0, 8}};
    EXPECT_TRUE(IsOk(command_buffer->Dispatch(executable, 0, {}, {}, refs, DispatchFlag::kNone)));
    EXPECT_TRUE(IsOk(command_buffer->Finalize()));
    return command_buffer;
  }

  base::StatusOr<Ref<hal::Executable>> Prepare(std::string_view format, std::span<const uint8_t> data,
                                               std::span<const uint32_t> constants = {}) {
    RT_ASSIGN_OR_RETURN(Ref<hal::ExecutableCache> cache, device().CreateExecutableCache());
    hal::ExecutableParams params;
    params.format = format;
    params.data = data;
    params.constants = constants;
    return cache->PrepareExecutable(params);
  }
};

TEST_P(FailureTest, DispatchBindingOutOfRangeAtReplayFailsSignal) {
  Ref<hal::Executable> executable = LoadExecutable("abs");
  Ref<hal::Buffer> input = AllocateWith<float>({-1.0f, -2.0f});
  Ref<hal::Buffer> too_small = AllocateFilled(4, 0);
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(executable && input && too_small && semaphore);
  Ref<hal::CommandBuffer> command_buffer = RecordAbsOverSlots(executable);
  ASSERT_TRUE(command_buffer);
  const std::vector<hal::BufferBinding> table = {{input, 0, 8}, {too_small, 0, hal::kWholeBuffer}};
  hal::SemaphorePoint signal{semaphore.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueExecute(hal::kQueueAffinityAny, {}, {&signal, 1}, command_buffer, table)))
      << "the range is only known to be bad at replay; submission must succeed";
  EXPECT_TRUE(IsError(WaitFor(*semaphore, 1), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(semaphore->Query().status(), StatusCode::kOutOfRange));
  EXPECT_EQ(ReadBytes(*too_small), std::vector<uint8_t>(4, 0));

  // The device is still usable: the same recording with a big enough output works.
  Ref<hal::Buffer> output = AllocateFilled(8, 0);
  Ref<hal::CommandBuffer> again = RecordAbsOverSlots(executable);
  ASSERT_TRUE(output && again);
  const std::vector<hal::BufferBinding> good_table = {{input, 0, 8}, {output, 0, 8}};
  ASSERT_TRUE(IsOk(SubmitAndWait(again, good_table)));
  EXPECT_EQ(ReadAs<float>(*output), (std::vector<float>{1.0f, 2.0f}));
}

TEST_P(FailureTest, EmptyBindingSlotFailsSignal) {
  Ref<hal::Executable> executable = LoadExecutable("abs");
  Ref<hal::Buffer> input = AllocateWith<float>({-1.0f, -2.0f});
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(executable && input && semaphore);
  Ref<hal::CommandBuffer> command_buffer = RecordAbsOverSlots(executable);
  ASSERT_TRUE(command_buffer);
  const std::vector<hal::BufferBinding> table = {{input, 0, 8}, {}};
  hal::SemaphorePoint signal{semaphore.get(), 1};
  base::Status submitted = device().QueueExecute(hal::kQueueAffinityAny, {}, {&signal, 1}, command_buffer, table);
  if (submitted.ok()) {
    EXPECT_TRUE(IsError(WaitFor(*semaphore, 1), StatusCode::kInvalidArgument));
  } else {
    // Rejecting the table at submission is equally valid; then nothing may be signaled.
    EXPECT_TRUE(IsError(submitted, StatusCode::kInvalidArgument));
    EXPECT_EQ(ValueOf(*semaphore), 0u);
  }
}

TEST_P(FailureTest, InvalidBindingTableEntryIsRejectedAtSubmission) {
  Ref<hal::Executable> executable = LoadExecutable("abs");
  Ref<hal::Buffer> buffer = AllocateFilled(16, 0);
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(executable && buffer && semaphore);
  Ref<hal::CommandBuffer> command_buffer = RecordAbsOverSlots(executable);
  ASSERT_TRUE(command_buffer);
  const std::vector<hal::BufferBinding> table = {{buffer, 0, 8}, {buffer, 12, 8}};  // [12, 20) of 16
  hal::SemaphorePoint signal{semaphore.get(), 1};
  EXPECT_TRUE(IsError(device().QueueExecute(hal::kQueueAffinityAny, {}, {&signal, 1}, command_buffer, table),
                      StatusCode::kOutOfRange));
  EXPECT_EQ(ValueOf(*semaphore), 0u) << "a rejected submission must not signal";
}

TEST_P(FailureTest, FailedSubmissionFailsItsDependents) {
  Ref<hal::Executable> executable = LoadExecutable("abs");
  Ref<hal::Buffer> input = AllocateWith<float>({-1.0f, -2.0f});
  Ref<hal::Buffer> too_small = AllocateFilled(4, 0);
  Ref<hal::Buffer> independent = AllocateFilled(16, 0);
  Ref<hal::Semaphore> a = CreateSemaphore(), b = CreateSemaphore(), c = CreateSemaphore();
  ASSERT_TRUE(executable && input && too_small && independent && a && b && c);
  // b's fill waits on a; submitted before the failing submission that signals a.
  hal::SemaphorePoint a1{a.get(), 1}, b1{b.get(), 1}, c1{c.get(), 1};
  Ref<hal::Buffer> dependent_target = AllocateFilled(16, 0);
  ASSERT_TRUE(dependent_target);
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&a1, 1}, {&b1, 1}, dependent_target, 0, 16, 0xFF, 1)));
  Ref<hal::CommandBuffer> command_buffer = RecordAbsOverSlots(executable);
  ASSERT_TRUE(command_buffer);
  const std::vector<hal::BufferBinding> table = {{input, 0, 8}, {too_small, 0, hal::kWholeBuffer}};
  ASSERT_TRUE(IsOk(device().QueueExecute(hal::kQueueAffinityAny, {}, {&a1, 1}, command_buffer, table)));
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {}, {&c1, 1}, independent, 0, 16, 0x11, 1)));
  EXPECT_TRUE(IsError(WaitFor(*a, 1), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(WaitFor(*b, 1), StatusCode::kOutOfRange)) << "the failure must propagate with its code";
  EXPECT_EQ(ReadBytes(*dependent_target), std::vector<uint8_t>(16, 0)) << "the dependent must not run";
  ASSERT_TRUE(IsOk(WaitFor(*c, 1))) << "independent work is unaffected";
  EXPECT_EQ(ReadBytes(*independent), std::vector<uint8_t>(16, 0x11));
}

TEST_P(FailureTest, MismatchedConstantCountIsRejectedAtRecord) {
  Ref<hal::Executable> executable = LoadExecutable("write_constants");
  Ref<hal::Buffer> output = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(executable && output && command_buffer);
  const hal::BufferRef refs[1] = {{output, 0, 0, 16}};
  const uint32_t constants[5] = {1, 2, 3, 4, 5};
  EXPECT_TRUE(IsError(command_buffer->Dispatch(executable, 0, {}, std::span(constants, 3), refs, DispatchFlag::kNone),
                      StatusCode::kInvalidArgument, "constants"));
  EXPECT_TRUE(IsError(command_buffer->Dispatch(executable, 0, {}, constants, refs, DispatchFlag::kNone),
                      StatusCode::kInvalidArgument, "constants"));
  EXPECT_TRUE(IsError(command_buffer->Dispatch(executable, 0, {}, {}, refs, DispatchFlag::kNone),
                      StatusCode::kInvalidArgument, "constants"));
  // Nothing was recorded: the empty command buffer runs and writes nothing.
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer)));
  EXPECT_EQ(ReadBytes(*output), std::vector<uint8_t>(16, 0));
}

TEST_P(FailureTest, MismatchedBindingCountIsRejectedAtRecord) {
  Ref<hal::Executable> executable = LoadExecutable("abs");
  Ref<hal::Buffer> buffer = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(executable && buffer && command_buffer);
  const hal::BufferRef refs[3] = {{buffer, 0, 0, 8}, {buffer, 0, 8, 8}, {buffer, 0, 0, 8}};
  EXPECT_TRUE(IsError(command_buffer->Dispatch(executable, 0, {}, {}, std::span(refs, 1), DispatchFlag::kNone),
                      StatusCode::kInvalidArgument, "bindings"));
  EXPECT_TRUE(IsError(command_buffer->Dispatch(executable, 0, {}, {}, refs, DispatchFlag::kNone),
                      StatusCode::kInvalidArgument, "bindings"));
}

TEST_P(FailureTest, BadExportOrdinalAndFlagsAreRejectedAtRecord) {
  Ref<hal::Executable> executable = LoadExecutable("abs");
  Ref<hal::Buffer> buffer = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(executable && buffer && command_buffer);
  const hal::BufferRef refs[2] = {{buffer, 0, 0, 8}, {buffer, 0, 8, 8}};
  EXPECT_TRUE(IsError(command_buffer->Dispatch(executable, 1, {}, {}, refs, DispatchFlag::kNone),
                      StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(command_buffer->Dispatch(nullptr, 0, {}, {}, refs, DispatchFlag::kNone),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(command_buffer->Dispatch(executable, 0, {}, {}, refs, 0x100), StatusCode::kUnimplemented));
  const hal::BufferRef overrun[2] = {{buffer, 0, 12, 8}, {buffer, 0, 0, 8}};
  EXPECT_TRUE(IsError(command_buffer->Dispatch(executable, 0, {}, {}, overrun, DispatchFlag::kNone),
                      StatusCode::kOutOfRange));
}

TEST_P(FailureTest, MalformedExecutableDataIsRejected) {
  const std::vector<uint8_t> good = ExecutableData("abs");
  ASSERT_GT(good.size(), 256u);
  const std::string& format = backend().executable_format;
  std::vector<std::vector<uint8_t>> bad;
  bad.push_back(std::vector<uint8_t>(4096, 0xAB));                            // garbage
  bad.push_back(std::vector<uint8_t>(4096, 0));                               // zeros
  bad.push_back(std::vector<uint8_t>(good.begin(), good.begin() + 64));       // header only
  bad.push_back(std::vector<uint8_t>(good.begin(), good.begin() + good.size() / 2));  // truncated
  bad.push_back(good);
  bad.back()[0] ^= 0xFF;  // broken magic
  bad.push_back(std::vector<uint8_t>(1, 0x7F));
  for (size_t i = 0; i < bad.size(); ++i) {
    base::StatusOr<Ref<hal::Executable>> executable = Prepare(format, bad[i]);
    EXPECT_FALSE(executable.ok()) << "malformed input " << i << " was accepted";
  }
  // The device still prepares and runs good executables.
  EXPECT_TRUE(IsOk(Prepare(format, good)));
}

TEST_P(FailureTest, UnsupportedFormatIsIncompatible) {
  const std::vector<uint8_t> good = ExecutableData("abs");
  ASSERT_FALSE(good.empty());
  for (const char* format : {"FOO?", "cuda-nvptx-fb", "embedded-elf-riscv_64", "vmvx-bytecode-fb-v2"}) {
    EXPECT_TRUE(IsError(Prepare(format, good).status(), StatusCode::kIncompatible)) << format;
  }
}

TEST_P(FailureTest, UnexpectedExecutableConstantsAreRejected) {
  const std::vector<uint8_t> good = ExecutableData("abs");
  ASSERT_FALSE(good.empty());
  const uint32_t constants[2] = {1, 2};
  EXPECT_FALSE(Prepare(backend().executable_format, good, constants).ok())
      << "abs declares no executable constants";
}

TEST_P(FailureTest, DeviceDestroyedWithPendingWorkFailsItsSignals) {
  Ref<hal::Semaphore> gate = CreateSemaphore(), done = CreateSemaphore();
  Ref<hal::Buffer> buffer = AllocateFilled(16, 0);
  ASSERT_TRUE(gate && done && buffer);
  hal::SemaphorePoint wait{gate.get(), 1}, signal{done.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, buffer, 0, 16, 0x77, 1)));
  ReleaseDevice();
  EXPECT_TRUE(IsError(WaitFor(*done, 1), StatusCode::kCancelled));
  // Work cancelled with its device never runs, even once its wait is met.
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  EXPECT_EQ(ReadBytes(*buffer), std::vector<uint8_t>(16, 0));
}

INSTANTIATE_TEST_SUITE_P(Cts, FailureTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
