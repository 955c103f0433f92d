// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// C ABI tests: command buffers, queue operations ordered by fences, and executables (a real
// kernel when the build has compiled test kernels). Queue tests run on local-sync and local-task.
#include <fstream>
#include <iterator>

#include "test_util.h"

namespace iree_rt_test {
namespace {

class QueueTest : public ApiTest, public ::testing::WithParamInterface<const char*> {
 protected:
  void SetUp() override {
    ApiTest::SetUp();
    device_ = CreateDevice(GetParam());
  }
  // Signals |semaphore| to |value| from the host and waits for |fence|.
  void SignalAndWait(iree_rt_semaphore_t semaphore, uint64_t value, iree_rt_fence_t fence) {
    ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(semaphore, value)));
    ASSERT_TRUE(IsOk(iree_rt_fence_wait(fence, IREE_RT_INFINITE_TIMEOUT)));
  }
};

INSTANTIATE_TEST_SUITE_P(Cpu, QueueTest, ::testing::Values("local-sync", "local-task"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param) == "local-sync" ? "LocalSync"
                                                                          : "LocalTask";
                         });

TEST_P(QueueTest, UpdateCopyFillChainedByOneTimeline) {
  iree_rt_buffer_t a = Allocate(device_, 16);
  iree_rt_buffer_t b = Allocate(device_, 16);
  iree_rt_semaphore_t timeline = CreateSemaphore(device_);
  const uint32_t data[4] = {1, 2, 3, 4};
  ASSERT_TRUE(IsOk(iree_rt_device_queue_update(device_, CreateFence(timeline, 0),
                                               CreateFence(timeline, 1), data, 16, a, 0)));
  ASSERT_TRUE(IsOk(iree_rt_device_queue_copy(device_, CreateFence(timeline, 1),
                                             CreateFence(timeline, 2), a, 4, b, 0, 12)));
  const uint32_t pattern = 9;
  ASSERT_TRUE(IsOk(iree_rt_device_queue_fill(device_, CreateFence(timeline, 2),
                                             CreateFence(timeline, 3), b, 12, 4, &pattern, 4)));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_wait(timeline, 3, IREE_RT_INFINITE_TIMEOUT)));
  EXPECT_EQ(ReadAll<uint32_t>(b), (std::vector<uint32_t>{2, 3, 4, 9}));
}

TEST_P(QueueTest, WaitsForAFenceSignaledLaterByTheHost) {
  iree_rt_buffer_t buffer = Allocate(device_, 16);
  iree_rt_semaphore_t gate = CreateSemaphore(device_);
  iree_rt_semaphore_t done = CreateSemaphore(device_);
  iree_rt_fence_t wait = CreateFence(gate, 1);
  iree_rt_fence_t signal = CreateFence(done, 1);

  iree_rt_command_buffer_t commands = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_create(device_, IREE_RT_COMMAND_BUFFER_MODE_ONE_SHOT,
                                                 IREE_RT_COMMAND_CATEGORY_TRANSFER, 0, &commands)));
  const uint32_t pattern = 0xCAFEF00D;
  ASSERT_TRUE(
      IsOk(iree_rt_command_buffer_fill(commands, buffer, 0, 0, IREE_RT_WHOLE_BUFFER, &pattern, 4)));
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_finalize(commands)));
  ASSERT_TRUE(IsOk(
      iree_rt_device_queue_execute(device_, wait, signal, commands, nullptr, nullptr, nullptr, 0)));
  iree_rt_command_buffer_release(commands);  // the submission keeps it

  // Nothing may run before the host opens the gate.
  EXPECT_TRUE(HasCode(iree_rt_fence_query(signal), IREE_RT_STATUS_DEFERRED));
  EXPECT_TRUE(HasCode(iree_rt_fence_wait(signal, 1000000), IREE_RT_STATUS_DEADLINE_EXCEEDED));
  EXPECT_EQ(ReadAll<uint32_t>(buffer), std::vector<uint32_t>(4, 0));

  SignalAndWait(gate, 1, signal);
  EXPECT_EQ(ReadAll<uint32_t>(buffer), std::vector<uint32_t>(4, 0xCAFEF00D));
}

TEST_P(QueueTest, FailedWaitFailsTheSignals) {
  iree_rt_buffer_t buffer = Allocate(device_, 16);
  iree_rt_semaphore_t gate = CreateSemaphore(device_);
  iree_rt_semaphore_t done = CreateSemaphore(device_);
  iree_rt_fence_t signal = CreateFence(done, 1);
  const uint8_t pattern = 1;
  ASSERT_TRUE(IsOk(iree_rt_device_queue_fill(device_, CreateFence(gate, 1), signal, buffer, 0,
                                             IREE_RT_WHOLE_BUFFER, &pattern, 1)));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_fail(gate, IREE_RT_STATUS_UNAVAILABLE, "upstream broke")));
  EXPECT_TRUE(HasCode(iree_rt_fence_wait(signal, IREE_RT_INFINITE_TIMEOUT),
                      IREE_RT_STATUS_UNAVAILABLE, "upstream broke"));
  uint64_t value = 0;
  EXPECT_TRUE(HasCode(iree_rt_semaphore_query(done, &value), IREE_RT_STATUS_UNAVAILABLE));
  EXPECT_EQ(ReadAll<uint8_t>(buffer), std::vector<uint8_t>(16, 0));  // the fill never ran
}

TEST_P(QueueTest, CallTimeErrorsEnqueueNothing) {
  iree_rt_buffer_t buffer = Allocate(device_, 16);
  iree_rt_semaphore_t done = CreateSemaphore(device_);
  iree_rt_fence_t signal = CreateFence(done, 1);
  const uint32_t pattern = 0;
  EXPECT_TRUE(
      HasCode(iree_rt_device_queue_fill(device_, nullptr, signal, buffer, 8, 16, &pattern, 4),
              IREE_RT_STATUS_OUT_OF_RANGE));
  EXPECT_TRUE(
      HasCode(iree_rt_device_queue_update(device_, nullptr, signal, &pattern, 4, buffer, 14),
              IREE_RT_STATUS_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(iree_rt_device_queue_copy(device_, nullptr, signal, buffer, 0, buffer, 0,
                                                IREE_RT_WHOLE_BUFFER),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "'length'"));
  EXPECT_TRUE(
      HasCode(iree_rt_device_queue_fill(device_, nullptr, signal, buffer, 0, 16, &pattern, 3),
              IREE_RT_STATUS_INVALID_ARGUMENT, "'pattern_length'"));
  EXPECT_TRUE(HasCode(iree_rt_fence_query(signal), IREE_RT_STATUS_DEFERRED));
}

TEST_P(QueueTest, NullFencesMeanNoWaitAndNoSignal) {
  iree_rt_buffer_t buffer = Allocate(device_, 16);
  const uint8_t pattern = 3;
  ASSERT_TRUE(IsOk(iree_rt_device_queue_fill(device_, nullptr, nullptr, buffer, 0,
                                             IREE_RT_WHOLE_BUFFER, &pattern, 1)));
  iree_rt_semaphore_t done = CreateSemaphore(device_);
  iree_rt_fence_t signal = CreateFence(done, 1);
  ASSERT_TRUE(IsOk(iree_rt_device_queue_barrier(device_, nullptr, signal)));
  ASSERT_TRUE(IsOk(iree_rt_fence_wait(signal, IREE_RT_INFINITE_TIMEOUT)));
  ASSERT_TRUE(IsOk(iree_rt_device_queue_barrier(device_, nullptr, nullptr)));
}

TEST_P(QueueTest, AllocaAndDealloca) {
  iree_rt_semaphore_t timeline = CreateSemaphore(device_);
  iree_rt_buffer_t buffer = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_device_queue_alloca(
      device_, nullptr, CreateFence(timeline, 1), IREE_RT_MEMORY_TYPE_DEVICE_LOCAL,
      IREE_RT_BUFFER_USAGE_DEFAULT, 64, IREE_RT_ALLOCA_FLAG_NONE, &buffer)));
  Keep(buffer, iree_rt_buffer_release);
  const uint32_t pattern = 0x01020304;
  ASSERT_TRUE(
      IsOk(iree_rt_device_queue_fill(device_, CreateFence(timeline, 1), CreateFence(timeline, 2),
                                     buffer, 0, IREE_RT_WHOLE_BUFFER, &pattern, 4)));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_wait(timeline, 2, IREE_RT_INFINITE_TIMEOUT)));
  EXPECT_EQ(ReadAll<uint32_t>(buffer)[15], 0x01020304u);
  ASSERT_TRUE(IsOk(iree_rt_device_queue_dealloca(device_, CreateFence(timeline, 2),
                                                 CreateFence(timeline, 3), buffer)));
  ASSERT_TRUE(IsOk(iree_rt_semaphore_wait(timeline, 3, IREE_RT_INFINITE_TIMEOUT)));
  uint32_t word = 0;
  iree_rt_status_t status = iree_rt_buffer_read(buffer, 0, &word, 4);
  EXPECT_NE(status, nullptr) << "reading a deallocated buffer must fail cleanly";
  iree_rt_status_free(status);
}

TEST_P(QueueTest, ReusableCommandBufferWithBindingTable) {
  iree_rt_command_buffer_t commands = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_create(device_, IREE_RT_COMMAND_BUFFER_MODE_DEFAULT,
                                                 IREE_RT_COMMAND_CATEGORY_ANY, 2, &commands)));
  Keep(commands, iree_rt_command_buffer_release);
  const uint32_t header[2] = {0xAAAAAAAA, 0xBBBBBBBB};
  const uint16_t pattern = 0x7777;
  // slot 0: [0,8) = header, [8,16) = 0x7777...; then slot 1 = copy of slot 0.
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_update(commands, header, 8, nullptr, 0, 0)));
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_fill(commands, nullptr, 0, 8, 8, &pattern, 2)));
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_barrier(commands)));
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_copy(commands, nullptr, 0, 0, nullptr, 1, 0, 16)));
  EXPECT_TRUE(HasCode(iree_rt_command_buffer_fill(commands, nullptr, 2, 0, 4, &pattern, 2),
                      IREE_RT_STATUS_OUT_OF_RANGE, "slot 2"));
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_finalize(commands)));
  EXPECT_TRUE(
      HasCode(iree_rt_command_buffer_finalize(commands), IREE_RT_STATUS_FAILED_PRECONDITION));
  EXPECT_TRUE(
      HasCode(iree_rt_command_buffer_barrier(commands), IREE_RT_STATUS_FAILED_PRECONDITION));

  iree_rt_semaphore_t timeline = CreateSemaphore(device_);
  for (uint64_t run = 1; run <= 3; ++run) {  // the same recording over fresh buffers
    iree_rt_buffer_t source = Allocate(device_, 32);
    iree_rt_buffer_t target = Allocate(device_, 16);
    const iree_rt_buffer_t buffers[] = {source, target};
    const uint64_t offsets[] = {16, 0};
    ASSERT_TRUE(IsOk(iree_rt_device_queue_execute(device_, CreateFence(timeline, run - 1),
                                                  CreateFence(timeline, run), commands, buffers,
                                                  offsets, nullptr, 2)));
    ASSERT_TRUE(IsOk(iree_rt_semaphore_wait(timeline, run, IREE_RT_INFINITE_TIMEOUT)));
    EXPECT_EQ(ReadAll<uint32_t>(target),
              (std::vector<uint32_t>{0xAAAAAAAA, 0xBBBBBBBB, 0x77777777, 0x77777777}));
    EXPECT_EQ(ReadAll<uint32_t>(source)[0], 0u);  // slot 0 started at offset 16
    EXPECT_EQ(ReadAll<uint32_t>(source)[4], 0xAAAAAAAAu);
  }
  iree_rt_buffer_t one = Allocate(device_, 16);
  EXPECT_TRUE(HasCode(
      iree_rt_device_queue_execute(device_, nullptr, nullptr, commands, &one, nullptr, nullptr, 1),
      IREE_RT_STATUS_INVALID_ARGUMENT, "slot 1"));
}

TEST_P(QueueTest, CommandBufferValidation) {
  iree_rt_command_buffer_t commands = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_command_buffer_create(device_, 0, 0, 0, &commands),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "categories"));
  EXPECT_TRUE(HasCode(
      iree_rt_command_buffer_create(device_, 0x8000, IREE_RT_COMMAND_CATEGORY_ANY, 0, &commands),
      IREE_RT_STATUS_INVALID_ARGUMENT, "mode"));
  EXPECT_TRUE(HasCode(
      iree_rt_command_buffer_create(device_, IREE_RT_COMMAND_BUFFER_MODE_ALLOW_INLINE_EXECUTION,
                                    IREE_RT_COMMAND_CATEGORY_ANY, 0, &commands),
      IREE_RT_STATUS_INVALID_ARGUMENT, "ONE_SHOT"));
  EXPECT_EQ(commands, nullptr);

  ASSERT_TRUE(IsOk(iree_rt_command_buffer_create(device_, IREE_RT_COMMAND_BUFFER_MODE_ONE_SHOT,
                                                 IREE_RT_COMMAND_CATEGORY_TRANSFER, 0, &commands)));
  Keep(commands, iree_rt_command_buffer_release);
  iree_rt_buffer_t buffer = Allocate(device_, 16);
  EXPECT_TRUE(HasCode(iree_rt_command_buffer_copy(commands, buffer, 0, 8, buffer, 0, 0, 16),
                      IREE_RT_STATUS_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(iree_rt_command_buffer_update(commands, nullptr, 4, buffer, 0, 0),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "'source'"));
  EXPECT_TRUE(HasCode(iree_rt_device_queue_execute(device_, nullptr, nullptr, commands, nullptr,
                                                   nullptr, nullptr, 0),
                      IREE_RT_STATUS_FAILED_PRECONDITION, "finalized"));
  const uint32_t constants[1] = {0};
  iree_rt_executable_t no_executable = nullptr;
  EXPECT_TRUE(IsInvalidArgument(
      iree_rt_command_buffer_dispatch(commands, no_executable, 0, 1, 1, 1, constants, 1, nullptr,
                                      nullptr, nullptr, nullptr, 0),
      "executable"));
}

// --- Executables ----------------------------------------------------------------------------

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

class ExecutableTest : public QueueTest {
 protected:
  void SetUp() override {
    QueueTest::SetUp();
    if (HasFatalFailure()) return;
    data_ = ReadFile(TestExecutablePath("scale_and_offset"));
    if (data_.empty()) GTEST_SKIP() << "this build has no compiled test kernels";
    ASSERT_TRUE(IsOk(iree_rt_executable_load(device_, HostEmbeddedElfFormat(), data_.data(),
                                             data_.size(), nullptr, 0, &executable_)));
    Keep(executable_, iree_rt_executable_release);
  }

  // The kernel's input, {1, 2, 3, -4} (its results with constants {3, 10}: 13, 16, 19, -2).
  iree_rt_buffer_t MakeInput() {
    iree_rt_buffer_t input = Allocate(device_, 16);
    const int32_t values[4] = {1, 2, 3, -4};
    EXPECT_TRUE(IsOk(iree_rt_buffer_write(input, 0, values, sizeof(values))));
    return input;
  }
  iree_rt_command_buffer_t MakeCommandBuffer(uint32_t binding_capacity) {
    iree_rt_command_buffer_t commands = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_command_buffer_create(device_, IREE_RT_COMMAND_BUFFER_MODE_DEFAULT,
                                                   IREE_RT_COMMAND_CATEGORY_ANY,
                                                   binding_capacity, &commands)));
    Keep(commands, iree_rt_command_buffer_release);
    return commands;
  }

  std::vector<uint8_t> data_;
  iree_rt_executable_t executable_ = nullptr;
};

INSTANTIATE_TEST_SUITE_P(Cpu, ExecutableTest, ::testing::Values("local-sync", "local-task"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param) == "local-sync" ? "LocalSync"
                                                                          : "LocalTask";
                         });

TEST_P(ExecutableTest, ReportsItsExports) {
  size_t count = 0;
  ASSERT_TRUE(IsOk(iree_rt_executable_export_count(executable_, &count)));
  ASSERT_EQ(count, 1u);
  const char* name = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_executable_export_name(executable_, 0, &name)));
  EXPECT_STREQ(name, "scale_and_offset");
  uint32_t ordinal = 99;
  ASSERT_TRUE(IsOk(iree_rt_executable_lookup_export(executable_, "scale_and_offset", &ordinal)));
  EXPECT_EQ(ordinal, 0u);
  EXPECT_TRUE(HasCode(iree_rt_executable_lookup_export(executable_, "missing", &ordinal),
                      IREE_RT_STATUS_NOT_FOUND, "missing"));
  size_t constants = 0, bindings = 0;
  ASSERT_TRUE(IsOk(iree_rt_executable_export_constant_count(executable_, 0, &constants)));
  ASSERT_TRUE(IsOk(iree_rt_executable_export_binding_count(executable_, 0, &bindings)));
  EXPECT_EQ(constants, 2u);
  EXPECT_EQ(bindings, 2u);
  EXPECT_TRUE(HasCode(iree_rt_executable_export_name(executable_, 1, &name),
                      IREE_RT_STATUS_OUT_OF_RANGE, "'ordinal'"));
  EXPECT_TRUE(HasCode(iree_rt_executable_export_binding_count(executable_, 5, &bindings),
                      IREE_RT_STATUS_OUT_OF_RANGE));
}

TEST_P(ExecutableTest, RejectsWhatItCannotLoad) {
  iree_rt_executable_t executable = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_executable_load(device_, "vulkan-spirv-fb", data_.data(),
                                              data_.size(), nullptr, 0, &executable),
                      IREE_RT_STATUS_INCOMPATIBLE, HostEmbeddedElfFormat()));
  const uint8_t garbage[64] = {0x7F, 'E', 'L', 'F', 1, 2, 3};
  iree_rt_status_t status = iree_rt_executable_load(device_, HostEmbeddedElfFormat(), garbage,
                                                    sizeof(garbage), nullptr, 0, &executable);
  EXPECT_NE(status, nullptr);
  iree_rt_status_free(status);
  EXPECT_TRUE(HasCode(iree_rt_executable_load(device_, HostEmbeddedElfFormat(), garbage, 0, nullptr,
                                              0, &executable),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "empty"));
  EXPECT_EQ(executable, nullptr);
}

TEST_P(ExecutableTest, DispatchesScaleAndOffset) {
  iree_rt_buffer_t input = MakeInput();
  iree_rt_buffer_t output = Allocate(device_, 16);
  iree_rt_command_buffer_t commands = MakeCommandBuffer(1);
  ASSERT_TRUE(commands);
  const uint32_t constants[2] = {3, 10};
  // Input given directly, output through binding-table slot 0.
  const iree_rt_buffer_t buffers[2] = {input, nullptr};
  const uint32_t slots[2] = {0, 0};
  EXPECT_TRUE(HasCode(iree_rt_command_buffer_dispatch(commands, executable_, 0, 1, 1, 1, constants,
                                                      1, buffers, slots, nullptr, nullptr, 2),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "constants"));
  EXPECT_TRUE(HasCode(iree_rt_command_buffer_dispatch(commands, executable_, 1, 1, 1, 1, constants,
                                                      2, buffers, slots, nullptr, nullptr, 2),
                      IREE_RT_STATUS_OUT_OF_RANGE));
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_dispatch(commands, executable_, 0, 1, 1, 1, constants, 2,
                                                   buffers, slots, nullptr, nullptr, 2)));
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_finalize(commands)));

  iree_rt_semaphore_t gate = CreateSemaphore(device_);
  iree_rt_semaphore_t done = CreateSemaphore(device_);
  iree_rt_fence_t signal = CreateFence(done, 1);
  ASSERT_TRUE(IsOk(iree_rt_device_queue_execute(device_, CreateFence(gate, 1), signal, commands,
                                                &output, nullptr, nullptr, 1)));
  EXPECT_TRUE(HasCode(iree_rt_fence_query(signal), IREE_RT_STATUS_DEFERRED));
  EXPECT_EQ(ReadAll<int32_t>(output), std::vector<int32_t>(4, 0));
  SignalAndWait(gate, 1, signal);
  EXPECT_EQ(ReadAll<int32_t>(output), (std::vector<int32_t>{13, 16, 19, -2}));
}

// local-task runs a ready submission on the submitting thread once the workgroup costs it has
// measured put the whole under Device::kInlineWorkNs (here a few microseconds): the work is done
// when queue_execute returns. Before any measurement (the first submission) it goes to a
// worker, and a measurement taken while the machine is loaded (a preempted run reads as
// milliseconds) can keep the next few there until the moving average settles, so the test asks
// that one of the first kSubmissions be done at return, not a given one. local-sync always runs
// them there.
TEST_P(ExecutableTest, SmallReadyWorkIsDoneWhenSubmitReturns) {
  iree_rt_buffer_t input = MakeInput();
  iree_rt_buffer_t output = Allocate(device_, 16);
  iree_rt_command_buffer_t commands = MakeCommandBuffer(0);
  ASSERT_TRUE(commands);
  const uint32_t constants[2] = {3, 10};
  const iree_rt_buffer_t buffers[2] = {input, output};
  const uint32_t slots[2] = {0, 0};
  // Four workgroups, each writing the same four results: more than one, so this is not the
  // single-workgroup case that always ran inline.
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_dispatch(commands, executable_, 0, 4, 1, 1, constants, 2,
                                                   buffers, slots, nullptr, nullptr, 2)));
  ASSERT_TRUE(IsOk(iree_rt_command_buffer_finalize(commands)));
  iree_rt_semaphore_t done = CreateSemaphore(device_);
  constexpr uint64_t kSubmissions = 64;
  uint64_t first_done_at_return = 0;
  for (uint64_t value = 1; value <= kSubmissions && !first_done_at_return; ++value) {
    iree_rt_fence_t signal = CreateFence(done, value);
    ASSERT_TRUE(IsOk(iree_rt_device_queue_execute(device_, nullptr, signal, commands, nullptr,
                                                  nullptr, nullptr, 0)));
    if (value > 1 && IsOk(iree_rt_fence_query(signal))) first_done_at_return = value;
    ASSERT_TRUE(IsOk(iree_rt_fence_wait(signal, IREE_RT_INFINITE_TIMEOUT)));
    EXPECT_EQ(ReadAll<int32_t>(output), (std::vector<int32_t>{13, 16, 19, -2}));
  }
  EXPECT_NE(first_done_at_return, 0u) << "all " << kSubmissions << " submissions were handed off";
}

}  // namespace
}  // namespace iree_rt_test
