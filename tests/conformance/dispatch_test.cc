// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// DispatchTest: the test kernels dispatched from command buffers recorded with direct refs or
// binding-table slots: bindings with offsets, constants, several exports, several workgroups,
// workgroup counts read from buffers, and pipelines of dispatches joined by barriers and
// semaphores (IREE command_buffer/dispatch_*_test).
#include "dispatch_util.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::StatusCode;
namespace CommandBufferMode = hal::CommandBufferMode;
namespace DispatchFlag = hal::DispatchFlag;

class DispatchTest : public DispatchTestBase {};

TEST_P(DispatchTest, DispatchAbs) {
  Ref<hal::Executable> executable = LoadExecutable("abs");
  ASSERT_TRUE(executable);
  Ref<hal::Buffer> input = AllocateWith<float>({-9.0f, -2.5f, 7.25f, -9.0f});
  Ref<hal::Buffer> output = AllocateWith<float>({-9.0f, -9.0f, -9.0f, -9.0f});
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(input && output && command_buffer);
  Bindings bindings(mode());
  // Elements 1..2 only: binding offset 4, length 8 (abs reads and writes tensor<2xf32>).
  const hal::BufferRef refs[2] = {bindings.Bind(input, 4, 8), bindings.Bind(output, 4, 8)};
  ASSERT_TRUE(IsOk(command_buffer->Dispatch(executable, 0, {}, {}, refs, DispatchFlag::kNone)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  EXPECT_EQ(ReadAs<float>(*output), (std::vector<float>{-9.0f, 2.5f, 7.25f, -9.0f}));
  EXPECT_EQ(ReadAs<float>(*input), (std::vector<float>{-9.0f, -2.5f, 7.25f, -9.0f}));
}

TEST_P(DispatchTest, DispatchWithDispatchConstants) {
  Ref<hal::Executable> executable = LoadExecutable("write_constants");
  ASSERT_TRUE(executable);
  Ref<hal::Buffer> output = AllocateFilled(128, 0xCC);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(output && command_buffer);
  Bindings bindings(mode());
  const uint32_t constants[4] = {0x01234567u, 0xFFFFFFFFu, 0u, 42u};
  const hal::BufferRef refs[1] = {bindings.Bind(output, 64, 16)};
  ASSERT_TRUE(IsOk(command_buffer->Dispatch(executable, 0, {}, constants, refs, DispatchFlag::kNone)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  std::vector<uint32_t> expected(32, 0xCCCCCCCCu);
  std::copy(constants, constants + 4, expected.begin() + 16);
  EXPECT_EQ(ReadAs<uint32_t>(*output), expected);
}

TEST_P(DispatchTest, ScaleAndOffset) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  ASSERT_TRUE(executable);
  Ref<hal::Buffer> input = AllocateWith<int32_t>({1, 2, 3, 4});
  Ref<hal::Buffer> output = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(input && output && command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, bindings.Bind(input),
                                        bindings.Bind(output), 3, 10)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  EXPECT_EQ(ReadAs<int32_t>(*output), (std::vector<int32_t>{13, 16, 19, 22}));
}

TEST_P(DispatchTest, NegativeConstantsAndValues) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  ASSERT_TRUE(executable);
  Ref<hal::Buffer> input = AllocateWith<int32_t>({-1, 0, 1, 100000});
  Ref<hal::Buffer> output = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(input && output && command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, bindings.Bind(input),
                                        bindings.Bind(output), -4, -7)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  EXPECT_EQ(ReadAs<int32_t>(*output), (std::vector<int32_t>{-3, -7, -11, -400007}));
}

TEST_P(DispatchTest, MultiEntrypointNegateAndDouble) {
  Ref<hal::Executable> executable = LoadExecutable("multi_entrypoint");
  ASSERT_TRUE(executable);
  ASSERT_EQ(executable->export_count(), 2u);
  base::StatusOr<uint32_t> negate = executable->LookupExport("negate");
  base::StatusOr<uint32_t> double_it = executable->LookupExport("double_it");
  ASSERT_TRUE(IsOk(negate) && IsOk(double_it));
  EXPECT_EQ(*negate, 0u);
  EXPECT_EQ(*double_it, 1u);
  Ref<hal::Buffer> input = AllocateWith<float>({1.0f, -2.0f, 3.5f, 0.0f});
  Ref<hal::Buffer> outputs = AllocateFilled(128, 0);  // negate → [0, 16), double_it → [64, 80)
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(input && outputs && command_buffer);
  Bindings bindings(mode());
  const hal::BufferRef negate_refs[2] = {bindings.Bind(input), bindings.Bind(outputs, 0, 16)};
  const hal::BufferRef double_refs[2] = {bindings.Bind(input), bindings.Bind(outputs, 64, 16)};
  // Independent dispatches: no barrier between them.
  ASSERT_TRUE(IsOk(command_buffer->Dispatch(executable, *negate, {}, {}, negate_refs, DispatchFlag::kNone)));
  ASSERT_TRUE(IsOk(command_buffer->Dispatch(executable, *double_it, {}, {}, double_refs, DispatchFlag::kNone)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  EXPECT_EQ(ReadAs<float>(*outputs, 0, 16), (std::vector<float>{-1.0f, 2.0f, -3.5f, -0.0f}));
  EXPECT_EQ(ReadAs<float>(*outputs, 64, 16), (std::vector<float>{2.0f, -4.0f, 7.0f, 0.0f}));
  EXPECT_EQ(ReadAs<uint32_t>(*outputs, 16, 48), std::vector<uint32_t>(12, 0));
}

TEST_P(DispatchTest, WriteWorkgroupIds) {
  Ref<hal::Executable> executable = LoadExecutable("write_workgroup_ids");
  ASSERT_TRUE(executable);
  Ref<hal::Buffer> output = AllocateFilled(32 * 4, 0xFF);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(output && command_buffer);
  Bindings bindings(mode());
  hal::DispatchConfig config;
  config.workgroup_count[0] = 32;
  const hal::BufferRef refs[1] = {bindings.Bind(output)};
  ASSERT_TRUE(IsOk(command_buffer->Dispatch(executable, 0, config, {}, refs, DispatchFlag::kNone)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  std::vector<int32_t> expected(32);
  for (int i = 0; i < 32; ++i) expected[i] = i;
  EXPECT_EQ(ReadAs<int32_t>(*output), expected);
}

TEST_P(DispatchTest, ZeroWorkgroupsWritesNothing) {
  Ref<hal::Executable> executable = LoadExecutable("write_workgroup_ids");
  ASSERT_TRUE(executable);
  Ref<hal::Buffer> output = AllocateFilled(32 * 4, 0xFF);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(output && command_buffer);
  Bindings bindings(mode());
  const hal::BufferRef refs[1] = {bindings.Bind(output)};
  for (int axis = 0; axis < 3; ++axis) {
    hal::DispatchConfig config;
    config.workgroup_count[0] = 8;
    config.workgroup_count[axis] = 0;
    ASSERT_TRUE(IsOk(command_buffer->Dispatch(executable, 0, config, {}, refs, DispatchFlag::kNone)));
  }
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  EXPECT_EQ(ReadBytes(*output), std::vector<uint8_t>(128, 0xFF));
}

// ---------------------------------------------------------------------------------------------
// Workgroup counts read from a buffer (IREE dispatch_indirect_parameters_test). write_workgroup_ids
// writes out[x] = x for every workgroup, so out shows exactly how many workgroups ran along x.

class DispatchIndirectParametersTest : public DispatchTestBase {
 protected:
  void SetUp() override {
    DispatchTestBase::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    executable_ = LoadExecutable("write_workgroup_ids");
    ASSERT_TRUE(executable_);
    output_ = AllocateFilled(32 * 4, 0xFF);
    ASSERT_TRUE(output_);
  }

  // Records the indirect dispatch; the static count {1,1,1} must be ignored.
  base::Status RecordIndirect(hal::CommandBuffer& command_buffer, Bindings& bindings,
                              const hal::BufferRef& params_ref, hal::DispatchFlags flags) {
    hal::DispatchConfig config;
    config.workgroup_count_ref = params_ref;
    const hal::BufferRef refs[1] = {bindings.Bind(output_)};
    return command_buffer.Dispatch(executable_, 0, config, {}, refs, flags);
  }

  void ExpectWorkgroups(int count) {
    std::vector<int32_t> expected(32, -1);
    for (int i = 0; i < count; ++i) expected[i] = i;
    EXPECT_EQ(ReadAs<int32_t>(*output_), expected);
  }

  Ref<hal::Executable> executable_;
  Ref<hal::Buffer> output_;
};

TEST_P(DispatchIndirectParametersTest, StaticParametersFromQueueUpdate) {
  Ref<hal::Buffer> params = AllocateFilled(16, 0);
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(params && semaphore && command_buffer);
  const uint32_t counts[3] = {7, 1, 1};
  hal::SemaphorePoint updated{semaphore.get(), 1}, done{semaphore.get(), 2};
  ASSERT_TRUE(IsOk(device().QueueUpdate(hal::kQueueAffinityAny, {}, {&updated, 1}, counts, 12, params, 0)));
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(RecordIndirect(*command_buffer, bindings, bindings.Bind(params, 0, 12),
                                  DispatchFlag::kStaticIndirectParameters)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(Execute(command_buffer, bindings.table(), {&updated, 1}, {&done, 1})));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 2)));
  ExpectWorkgroups(7);
}

TEST_P(DispatchIndirectParametersTest, WholeBufferParameterRef) {
  Ref<hal::Buffer> params = AllocateWith<uint32_t>({3, 1, 1});
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(params && command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(RecordIndirect(*command_buffer, bindings, bindings.Bind(params),
                                  DispatchFlag::kStaticIndirectParameters)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  ExpectWorkgroups(3);
}

TEST_P(DispatchIndirectParametersTest, DynamicParametersFromUpdate) {
  Ref<hal::Buffer> params = AllocateWith<uint32_t>({31, 1, 1});
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(params && command_buffer);
  Bindings bindings(mode());
  const uint32_t counts[3] = {5, 1, 1};
  ASSERT_TRUE(IsOk(command_buffer->Update(counts, 12, bindings.Bind(params, 0, 12))));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(RecordIndirect(*command_buffer, bindings, bindings.Bind(params, 0, 12),
                                  DispatchFlag::kDynamicIndirectParameters)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  ExpectWorkgroups(5);
}

TEST_P(DispatchIndirectParametersTest, DynamicParametersFromFill) {
  Ref<hal::Buffer> params = AllocateWith<uint32_t>({31, 31, 31});
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(params && command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(command_buffer->Fill(bindings.Bind(params, 0, 12), 1, 4)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(command_buffer->Fill(bindings.Bind(params, 0, 4), 9, 4)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(RecordIndirect(*command_buffer, bindings, bindings.Bind(params, 0, 12),
                                  DispatchFlag::kDynamicIndirectParameters)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  ExpectWorkgroups(9);
}

TEST_P(DispatchIndirectParametersTest, DynamicParametersFromDispatch) {
  Ref<hal::Executable> writer = LoadExecutable("write_dispatch_params");
  Ref<hal::Buffer> params = AllocateWith<uint32_t>({31, 1, 1});
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(writer && params && command_buffer);
  Bindings bindings(mode());
  const hal::BufferRef writer_refs[1] = {bindings.Bind(params, 0, 12)};
  ASSERT_TRUE(IsOk(command_buffer->Dispatch(writer, 0, {}, {}, writer_refs, DispatchFlag::kNone)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(RecordIndirect(*command_buffer, bindings, bindings.Bind(params, 0, 12),
                                  DispatchFlag::kDynamicIndirectParameters)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  EXPECT_EQ(ReadAs<uint32_t>(*params), (std::vector<uint32_t>{4, 1, 1}));
  ExpectWorkgroups(4);
}

TEST_P(DispatchIndirectParametersTest, SubAllocatedParameterBuffer) {
  // The real counts sit at byte 80 of the root; decoys at byte 16, where a driver that forgot the
  // subspan's base offset would read.
  Ref<hal::Buffer> root = AllocateFilled(256, 0);
  ASSERT_TRUE(root);
  const uint32_t decoy[3] = {31, 1, 1}, counts[3] = {6, 1, 1};
  ASSERT_TRUE(IsOk(root->Write(16, decoy, 12)));
  ASSERT_TRUE(IsOk(root->Write(80, counts, 12)));
  base::StatusOr<Ref<hal::Buffer>> subspan = hal::Buffer::Subspan(root, 64, 64);
  ASSERT_TRUE(IsOk(subspan));
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(RecordIndirect(*command_buffer, bindings, bindings.Bind(*subspan, 16, 12),
                                  DispatchFlag::kStaticIndirectParameters)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  ExpectWorkgroups(6);
}

TEST_P(DispatchIndirectParametersTest, ParameterRefTooSmallIsRejected) {
  Ref<hal::Buffer> params = AllocateWith<uint32_t>({4, 1});
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(params && command_buffer);
  Bindings bindings(mode());
  base::Status recorded = RecordIndirect(*command_buffer, bindings, bindings.Bind(params),
                                         DispatchFlag::kStaticIndirectParameters);
  if (!indirect()) {
    EXPECT_TRUE(IsError(recorded, StatusCode::kOutOfRange));
    return;
  }
  ASSERT_TRUE(IsOk(recorded));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  EXPECT_TRUE(IsError(SubmitAndWait(command_buffer, bindings.table()), StatusCode::kOutOfRange));
  ExpectWorkgroups(0);
}

// ---------------------------------------------------------------------------------------------
// DispatchPipelineTest: dispatches chained by barriers and by semaphores.

class DispatchPipelineTest : public DispatchTestBase {};

TEST_P(DispatchPipelineTest, UpdateThenDispatch) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  Ref<hal::Buffer> input = AllocateFilled(16, 0);
  Ref<hal::Buffer> output = AllocateFilled(16, 0);
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(executable && input && output && semaphore && command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, bindings.Bind(input),
                                        bindings.Bind(output), 2, 1)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  // Submitted first, waiting on the update submitted after it.
  hal::SemaphorePoint updated{semaphore.get(), 1}, done{semaphore.get(), 2};
  ASSERT_TRUE(IsOk(Execute(command_buffer, bindings.table(), {&updated, 1}, {&done, 1})));
  const int32_t values[4] = {10, 20, 30, 40};
  ASSERT_TRUE(IsOk(device().QueueUpdate(hal::kQueueAffinityAny, {}, {&updated, 1}, values, 16, input, 0)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 2)));
  EXPECT_EQ(ReadAs<int32_t>(*output), (std::vector<int32_t>{21, 41, 61, 81}));
}

TEST_P(DispatchPipelineTest, ChainedDispatches) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  Ref<hal::Buffer> a = AllocateWith<int32_t>({1, 2, 3, 4});
  Ref<hal::Buffer> b = AllocateFilled(16, 0);
  Ref<hal::Buffer> c = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(executable && a && b && c && command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, bindings.Bind(a), bindings.Bind(b), 2, 1)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, bindings.Bind(b), bindings.Bind(c), 3, 0)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  EXPECT_EQ(ReadAs<int32_t>(*b), (std::vector<int32_t>{3, 5, 7, 9}));
  EXPECT_EQ(ReadAs<int32_t>(*c), (std::vector<int32_t>{9, 15, 21, 27}));
}

TEST_P(DispatchPipelineTest, FillDispatchDispatchPipeline) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  Ref<hal::Buffer> a = AllocateFilled(16, 0);
  Ref<hal::Buffer> b = AllocateFilled(16, 0);
  Ref<hal::Buffer> c = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(executable && a && b && c && command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(command_buffer->Fill(bindings.Bind(a), 2, 4)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, bindings.Bind(a), bindings.Bind(b), 5, 1)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, bindings.Bind(b), bindings.Bind(c), 1, -1)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  EXPECT_EQ(ReadAs<int32_t>(*c), std::vector<int32_t>(4, 10));
}

TEST_P(DispatchPipelineTest, TransientInputPipeline) {
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  Ref<hal::Buffer> output = AllocateFilled(16, 0);
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(executable && output && semaphore);
  hal::SemaphorePoint s1{semaphore.get(), 1}, s2{semaphore.get(), 2}, s3{semaphore.get(), 3},
      s4{semaphore.get(), 4};
  base::StatusOr<Ref<hal::Buffer>> transient = device().QueueAlloca(
      hal::kQueueAffinityAny, {}, {&s1, 1}, DefaultBufferParams(), 16, 0);
  ASSERT_TRUE(IsOk(transient));
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&s1, 1}, {&s2, 1}, *transient, 0, 16, 7, 4)));
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, bindings.Bind(*transient),
                                        bindings.Bind(output), 3, 0)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(Execute(command_buffer, bindings.table(), {&s2, 1}, {&s3, 1})));
  ASSERT_TRUE(IsOk(device().QueueDealloca(hal::kQueueAffinityAny, {&s3, 1}, {&s4, 1}, *transient, 0)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 4)));
  EXPECT_EQ(ReadAs<int32_t>(*output), std::vector<int32_t>(4, 21));
}

TEST_P(DispatchPipelineTest, ReusableCommandBufferReplaysFromScratch) {
  // A reusable command buffer with an update feeding a dispatch must redo both on each submit.
  Ref<hal::Executable> executable = LoadExecutable("scale_and_offset");
  Ref<hal::Buffer> a = AllocateFilled(16, 0);
  Ref<hal::Buffer> b = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer(CommandBufferMode::kDefault);
  ASSERT_TRUE(executable && a && b && command_buffer);
  Bindings bindings(mode());
  const int32_t values[4] = {1, 1, 1, 1};
  ASSERT_TRUE(IsOk(command_buffer->Update(values, 16, bindings.Bind(a))));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, bindings.Bind(a), bindings.Bind(b), 1, 1)));
  ASSERT_TRUE(IsOk(command_buffer->ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(command_buffer->Copy(bindings.Bind(b), bindings.Bind(a), 16)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
    EXPECT_EQ(ReadAs<int32_t>(*a), std::vector<int32_t>(4, 2)) << "round " << round;
  }
}

INSTANTIATE_TEST_SUITE_P(Cts, DispatchTest, ::testing::ValuesIn(BackendAndModeParams()), BackendModeName);
INSTANTIATE_TEST_SUITE_P(Cts, DispatchIndirectParametersTest, ::testing::ValuesIn(BackendAndModeParams()),
                         BackendModeName);
INSTANTIATE_TEST_SUITE_P(Cts, DispatchPipelineTest, ::testing::ValuesIn(BackendAndModeParams()),
                         BackendModeName);

}  // namespace
}  // namespace iree_rt::cts
