// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Command buffers without dispatches: creation and state (CommandBufferBasicTest), and
// fill/copy/update recorded with direct refs or binding-table slots (IREE command_buffer/*_test).
#include <numeric>
#include <tuple>

#include "cts_test.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::StatusCode;
namespace CommandBufferMode = hal::CommandBufferMode;
namespace CommandCategory = hal::CommandCategory;

// ---------------------------------------------------------------------------------------------
// CommandBufferBasicTest

class CommandBufferBasicTest : public CtsTest {};

TEST_P(CommandBufferBasicTest, Create) {
  Ref<hal::CommandBuffer> command_buffer =
      CreateCommandBuffer(CommandBufferMode::kDefault, CommandCategory::kDispatch);
  ASSERT_TRUE(command_buffer);
  EXPECT_EQ(command_buffer->categories(), CommandCategory::kDispatch);
  EXPECT_EQ(command_buffer->mode(), CommandBufferMode::kDefault);
  EXPECT_EQ(command_buffer->binding_capacity(), indirect() ? kBindingCapacity : 0u);
  EXPECT_FALSE(command_buffer->is_finalized());
}

TEST_P(CommandBufferBasicTest, BeginEnd) {
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(command_buffer);
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  EXPECT_TRUE(command_buffer->is_finalized());
  EXPECT_TRUE(IsError(command_buffer->Finalize(), StatusCode::kFailedPrecondition));
}

TEST_P(CommandBufferBasicTest, RecordingAfterFinalizeFails) {
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  Ref<hal::Buffer> buffer = AllocateBuffer(16);
  ASSERT_TRUE(command_buffer && buffer);
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  Bindings bindings(mode());
  EXPECT_TRUE(IsError(command_buffer->Fill(bindings.Bind(buffer), 0, 1), StatusCode::kFailedPrecondition));
  const uint32_t word = 7;
  EXPECT_TRUE(IsError(command_buffer->Update(&word, 4, bindings.Bind(buffer)),
                      StatusCode::kFailedPrecondition));
  EXPECT_TRUE(IsError(command_buffer->ExecutionBarrier(0, 0), StatusCode::kFailedPrecondition));
}

TEST_P(CommandBufferBasicTest, SubmitEmpty) {
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(command_buffer);
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  EXPECT_TRUE(IsOk(SubmitAndWait(command_buffer)));
}

TEST_P(CommandBufferBasicTest, SubmitUnfinalizedFails) {
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(command_buffer && semaphore);
  hal::SemaphorePoint signal{semaphore.get(), 1};
  EXPECT_TRUE(IsError(device().QueueExecute(hal::kQueueAffinityAny, {}, {&signal, 1}, command_buffer, {}),
                      StatusCode::kFailedPrecondition));
  EXPECT_EQ(ValueOf(*semaphore), 0u) << "a rejected submission must not signal";
}

TEST_P(CommandBufferBasicTest, InvalidCreationParametersAreRejected) {
  EXPECT_TRUE(IsError(device().CreateCommandBuffer(0x8000, CommandCategory::kAny, hal::kQueueAffinityAny, 0)
                          .status(),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(device()
                          .CreateCommandBuffer(CommandBufferMode::kAllowInlineExecution,
                                               CommandCategory::kAny, hal::kQueueAffinityAny, 0)
                          .status(),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(device().CreateCommandBuffer(CommandBufferMode::kOneShot, 0, hal::kQueueAffinityAny, 0)
                          .status(),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(device().CreateCommandBuffer(CommandBufferMode::kOneShot, 0x10, hal::kQueueAffinityAny, 0)
                          .status(),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(device().CreateCommandBuffer(CommandBufferMode::kOneShot, CommandCategory::kAny, 0, 0)
                          .status(),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsOk(device().CreateCommandBuffer(
      CommandBufferMode::kOneShot | CommandBufferMode::kAllowInlineExecution, CommandCategory::kAny,
      hal::kQueueAffinityAny, 0)));
}

TEST_P(CommandBufferBasicTest, CategoryMismatchIsRejected) {
  Ref<hal::CommandBuffer> dispatch_only = CreateCommandBuffer(CommandBufferMode::kOneShot, CommandCategory::kDispatch);
  Ref<hal::Buffer> buffer = AllocateBuffer(16);
  ASSERT_TRUE(dispatch_only && buffer);
  Bindings bindings(mode());
  EXPECT_TRUE(IsError(dispatch_only->Fill(bindings.Bind(buffer), 0, 4), StatusCode::kInvalidArgument));
  Ref<hal::CommandBuffer> transfer_only = CreateCommandBuffer(CommandBufferMode::kOneShot, CommandCategory::kTransfer);
  ASSERT_TRUE(transfer_only);
  EXPECT_TRUE(IsError(transfer_only->Dispatch(nullptr, 0, {}, {}, {}, 0), StatusCode::kInvalidArgument));
}

TEST_P(CommandBufferBasicTest, BindingSlotBeyondCapacityIsRejected) {
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBufferWithCapacity(
      CommandBufferMode::kOneShot, CommandCategory::kAny, 2);
  ASSERT_TRUE(command_buffer);
  EXPECT_TRUE(IsError(command_buffer->Fill(hal::BufferRef{nullptr, 2, 0, 4}, 0, 4), StatusCode::kOutOfRange));
  ASSERT_TRUE(IsOk(command_buffer->Fill(hal::BufferRef{nullptr, 1, 0, 4}, 0, 4)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  // The table must cover every slot used.
  Ref<hal::Buffer> buffer = AllocateBuffer(16);
  ASSERT_TRUE(buffer);
  std::vector<hal::BufferBinding> short_table = {{buffer, 0, hal::kWholeBuffer}};
  EXPECT_TRUE(IsError(SubmitAndWait(command_buffer, short_table), StatusCode::kInvalidArgument));
  std::vector<hal::BufferBinding> table = {{}, {buffer, 8, 8}};
  ASSERT_TRUE(IsOk(buffer->Fill(0, 16, 0xFF, 1)));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, table)));
  std::vector<uint8_t> expected(16, 0xFF);
  std::fill(expected.begin() + 8, expected.begin() + 12, 0);
  EXPECT_EQ(ReadBytes(*buffer), expected);
}

INSTANTIATE_TEST_SUITE_P(Cts, CommandBufferBasicTest, ::testing::ValuesIn(BackendAndModeParams()),
                         BackendModeName);

// ---------------------------------------------------------------------------------------------
// CommandBufferFillTest

class CommandBufferFillTest : public CtsTest {
 protected:
  // Fills [offset, offset+length) of a zeroed |size|-byte buffer and checks every byte.
  void RunFill(uint64_t size, uint64_t offset, uint64_t length, uint32_t pattern, uint32_t pattern_length) {
    SCOPED_TRACE(::testing::Message() << "size " << size << " offset " << offset << " length " << length
                                      << " pattern width " << pattern_length);
    Ref<hal::Buffer> buffer = AllocateFilled(size, 0);
    Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
    ASSERT_TRUE(buffer && command_buffer);
    Bindings bindings(mode());
    ASSERT_TRUE(IsOk(command_buffer->Fill(bindings.Bind(buffer, offset, length), pattern, pattern_length)));
    ASSERT_TRUE(IsOk(command_buffer->Finalize()));
    ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
    std::vector<uint8_t> expected(size, 0);
    for (uint64_t i = 0; i < length; ++i) {
      expected[offset + i] = static_cast<uint8_t>(pattern >> (8 * (i % pattern_length)));
    }
    EXPECT_EQ(ReadBytes(*buffer), expected);
  }
};

TEST_P(CommandBufferFillTest, Pattern1_Size1_Offset0_Length1) { RunFill(1, 0, 1, 0x07, 1); }
TEST_P(CommandBufferFillTest, Pattern1_Size5_Offset0_Length5) { RunFill(5, 0, 5, 0x07, 1); }
TEST_P(CommandBufferFillTest, Pattern1_Size16_Offset0_Length1) { RunFill(16, 0, 1, 0x07, 1); }
TEST_P(CommandBufferFillTest, Pattern1_Size16_Offset0_Length3) { RunFill(16, 0, 3, 0x07, 1); }
TEST_P(CommandBufferFillTest, Pattern1_Size16_Offset0_Length8) { RunFill(16, 0, 8, 0x07, 1); }
TEST_P(CommandBufferFillTest, Pattern1_Size16_Offset2_Length8) { RunFill(16, 2, 8, 0x07, 1); }
TEST_P(CommandBufferFillTest, Pattern2_Size2_Offset0_Length2) { RunFill(2, 0, 2, 0xAB23, 2); }
TEST_P(CommandBufferFillTest, Pattern2_Size16_Offset0_Length8) { RunFill(16, 0, 8, 0xAB23, 2); }
TEST_P(CommandBufferFillTest, Pattern2_Size16_Offset0_Length10) { RunFill(16, 0, 10, 0xAB23, 2); }
TEST_P(CommandBufferFillTest, Pattern2_Size16_Offset2_Length8) { RunFill(16, 2, 8, 0xAB23, 2); }
TEST_P(CommandBufferFillTest, Pattern4_Size4_Offset0_Length4) { RunFill(4, 0, 4, 0xFFAB23CDu, 4); }
TEST_P(CommandBufferFillTest, Pattern4_Size16_Offset0_Length8) { RunFill(16, 0, 8, 0xFFAB23CDu, 4); }
TEST_P(CommandBufferFillTest, Pattern4_Size16_Offset8_Length8) { RunFill(16, 8, 8, 0xFFAB23CDu, 4); }
TEST_P(CommandBufferFillTest, Pattern4_Size16_Offset4_Length12) { RunFill(16, 4, 12, 0xFFAB23CDu, 4); }

TEST_P(CommandBufferFillTest, FillSizeAlignmentAndPatternClasses) {
  // (pattern width, offset, length): unaligned offsets for narrow patterns, odd lengths, and sizes
  // up to 64 KiB.
  const std::tuple<uint32_t, uint64_t, uint64_t> cases[] = {
      {1, 0, 1},     {1, 1, 1},     {1, 3, 5},       {1, 7, 13},      {1, 1, 255},
      {1, 5, 4096},  {1, 3, 65533}, {2, 0, 2},       {2, 2, 6},       {2, 6, 2},
      {2, 10, 254},  {2, 2, 65534}, {4, 0, 4},       {4, 4, 4},       {4, 12, 20},
      {4, 4, 4092},  {4, 0, 65536}, {4, 60, 65476},  {1, 0, 65536},
  };
  for (const auto& [width, offset, length] : cases) {
    const uint32_t pattern = width == 1 ? 0x5Au : width == 2 ? 0xA55Au : 0xDEADBEEFu;
    RunFill(65536 + 64, offset, length, pattern, width);
    if (HasFatalFailure()) return;
  }
}

TEST_P(CommandBufferFillTest, FillWholeBufferLength) {
  Ref<hal::Buffer> buffer = AllocateFilled(64, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(buffer && command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(command_buffer->Fill(bindings.Bind(buffer, 16, hal::kWholeBuffer), 0x11223344u, 4)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  std::vector<uint32_t> expected(16, 0);
  std::fill(expected.begin() + 4, expected.end(), 0x11223344u);
  EXPECT_EQ(ReadAs<uint32_t>(*buffer), expected);
}

TEST_P(CommandBufferFillTest, InvalidPatternsAreRejected) {
  Ref<hal::Buffer> buffer = AllocateBuffer(64);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(buffer && command_buffer);
  Bindings bindings(mode());
  EXPECT_TRUE(IsError(command_buffer->Fill(bindings.Bind(buffer, 0, 12), 0, 3), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(command_buffer->Fill(bindings.Bind(buffer, 0, 12), 0, 8), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(command_buffer->Fill(bindings.Bind(buffer, 0, 6), 0, 4), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(command_buffer->Fill(bindings.Bind(buffer, 0, 3), 0, 2), StatusCode::kInvalidArgument));
  if (!indirect()) {
    // Direct refs are checked against the buffer when recorded.
    EXPECT_TRUE(IsError(command_buffer->Fill(bindings.Bind(buffer, 2, 8), 0, 4), StatusCode::kInvalidArgument));
    EXPECT_TRUE(IsError(command_buffer->Fill(bindings.Bind(buffer, 60, 8), 0, 4), StatusCode::kOutOfRange));
  }
}

TEST_P(CommandBufferFillTest, OutOfRangeFillFailsTheSubmissionNotTheDevice) {
  // Direct refs are range-checked when recorded; slot refs only when the table is known, at
  // replay, where the failure must reach the signal semaphore.
  Ref<hal::Buffer> small = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(small && command_buffer);
  if (indirect()) {
    // The table entry is valid (the whole buffer); only the ref's 32 bytes overrun it.
    ASSERT_TRUE(IsOk(command_buffer->Fill(hal::BufferRef{nullptr, 0, 0, 32}, 0x01, 1)));
    ASSERT_TRUE(IsOk(command_buffer->Finalize()));
    const std::vector<hal::BufferBinding> table = {{small, 0, hal::kWholeBuffer}};
    EXPECT_TRUE(IsError(SubmitAndWait(command_buffer, table), StatusCode::kOutOfRange));
  } else {
    const base::Status recorded = command_buffer->Fill(hal::BufferRef{small, 0, 0, 32}, 0x01, 1);
    EXPECT_TRUE(IsError(recorded, StatusCode::kOutOfRange));
  }
  EXPECT_EQ(ReadBytes(*small), std::vector<uint8_t>(16, 0)) << "nothing may be written";
  // The device still works with a large enough buffer.
  Ref<hal::Buffer> large = AllocateFilled(32, 0);
  Ref<hal::CommandBuffer> again = CreateCommandBuffer();
  ASSERT_TRUE(large && again);
  Bindings good(mode());
  ASSERT_TRUE(IsOk(again->Fill(good.Bind(large, 0, 32), 0x01, 1)));
  ASSERT_TRUE(IsOk(again->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(again, good.table())));
  EXPECT_EQ(ReadBytes(*large), std::vector<uint8_t>(32, 1));
}

INSTANTIATE_TEST_SUITE_P(Cts, CommandBufferFillTest, ::testing::ValuesIn(BackendAndModeParams()),
                         BackendModeName);

// ---------------------------------------------------------------------------------------------
// CommandBufferCopyTest

class CommandBufferCopyTest : public CtsTest {
 protected:
  void RunCopy(uint64_t size, uint64_t source_offset, uint64_t target_offset, uint64_t length) {
    SCOPED_TRACE(::testing::Message() << "source offset " << source_offset << " target offset "
                                      << target_offset << " length " << length);
    std::vector<uint8_t> source_bytes(size);
    for (uint64_t i = 0; i < size; ++i) source_bytes[i] = static_cast<uint8_t>(i * 7 + 3);
    hal::BufferParams host_params = DefaultBufferParams();
    host_params.type = hal::MemoryType::kHostLocal | hal::MemoryType::kDeviceVisible;
    Ref<hal::Buffer> source = AllocateBuffer(size, host_params);
    Ref<hal::Buffer> target = AllocateFilled(size, 0);
    Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
    ASSERT_TRUE(source && target && command_buffer);
    ASSERT_TRUE(IsOk(source->Write(0, source_bytes.data(), size)));
    Bindings bindings(mode());
    ASSERT_TRUE(IsOk(command_buffer->Copy(bindings.Bind(source, source_offset, length),
                                          bindings.Bind(target, target_offset, length), length)));
    ASSERT_TRUE(IsOk(command_buffer->Finalize()));
    ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
    std::vector<uint8_t> expected(size, 0);
    std::copy(source_bytes.begin() + source_offset, source_bytes.begin() + source_offset + length,
              expected.begin() + target_offset);
    EXPECT_EQ(ReadBytes(*target), expected);
  }
};

TEST_P(CommandBufferCopyTest, CopyWholeBuffer) { RunCopy(1024, 0, 0, 1024); }

TEST_P(CommandBufferCopyTest, CopySubBuffer) { RunCopy(1024, 16, 512, 256); }

TEST_P(CommandBufferCopyTest, CopySizeAndAlignmentClasses) {
  const std::tuple<uint64_t, uint64_t, uint64_t> cases[] = {
      {0, 0, 1},    {1, 0, 1},      {0, 1, 1},       {3, 5, 7},      {1, 3, 15},
      {4, 8, 16},   {63, 1, 129},   {0, 0, 4096},    {7, 4099, 4093}, {0, 0, 1 << 20},
      {5, 17, (1 << 20) - 32},
  };
  for (const auto& [source_offset, target_offset, length] : cases) {
    RunCopy((1 << 20) + 64, source_offset, target_offset, length);
    if (HasFatalFailure()) return;
  }
}

TEST_P(CommandBufferCopyTest, CopyOutOfRangeIsRejected) {
  Ref<hal::Buffer> source = AllocateBuffer(64);
  Ref<hal::Buffer> target = AllocateBuffer(32);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(source && target && command_buffer);
  if (indirect()) {
    ASSERT_TRUE(IsOk(command_buffer->Copy(hal::BufferRef{nullptr, 0, 0, 64}, hal::BufferRef{nullptr, 1, 0, 64}, 64)));
    ASSERT_TRUE(IsOk(command_buffer->Finalize()));
    std::vector<hal::BufferBinding> table = {{source, 0, hal::kWholeBuffer}, {target, 0, hal::kWholeBuffer}};
    EXPECT_TRUE(IsError(SubmitAndWait(command_buffer, table), StatusCode::kOutOfRange));
  } else {
    EXPECT_TRUE(IsError(command_buffer->Copy(hal::BufferRef{source, 0, 0, 64},
                                             hal::BufferRef{target, 0, 0, 64}, 64),
                        StatusCode::kOutOfRange));
    EXPECT_TRUE(IsError(command_buffer->Copy(hal::BufferRef{source, 0, 40, 32},
                                             hal::BufferRef{target, 0, 0, 32}, 32),
                        StatusCode::kOutOfRange));
  }
  EXPECT_EQ(ReadBytes(*target), std::vector<uint8_t>(32, 0));
}

INSTANTIATE_TEST_SUITE_P(Cts, CommandBufferCopyTest, ::testing::ValuesIn(BackendAndModeParams()),
                         BackendModeName);

// ---------------------------------------------------------------------------------------------
// CommandBufferUpdateTest

class CommandBufferUpdateTest : public CtsTest {
 protected:
  // Records Update(source + source_offset, length) into target[target_offset..] of a zeroed buffer.
  void RunUpdate(uint64_t size, uint64_t source_offset, uint64_t target_offset, uint64_t length) {
    std::vector<uint8_t> source(source_offset + length);
    std::iota(source.begin(), source.end(), uint8_t{1});
    Ref<hal::Buffer> target = AllocateFilled(size, 0);
    Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
    ASSERT_TRUE(target && command_buffer);
    Bindings bindings(mode());
    ASSERT_TRUE(IsOk(command_buffer->Update(source.data() + source_offset, length,
                                            bindings.Bind(target, target_offset, length))));
    ASSERT_TRUE(IsOk(command_buffer->Finalize()));
    ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
    std::vector<uint8_t> expected(size, 0);
    std::copy(source.begin() + source_offset, source.end(), expected.begin() + target_offset);
    EXPECT_EQ(ReadBytes(*target), expected);
  }
};

TEST_P(CommandBufferUpdateTest, WholeBuffer) { RunUpdate(16, 0, 0, 16); }
TEST_P(CommandBufferUpdateTest, LargerPayload) { RunUpdate(256, 0, 0, 256); }
TEST_P(CommandBufferUpdateTest, WithOffsets) { RunUpdate(16, 4, 4, 8); }
TEST_P(CommandBufferUpdateTest, LargerThan64KiB) { RunUpdate(200 * 1024, 3, 5, 150 * 1024 + 1); }

TEST_P(CommandBufferUpdateTest, Subspan) {
  Ref<hal::Buffer> root = AllocateFilled(64, 0);
  ASSERT_TRUE(root);
  base::StatusOr<Ref<hal::Buffer>> subspan = hal::Buffer::Subspan(root, 16, 32);
  ASSERT_TRUE(IsOk(subspan));
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(command_buffer);
  const uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(command_buffer->Update(data, 8, bindings.Bind(*subspan, 4, 8))));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  std::vector<uint8_t> expected(64, 0);
  std::copy(data, data + 8, expected.begin() + 20);
  EXPECT_EQ(ReadBytes(*root), expected);
}

TEST_P(CommandBufferUpdateTest, SourceIsCapturedWhenRecorded) {
  Ref<hal::Buffer> target = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer(CommandBufferMode::kDefault);
  ASSERT_TRUE(target && command_buffer);
  std::vector<uint32_t> source = {1, 2, 3, 4};
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(command_buffer->Update(source.data(), 16, bindings.Bind(target))));
  source.assign(4, 0xDEADu);  // the caller may reuse its memory as soon as Update returns
  source.clear();
  source.shrink_to_fit();
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  EXPECT_EQ(ReadAs<uint32_t>(*target), (std::vector<uint32_t>{1, 2, 3, 4}));
  // A reusable command buffer replays the captured bytes every time.
  ASSERT_TRUE(IsOk(target->Fill(0, 16, 0, 1)));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  EXPECT_EQ(ReadAs<uint32_t>(*target), (std::vector<uint32_t>{1, 2, 3, 4}));
}

INSTANTIATE_TEST_SUITE_P(Cts, CommandBufferUpdateTest, ::testing::ValuesIn(BackendAndModeParams()),
                         BackendModeName);

}  // namespace
}  // namespace iree_rt::cts
