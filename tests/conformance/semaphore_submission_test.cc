// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// SemaphoreSubmissionTest: queue submissions ordered by semaphores (IREE
// queue/semaphore_submission_test). Submissions whose waits are not yet met must return at once
// (wait-before-signal) and run when the host or another submission signals; failures propagate
// along the chain with their status code.
#include <atomic>
#include <chrono>
#include <thread>

#include "cts_test.h"
#include "hal/fence.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using hal::SemaphorePoint;
using hal::WaitMode;

class SemaphoreSubmissionTest : public CtsTest {
 protected:
  // An empty, finalized command buffer.
  Ref<hal::CommandBuffer> EmptyCommandBuffer() {
    Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
    if (command_buffer) {
      EXPECT_TRUE(IsOk(command_buffer->Finalize()));
    }
    return command_buffer;
  }
  Status Barrier(hal::SemaphoreList wait, hal::SemaphoreList signal) {
    return device().QueueBarrier(hal::kQueueAffinityAny, wait, signal);
  }
  Status Execute(const Ref<hal::CommandBuffer>& command_buffer, hal::SemaphoreList wait,
                 hal::SemaphoreList signal) {
    return device().QueueExecute(hal::kQueueAffinityAny, wait, signal, command_buffer, {});
  }
};

TEST_P(SemaphoreSubmissionTest, SubmitWithNoCommandBuffers) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  SemaphorePoint signal{semaphore.get(), 1};
  ASSERT_TRUE(IsOk(Barrier({}, {&signal, 1})));
  EXPECT_TRUE(IsOk(WaitFor(*semaphore, 1)));
  // A barrier with nothing to signal is fine too.
  EXPECT_TRUE(IsOk(Barrier({}, {})));
}

TEST_P(SemaphoreSubmissionTest, SubmitAndSignal) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  Ref<hal::CommandBuffer> command_buffer = EmptyCommandBuffer();
  ASSERT_TRUE(semaphore && command_buffer);
  SemaphorePoint signal{semaphore.get(), 1};
  ASSERT_TRUE(IsOk(Execute(command_buffer, {}, {&signal, 1})));
  EXPECT_TRUE(IsOk(WaitFor(*semaphore, 1)));
  EXPECT_EQ(ValueOf(*semaphore), 1u);
}

TEST_P(SemaphoreSubmissionTest, SubmitWithWait) {
  Ref<hal::Semaphore> wait_semaphore = CreateSemaphore(0), signal_semaphore = CreateSemaphore(100);
  Ref<hal::CommandBuffer> command_buffer = EmptyCommandBuffer();
  ASSERT_TRUE(wait_semaphore && signal_semaphore && command_buffer);
  SemaphorePoint wait{wait_semaphore.get(), 1}, signal{signal_semaphore.get(), 101};
  // Must return without waiting: nothing else would ever signal |wait_semaphore|.
  ASSERT_TRUE(IsOk(Execute(command_buffer, {&wait, 1}, {&signal, 1})));
  EXPECT_EQ(ValueOf(*signal_semaphore), 100u);
  EXPECT_TRUE(IsError(signal_semaphore->Wait(101, 1'000'000), StatusCode::kDeadlineExceeded));
  ASSERT_TRUE(IsOk(wait_semaphore->Signal(1)));
  EXPECT_TRUE(IsOk(WaitFor(*signal_semaphore, 101)));
  EXPECT_EQ(ValueOf(*signal_semaphore), 101u);
}

TEST_P(SemaphoreSubmissionTest, FenceNotifyAfterDeviceWork) {
  // Nobody waits: the device's own completion path (a queue thread, CUDA's completion thread)
  // runs the notification once the submission signals, or fails, the fence's semaphore.
  Ref<hal::Semaphore> gate = CreateSemaphore(0), done = CreateSemaphore(0);
  Ref<hal::Semaphore> failed_gate = CreateSemaphore(0), failed_done = CreateSemaphore(0);
  Ref<hal::CommandBuffer> command_buffer = EmptyCommandBuffer();
  ASSERT_TRUE(gate && done && failed_gate && failed_done && command_buffer);
  SemaphorePoint wait{gate.get(), 1}, signal{done.get(), 1};
  SemaphorePoint failed_wait{failed_gate.get(), 1}, failed_signal{failed_done.get(), 1};
  ASSERT_TRUE(IsOk(Execute(command_buffer, {&wait, 1}, {&signal, 1})));
  ASSERT_TRUE(IsOk(Barrier({&failed_wait, 1}, {&failed_signal, 1})));
  std::atomic<int> calls{0}, failed_calls{0};
  std::atomic<int> code{-1}, failed_code{-1};
  Ref<hal::Fence> fence = hal::Fence::Create(done, 1);
  Ref<hal::Fence> failed_fence = hal::Fence::Create(failed_done, 1);
  fence->Notify([&](Status status) { code = int(status.code()), ++calls; });
  failed_fence->Notify([&](Status status) { failed_code = int(status.code()), ++failed_calls; });
  EXPECT_EQ(calls.load() + failed_calls.load(), 0);
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  failed_gate->Fail(Status(StatusCode::kUnavailable, "upstream failed"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while ((calls.load() == 0 || failed_calls.load() == 0) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(code.load(), int(StatusCode::kOk));
  EXPECT_EQ(failed_calls.load(), 1);
  EXPECT_EQ(failed_code.load(), int(StatusCode::kUnavailable));
  EXPECT_TRUE(IsOk(WaitFor(*done, 1)));
}

TEST_P(SemaphoreSubmissionTest, WaitBeforeSignalNeverBlocksTheSubmitter) {
  // A long chain submitted back to front: every submission waits on one submitted after it.
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  constexpr uint64_t kLinks = 64;
  for (uint64_t i = kLinks; i >= 1; --i) {
    SemaphorePoint wait{semaphore.get(), i}, signal{semaphore.get(), i + 1};
    ASSERT_TRUE(IsOk(Barrier({&wait, 1}, {&signal, 1})));
  }
  EXPECT_EQ(ValueOf(*semaphore), 0u);
  ASSERT_TRUE(IsOk(semaphore->Signal(1)));
  EXPECT_TRUE(IsOk(WaitFor(*semaphore, kLinks + 1)));
}

TEST_P(SemaphoreSubmissionTest, SubmitWithMultipleSemaphores) {
  Ref<hal::Semaphore> wait1 = CreateSemaphore(0), wait2 = CreateSemaphore(0);
  Ref<hal::Semaphore> signal1 = CreateSemaphore(0), signal2 = CreateSemaphore(0);
  Ref<hal::CommandBuffer> command_buffer = EmptyCommandBuffer();
  ASSERT_TRUE(wait1 && wait2 && signal1 && signal2 && command_buffer);
  const SemaphorePoint waits[2] = {{wait1.get(), 1}, {wait2.get(), 1}};
  const SemaphorePoint signals[2] = {{signal1.get(), 1}, {signal2.get(), 1}};
  ASSERT_TRUE(IsOk(Execute(command_buffer, waits, signals)));
  ASSERT_TRUE(IsOk(wait1->Signal(1)));
  EXPECT_EQ(ValueOf(*signal1), 0u) << "ran with one of two waits met";
  EXPECT_EQ(ValueOf(*signal2), 0u);
  ASSERT_TRUE(IsOk(wait2->Signal(1)));
  EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAll, signals, kWaitTimeoutNs)));
}

TEST_P(SemaphoreSubmissionTest, WaitAllHostAndDeviceSemaphores) {
  Ref<hal::Semaphore> device_semaphore = CreateSemaphore(0), host_semaphore = CreateSemaphore(0);
  ASSERT_TRUE(device_semaphore && host_semaphore);
  SemaphorePoint signal{device_semaphore.get(), 1};
  ASSERT_TRUE(IsOk(Barrier({}, {&signal, 1})));
  std::thread host([&] { EXPECT_TRUE(IsOk(host_semaphore->Signal(1))); });
  const SemaphorePoint points[2] = {{device_semaphore.get(), 1}, {host_semaphore.get(), 1}};
  EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAll, points, kWaitTimeoutNs)));
  host.join();
}

TEST_P(SemaphoreSubmissionTest, WaitAnyHostAndDeviceSemaphoresAndDeviceSignals) {
  Ref<hal::Semaphore> device_semaphore = CreateSemaphore(0), host_semaphore = CreateSemaphore(0);
  ASSERT_TRUE(device_semaphore && host_semaphore);
  SemaphorePoint signal{device_semaphore.get(), 1};
  ASSERT_TRUE(IsOk(Barrier({}, {&signal, 1})));
  const SemaphorePoint points[2] = {{device_semaphore.get(), 1}, {host_semaphore.get(), 1}};
  EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAny, points, kWaitTimeoutNs)));
  EXPECT_EQ(ValueOf(*host_semaphore), 0u);
}

TEST_P(SemaphoreSubmissionTest, WaitAnyHostAndDeviceSemaphoresAndHostSignals) {
  Ref<hal::Semaphore> device_semaphore = CreateSemaphore(0), host_semaphore = CreateSemaphore(0);
  Ref<hal::Semaphore> never = CreateSemaphore(0);
  ASSERT_TRUE(device_semaphore && host_semaphore && never);
  SemaphorePoint wait{never.get(), 1}, signal{device_semaphore.get(), 1};
  ASSERT_TRUE(IsOk(Barrier({&wait, 1}, {&signal, 1})));  // the device side never completes
  std::thread host([&] { EXPECT_TRUE(IsOk(host_semaphore->Signal(1))); });
  const SemaphorePoint points[2] = {{device_semaphore.get(), 1}, {host_semaphore.get(), 1}};
  EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAny, points, kWaitTimeoutNs)));
  host.join();
  EXPECT_EQ(ValueOf(*device_semaphore), 0u);
}

TEST_P(SemaphoreSubmissionTest, IntermediateSemaphoreBetweenDeviceBatches) {
  Ref<hal::Semaphore> host = CreateSemaphore(0), middle = CreateSemaphore(0), last = CreateSemaphore(0);
  ASSERT_TRUE(host && middle && last);
  Ref<hal::Buffer> buffer = AllocateFilled(16, 0);
  ASSERT_TRUE(buffer);
  // Batch 2 (copy the first word over the second) is submitted before batch 1 (the fill).
  SemaphorePoint host1{host.get(), 1}, middle1{middle.get(), 1}, last1{last.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueCopy(hal::kQueueAffinityAny, {&middle1, 1}, {&last1, 1}, buffer, 0, buffer, 8, 8)));
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&host1, 1}, {&middle1, 1}, buffer, 0, 8, 0x5A, 1)));
  EXPECT_EQ(ValueOf(*last), 0u);
  ASSERT_TRUE(IsOk(host->Signal(1)));
  ASSERT_TRUE(IsOk(WaitFor(*last, 1)));
  EXPECT_EQ(ReadBytes(*buffer), std::vector<uint8_t>(16, 0x5A));
}

TEST_P(SemaphoreSubmissionTest, TwoBatchesWaitingOn1FormerBatchAmongst2) {
  Ref<hal::Semaphore> gate = CreateSemaphore(0), first = CreateSemaphore(0), other = CreateSemaphore(0);
  Ref<hal::Semaphore> out1 = CreateSemaphore(0), out2 = CreateSemaphore(0);
  ASSERT_TRUE(gate && first && other && out1 && out2);
  SemaphorePoint gate1{gate.get(), 1}, first1{first.get(), 1}, other1{other.get(), 1};
  SemaphorePoint out11{out1.get(), 1}, out21{out2.get(), 1};
  ASSERT_TRUE(IsOk(Barrier({&gate1, 1}, {&first1, 1})));
  ASSERT_TRUE(IsOk(Barrier({&gate1, 1}, {&other1, 1})));
  ASSERT_TRUE(IsOk(Barrier({&first1, 1}, {&out11, 1})));  // both fan out of the first batch
  ASSERT_TRUE(IsOk(Barrier({&first1, 1}, {&out21, 1})));
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  const SemaphorePoint outs[2] = {out11, out21};
  EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAll, outs, kWaitTimeoutNs)));
  EXPECT_TRUE(IsOk(WaitFor(*other, 1)));
}

TEST_P(SemaphoreSubmissionTest, TwoBatchesWaitingOnDifferentSemaphoreValues) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0), out1 = CreateSemaphore(0), out2 = CreateSemaphore(0);
  ASSERT_TRUE(semaphore && out1 && out2);
  SemaphorePoint wait1{semaphore.get(), 1}, wait2{semaphore.get(), 2};
  SemaphorePoint signal1{out1.get(), 1}, signal2{out2.get(), 1};
  ASSERT_TRUE(IsOk(Barrier({&wait1, 1}, {&signal1, 1})));
  ASSERT_TRUE(IsOk(Barrier({&wait2, 1}, {&signal2, 1})));
  ASSERT_TRUE(IsOk(semaphore->Signal(3)));  // one signal beyond both values releases both
  const SemaphorePoint outs[2] = {signal1, signal2};
  EXPECT_TRUE(IsOk(hal::WaitSemaphores(WaitMode::kAll, outs, kWaitTimeoutNs)));
}

TEST_P(SemaphoreSubmissionTest, BatchWaitingOnAnotherAndHostSignal) {
  Ref<hal::Semaphore> device_semaphore = CreateSemaphore(0), host = CreateSemaphore(0), out = CreateSemaphore(0);
  ASSERT_TRUE(device_semaphore && host && out);
  SemaphorePoint device1{device_semaphore.get(), 1}, host1{host.get(), 1}, out1{out.get(), 1};
  const SemaphorePoint waits[2] = {device1, host1};
  ASSERT_TRUE(IsOk(Barrier(waits, {&out1, 1})));
  ASSERT_TRUE(IsOk(Barrier({}, {&device1, 1})));
  ASSERT_TRUE(IsOk(WaitFor(*device_semaphore, 1)));
  EXPECT_EQ(ValueOf(*out), 0u) << "ran before the host signal";
  ASSERT_TRUE(IsOk(host->Signal(1)));
  EXPECT_TRUE(IsOk(WaitFor(*out, 1)));
}

TEST_P(SemaphoreSubmissionTest, DeviceBatchSignalAnotherAndHost) {
  Ref<hal::Semaphore> to_device = CreateSemaphore(0), to_host = CreateSemaphore(0), out = CreateSemaphore(0);
  ASSERT_TRUE(to_device && to_host && out);
  SemaphorePoint device1{to_device.get(), 1}, host1{to_host.get(), 1}, out1{out.get(), 1};
  ASSERT_TRUE(IsOk(Barrier({&device1, 1}, {&out1, 1})));
  const SemaphorePoint signals[2] = {device1, host1};
  ASSERT_TRUE(IsOk(Barrier({}, signals)));
  EXPECT_TRUE(IsOk(WaitFor(*to_host, 1)));
  EXPECT_TRUE(IsOk(WaitFor(*out, 1)));
}

TEST_P(SemaphoreSubmissionTest, BatchWaitingOnSmallerValueAfterSignaled) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0), out = CreateSemaphore(0);
  ASSERT_TRUE(semaphore && out);
  ASSERT_TRUE(IsOk(semaphore->Signal(5)));
  SemaphorePoint wait{semaphore.get(), 2}, signal{out.get(), 1};
  ASSERT_TRUE(IsOk(Barrier({&wait, 1}, {&signal, 1})));
  EXPECT_TRUE(IsOk(WaitFor(*out, 1)));
}

TEST_P(SemaphoreSubmissionTest, BatchWaitingOnSmallerValueBeforeSignaled) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0), out = CreateSemaphore(0);
  ASSERT_TRUE(semaphore && out);
  SemaphorePoint wait{semaphore.get(), 2}, signal{out.get(), 1};
  ASSERT_TRUE(IsOk(Barrier({&wait, 1}, {&signal, 1})));
  ASSERT_TRUE(IsOk(semaphore->Signal(5)));
  EXPECT_TRUE(IsOk(WaitFor(*out, 1)));
}

TEST_P(SemaphoreSubmissionTest, SignalingAValueAlreadyPassedIsHarmless) {
  // A submission signaling a value the host already passed must not fail the semaphore.
  Ref<hal::Semaphore> semaphore = CreateSemaphore(10);
  ASSERT_TRUE(semaphore);
  SemaphorePoint signal{semaphore.get(), 5};
  ASSERT_TRUE(IsOk(Barrier({}, {&signal, 1})));
  SemaphorePoint later{semaphore.get(), 11};
  ASSERT_TRUE(IsOk(Barrier({&signal, 1}, {&later, 1})));
  EXPECT_TRUE(IsOk(WaitFor(*semaphore, 11)));
}

TEST_P(SemaphoreSubmissionTest, PropagateFailSignal) {
  Ref<hal::Semaphore> wait_semaphore = CreateSemaphore(0), signal_semaphore = CreateSemaphore(0);
  Ref<hal::CommandBuffer> command_buffer = EmptyCommandBuffer();
  ASSERT_TRUE(wait_semaphore && signal_semaphore && command_buffer);
  SemaphorePoint wait{wait_semaphore.get(), 1}, signal{signal_semaphore.get(), 1};
  ASSERT_TRUE(IsOk(Execute(command_buffer, {&wait, 1}, {&signal, 1})));
  wait_semaphore->Fail(Status(StatusCode::kPermissionDenied, "wait failed"));
  EXPECT_TRUE(IsError(WaitFor(*signal_semaphore, 1), StatusCode::kPermissionDenied));
  EXPECT_TRUE(IsError(signal_semaphore->Query().status(), StatusCode::kPermissionDenied));
}

TEST_P(SemaphoreSubmissionTest, PropagateFailAlreadyFailedWait) {
  Ref<hal::Semaphore> wait_semaphore = CreateSemaphore(0), signal_semaphore = CreateSemaphore(0);
  ASSERT_TRUE(wait_semaphore && signal_semaphore);
  wait_semaphore->Fail(Status(StatusCode::kDataLoss, "failed before submission"));
  SemaphorePoint wait{wait_semaphore.get(), 1}, signal{signal_semaphore.get(), 1};
  ASSERT_TRUE(IsOk(Barrier({&wait, 1}, {&signal, 1})));
  EXPECT_TRUE(IsError(WaitFor(*signal_semaphore, 1), StatusCode::kDataLoss));
}

TEST_P(SemaphoreSubmissionTest, PropagateFailAlongAChainAndToEverySignal) {
  Ref<hal::Semaphore> root = CreateSemaphore(0), a = CreateSemaphore(0), b = CreateSemaphore(0),
                      c = CreateSemaphore(0), unrelated = CreateSemaphore(0);
  Ref<hal::Buffer> buffer = AllocateFilled(8, 0);
  ASSERT_TRUE(root && a && b && c && unrelated && buffer);
  SemaphorePoint root1{root.get(), 1}, a1{a.get(), 1}, b1{b.get(), 1}, c1{c.get(), 1}, u1{unrelated.get(), 1};
  const SemaphorePoint first_signals[2] = {a1, b1};
  ASSERT_TRUE(IsOk(Barrier({&root1, 1}, first_signals)));
  // The fill must not run: its wait fails.
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&b1, 1}, {&c1, 1}, buffer, 0, 8, 0xFF, 1)));
  ASSERT_TRUE(IsOk(Barrier({}, {&u1, 1})));
  root->Fail(Status(StatusCode::kOutOfRange, "root failed"));
  EXPECT_TRUE(IsError(WaitFor(*a, 1), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(WaitFor(*b, 1), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(WaitFor(*c, 1), StatusCode::kOutOfRange));
  EXPECT_EQ(ReadBytes(*buffer), std::vector<uint8_t>(8, 0));
  EXPECT_TRUE(IsOk(WaitFor(*unrelated, 1)));
}

TEST_P(SemaphoreSubmissionTest, FailureOfOneWaitAmongSeveral) {
  Ref<hal::Semaphore> ok_wait = CreateSemaphore(0), bad_wait = CreateSemaphore(0), out = CreateSemaphore(0);
  ASSERT_TRUE(ok_wait && bad_wait && out);
  const SemaphorePoint waits[2] = {{ok_wait.get(), 1}, {bad_wait.get(), 1}};
  SemaphorePoint signal{out.get(), 1};
  ASSERT_TRUE(IsOk(Barrier(waits, {&signal, 1})));
  bad_wait->Fail(Status(StatusCode::kAborted, "one wait failed"));
  // Decided at once: the other wait no longer matters.
  EXPECT_TRUE(IsError(WaitFor(*out, 1), StatusCode::kAborted));
  ASSERT_TRUE(IsOk(ok_wait->Signal(1)));
  EXPECT_TRUE(IsError(out->Query().status(), StatusCode::kAborted));
}

TEST_P(SemaphoreSubmissionTest, HostCallRunsAfterItsWaitAndItsErrorFailsSignals) {
  Ref<hal::Semaphore> gate = CreateSemaphore(0), ok_out = CreateSemaphore(0), bad_out = CreateSemaphore(0);
  ASSERT_TRUE(gate && ok_out && bad_out);
  std::atomic<int> ran{0};
  SemaphorePoint wait{gate.get(), 1}, ok_signal{ok_out.get(), 1}, bad_signal{bad_out.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueHostCall(hal::kQueueAffinityAny, {&wait, 1}, {&ok_signal, 1}, [&]() {
    ran.fetch_add(1);
    return Status();
  })));
  ASSERT_TRUE(IsOk(device().QueueHostCall(hal::kQueueAffinityAny, {&wait, 1}, {&bad_signal, 1}, [&]() {
    ran.fetch_add(1);
    return Status(StatusCode::kUnauthenticated, "host call failed");
  })));
  EXPECT_EQ(ran.load(), 0);
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  EXPECT_TRUE(IsOk(WaitFor(*ok_out, 1)));
  EXPECT_TRUE(IsError(WaitFor(*bad_out, 1), StatusCode::kUnauthenticated));
  EXPECT_EQ(ran.load(), 2);
}

TEST_P(SemaphoreSubmissionTest, IndirectCommandBufferBindingTableRetainedUntilSignal) {
  Ref<hal::Semaphore> gate = CreateSemaphore(0), done = CreateSemaphore(0);
  Ref<hal::Buffer> target = AllocateFilled(32, 0);
  ASSERT_TRUE(gate && done && target);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBufferWithCapacity(
      hal::CommandBufferMode::kOneShot, hal::CommandCategory::kAny, 2);
  ASSERT_TRUE(command_buffer);
  ASSERT_TRUE(IsOk(command_buffer->Copy(hal::BufferRef{nullptr, 0, 0, 16}, hal::BufferRef{nullptr, 1, 8, 16}, 16)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  SemaphorePoint wait{gate.get(), 1}, signal{done.get(), 1};
  {
    Ref<hal::Buffer> source = AllocateFilled(16, 0x3C);
    ASSERT_TRUE(source);
    std::vector<hal::BufferBinding> table = {{source, 0, 16}, {target, 0, 32}};
    ASSERT_TRUE(IsOk(device().QueueExecute(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, command_buffer, table)));
    table.clear();  // the host drops the table and the source buffer
  }
  command_buffer = nullptr;
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  ASSERT_TRUE(IsOk(WaitFor(*done, 1)));
  std::vector<uint8_t> expected(32, 0);
  std::fill(expected.begin() + 8, expected.begin() + 24, 0x3C);
  EXPECT_EQ(ReadBytes(*target), expected);
}

TEST_P(SemaphoreSubmissionTest, NullSemaphoresAreRejected) {
  Ref<hal::Semaphore> semaphore = CreateSemaphore(0);
  ASSERT_TRUE(semaphore);
  SemaphorePoint null_point{nullptr, 1}, signal{semaphore.get(), 1};
  EXPECT_TRUE(IsError(Barrier({&null_point, 1}, {&signal, 1}), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Barrier({}, {&null_point, 1}), StatusCode::kInvalidArgument));
  EXPECT_EQ(ValueOf(*semaphore), 0u);
}

TEST_P(SemaphoreSubmissionTest, ManyThreadsSubmittingAtOnce) {
  constexpr int kThreads = 8;
  constexpr uint64_t kPerThread = 40;
  Ref<hal::Buffer> buffer = AllocateFilled(kThreads * 64, 0);
  ASSERT_TRUE(buffer);
  std::vector<Ref<hal::Semaphore>> semaphores(kThreads);
  for (Ref<hal::Semaphore>& semaphore : semaphores) {
    semaphore = CreateSemaphore(0);
    ASSERT_TRUE(semaphore);
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      hal::Semaphore* semaphore = semaphores[t].get();
      for (uint64_t i = 0; i < kPerThread; ++i) {
        // Each thread owns a chain: fills of its own slice with an increasing byte.
        SemaphorePoint wait{semaphore, i}, signal{semaphore, i + 1};
        EXPECT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, buffer,
                                            uint64_t(t) * 64, 64, static_cast<uint32_t>(i + 1), 1)));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(IsOk(WaitFor(*semaphores[t], kPerThread)));
    EXPECT_EQ(ReadBytes(*buffer, uint64_t(t) * 64, 64), std::vector<uint8_t>(64, kPerThread));
  }
}

INSTANTIATE_TEST_SUITE_P(Cts, SemaphoreSubmissionTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
