// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// C ABI tests: a dispatch that fails while it executes (not when it is recorded or submitted)
// fails its signal fence, the failure reaches every waiter with its code, and the device keeps
// working. Run on local-sync (work runs on the thread that makes it ready) and local-task
// (worker pool).
#include <fstream>
#include <iterator>

#include "test_util.h"

namespace iree_rt_test {
namespace {

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

class DispatchErrorTest : public ApiTest, public ::testing::WithParamInterface<const char*> {
 protected:
  void SetUp() override {
    ApiTest::SetUp();
    device_ = CreateDevice(GetParam());
    data_ = ReadFile(TestExecutablePath("scale_and_offset"));
    if (data_.empty()) GTEST_SKIP() << "this build has no compiled test kernels";
    ASSERT_TRUE(IsOk(iree_rt_executable_load(device_, HostEmbeddedElfFormat(), data_.data(),
                                             data_.size(), nullptr, 0, &executable_)));
    Keep(executable_, iree_rt_executable_release);
  }

  // A reusable recording of scale_and_offset (out = in * 3 + 10 over 4 x i32) whose input and
  // output are binding-table slots 0 and 1, each bound for exactly 16 bytes: whether the table's
  // buffers are big enough is only known when the dispatch executes.
  iree_rt_command_buffer_t RecordOverSlots() {
    iree_rt_command_buffer_t commands = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_command_buffer_create(device_, IREE_RT_COMMAND_BUFFER_MODE_DEFAULT,
                                                   IREE_RT_COMMAND_CATEGORY_ANY, 2, &commands)));
    if (!commands) return nullptr;
    Keep(commands, iree_rt_command_buffer_release);
    const uint32_t constants[2] = {3, 10};
    const iree_rt_buffer_t buffers[2] = {nullptr, nullptr};
    const uint32_t slots[2] = {0, 1};
    const uint64_t lengths[2] = {16, 16};
    EXPECT_TRUE(IsOk(iree_rt_command_buffer_dispatch(commands, executable_, 0, 1, 1, 1, constants,
                                                     2, buffers, slots, nullptr, lengths, 2)));
    EXPECT_TRUE(IsOk(iree_rt_command_buffer_finalize(commands)));
    return commands;
  }

  iree_rt_buffer_t Input() {
    iree_rt_buffer_t input = Allocate(device_, 16);
    const int32_t values[4] = {1, 2, 3, -4};
    EXPECT_TRUE(IsOk(iree_rt_buffer_write(input, 0, values, sizeof(values))));
    return input;
  }

  // The device still runs work correctly: the same recording over good buffers.
  void ExpectDeviceStillWorks(iree_rt_command_buffer_t commands) {
    iree_rt_buffer_t good[2] = {Input(), Allocate(device_, 16)};
    iree_rt_semaphore_t timeline = CreateSemaphore(device_);
    iree_rt_fence_t signal = CreateFence(timeline, 1);
    ASSERT_TRUE(IsOk(iree_rt_device_queue_execute(device_, nullptr, signal, commands, good,
                                                  nullptr, nullptr, 2)));
    ASSERT_TRUE(IsOk(iree_rt_fence_wait(signal, IREE_RT_INFINITE_TIMEOUT)));
    EXPECT_EQ(ReadAll<int32_t>(good[1]), (std::vector<int32_t>{13, 16, 19, -2}));
  }

  std::vector<uint8_t> data_;
  iree_rt_executable_t executable_ = nullptr;
};

INSTANTIATE_TEST_SUITE_P(Cpu, DispatchErrorTest, ::testing::Values("local-sync", "local-task"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param) == "local-sync" ? "LocalSync"
                                                                          : "LocalTask";
                         });

TEST_P(DispatchErrorTest, BindingTooSmallAtExecutionFailsTheSignalFence) {
  iree_rt_command_buffer_t commands = RecordOverSlots();
  ASSERT_NE(commands, nullptr);
  iree_rt_buffer_t too_small = Allocate(device_, 4);
  const iree_rt_buffer_t table[2] = {Input(), too_small};
  iree_rt_semaphore_t done = CreateSemaphore(device_);
  iree_rt_fence_t signal = CreateFence(done, 1);
  // The table entry itself is valid (the whole 4-byte buffer): submission succeeds, and the
  // 16-byte binding is found not to fit only when the dispatch runs.
  ASSERT_TRUE(IsOk(iree_rt_device_queue_execute(device_, nullptr, signal, commands, table,
                                                nullptr, nullptr, 2)));
  EXPECT_TRUE(HasCode(iree_rt_fence_wait(signal, IREE_RT_INFINITE_TIMEOUT),
                      IREE_RT_STATUS_OUT_OF_RANGE));
  uint64_t value = 0;
  EXPECT_TRUE(HasCode(iree_rt_semaphore_query(done, &value), IREE_RT_STATUS_OUT_OF_RANGE));
  EXPECT_EQ(ReadAll<int32_t>(too_small), std::vector<int32_t>(1, 0));  // nothing written
  ExpectDeviceStillWorks(commands);
}

// The failing dispatch becomes ready only when the host signals its wait fence: the failure
// goes to the dispatch's signal fence, never to the host's signal call, and on to the work
// waiting on it.
TEST_P(DispatchErrorTest, FailureAfterAWaitReachesEveryDependent) {
  iree_rt_command_buffer_t commands = RecordOverSlots();
  ASSERT_NE(commands, nullptr);
  const iree_rt_buffer_t table[2] = {Input(), Allocate(device_, 4)};
  iree_rt_semaphore_t gate = CreateSemaphore(device_);
  iree_rt_semaphore_t done = CreateSemaphore(device_);
  iree_rt_semaphore_t after = CreateSemaphore(device_);
  iree_rt_fence_t signal = CreateFence(done, 1);
  iree_rt_fence_t dependent = CreateFence(after, 1);
  ASSERT_TRUE(IsOk(iree_rt_device_queue_execute(device_, CreateFence(gate, 1), signal, commands,
                                                table, nullptr, nullptr, 2)));
  iree_rt_buffer_t untouched = Allocate(device_, 16);
  const uint8_t pattern = 0xAB;
  ASSERT_TRUE(IsOk(iree_rt_device_queue_fill(device_, signal, dependent, untouched, 0,
                                             IREE_RT_WHOLE_BUFFER, &pattern, 1)));
  EXPECT_TRUE(HasCode(iree_rt_fence_query(signal), IREE_RT_STATUS_DEFERRED));

  ASSERT_TRUE(IsOk(iree_rt_semaphore_signal(gate, 1)));
  EXPECT_TRUE(
      HasCode(iree_rt_fence_wait(signal, IREE_RT_INFINITE_TIMEOUT), IREE_RT_STATUS_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(iree_rt_fence_wait(dependent, IREE_RT_INFINITE_TIMEOUT),
                      IREE_RT_STATUS_OUT_OF_RANGE));
  EXPECT_EQ(ReadAll<uint8_t>(untouched), std::vector<uint8_t>(16, 0));  // the fill never ran
  uint64_t value = 0;
  ASSERT_TRUE(IsOk(iree_rt_semaphore_query(gate, &value)));  // the host's timeline is intact
  EXPECT_EQ(value, 1u);
  ExpectDeviceStillWorks(commands);
}

// Many failing submissions in a row neither wedge the queue nor leak (LeakSanitizer in the
// ASan build), and work submitted after them runs.
TEST_P(DispatchErrorTest, RepeatedFailuresLeaveTheQueueUsable) {
  iree_rt_command_buffer_t commands = RecordOverSlots();
  ASSERT_NE(commands, nullptr);
  const iree_rt_buffer_t table[2] = {Input(), Allocate(device_, 4)};
  iree_rt_semaphore_t timeline = CreateSemaphore(device_);
  for (uint64_t i = 1; i <= 16; ++i) {
    iree_rt_semaphore_t done = CreateSemaphore(device_);
    iree_rt_fence_t signal = CreateFence(done, 1);
    ASSERT_TRUE(IsOk(iree_rt_device_queue_execute(device_, nullptr, signal, commands, table,
                                                  nullptr, nullptr, 2)));
    EXPECT_TRUE(HasCode(iree_rt_fence_wait(signal, IREE_RT_INFINITE_TIMEOUT),
                        IREE_RT_STATUS_OUT_OF_RANGE));
    // Independent work on another timeline interleaved with the failures still completes.
    ASSERT_TRUE(IsOk(iree_rt_device_queue_barrier(device_, nullptr, CreateFence(timeline, i))));
    ASSERT_TRUE(IsOk(iree_rt_semaphore_wait(timeline, i, IREE_RT_INFINITE_TIMEOUT)));
  }
  ExpectDeviceStillWorks(commands);
}

}  // namespace
}  // namespace iree_rt_test
