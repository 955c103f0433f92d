// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// QueueTransferTest: queue fill/update/copy/barrier (IREE queue/queue_transfer_test): pattern
// widths, subranges, large sizes, source capture, chains ordered only by semaphores.
#include <numeric>
#include <tuple>

#include "cts_test.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using hal::SemaphorePoint;

class QueueTransferTest : public CtsTest {
 protected:
  void SetUp() override {
    CtsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    semaphore_ = CreateSemaphore();
    ASSERT_TRUE(semaphore_);
  }

  // The next timepoint of the fixture's semaphore: operations chained through it run in order.
  SemaphorePoint Next() { return {semaphore_.get(), ++value_}; }
  SemaphorePoint Current() const { return {semaphore_.get(), value_}; }

  Status Fill(const Ref<hal::Buffer>& target, uint64_t offset, uint64_t length, uint32_t pattern,
              uint32_t width) {
    SemaphorePoint wait = Current(), signal = Next();
    RT_RETURN_IF_ERROR(device().QueueFill(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, target, offset,
                                          length, pattern, width));
    return WaitFor(*semaphore_, signal.value);
  }
  Status Update(const void* source, uint64_t length, const Ref<hal::Buffer>& target, uint64_t offset) {
    SemaphorePoint wait = Current(), signal = Next();
    RT_RETURN_IF_ERROR(device().QueueUpdate(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, source, length,
                                            target, offset));
    return WaitFor(*semaphore_, signal.value);
  }
  Status Copy(const Ref<hal::Buffer>& source, uint64_t source_offset, const Ref<hal::Buffer>& target,
              uint64_t target_offset, uint64_t length) {
    SemaphorePoint wait = Current(), signal = Next();
    RT_RETURN_IF_ERROR(device().QueueCopy(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, source,
                                          source_offset, target, target_offset, length));
    return WaitFor(*semaphore_, signal.value);
  }

  void RunFill(uint64_t size, uint64_t offset, uint64_t length, uint32_t pattern, uint32_t width) {
    SCOPED_TRACE(::testing::Message() << "offset " << offset << " length " << length << " width " << width);
    Ref<hal::Buffer> buffer = AllocateFilled(size, 0);
    ASSERT_TRUE(buffer);
    ASSERT_TRUE(IsOk(Fill(buffer, offset, length, pattern, width)));
    std::vector<uint8_t> expected(size, 0);
    for (uint64_t i = 0; i < length; ++i) expected[offset + i] = static_cast<uint8_t>(pattern >> (8 * (i % width)));
    EXPECT_EQ(ReadBytes(*buffer), expected);
  }
  void RunUpdate(uint64_t size, uint64_t source_offset, uint64_t target_offset, uint64_t length) {
    SCOPED_TRACE(::testing::Message() << "source offset " << source_offset << " target offset " << target_offset
                                      << " length " << length);
    std::vector<uint8_t> source(source_offset + length);
    for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<uint8_t>(i * 13 + 1);
    Ref<hal::Buffer> buffer = AllocateFilled(size, 0);
    ASSERT_TRUE(buffer);
    ASSERT_TRUE(IsOk(Update(source.data() + source_offset, length, buffer, target_offset)));
    std::vector<uint8_t> expected(size, 0);
    std::copy(source.begin() + source_offset, source.end(), expected.begin() + target_offset);
    EXPECT_EQ(ReadBytes(*buffer), expected);
  }
  void RunCopy(uint64_t size, uint64_t source_offset, uint64_t target_offset, uint64_t length) {
    SCOPED_TRACE(::testing::Message() << "source offset " << source_offset << " target offset " << target_offset
                                      << " length " << length);
    std::vector<uint8_t> bytes(size);
    for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(i * 5 + 7);
    Ref<hal::Buffer> source = AllocateWith(bytes);
    Ref<hal::Buffer> target = AllocateFilled(size, 0);
    ASSERT_TRUE(source && target);
    ASSERT_TRUE(IsOk(Copy(source, source_offset, target, target_offset, length)));
    std::vector<uint8_t> expected(size, 0);
    std::copy(bytes.begin() + source_offset, bytes.begin() + source_offset + length, expected.begin() + target_offset);
    EXPECT_EQ(ReadBytes(*target), expected);
  }

  Ref<hal::Semaphore> semaphore_;
  uint64_t value_ = 0;
};

TEST_P(QueueTransferTest, FillEntireBuffer_1Byte) { RunFill(64, 0, 64, 0xAB, 1); }
TEST_P(QueueTransferTest, FillEntireBuffer_2Byte) { RunFill(64, 0, 64, 0xABCD, 2); }
TEST_P(QueueTransferTest, FillEntireBuffer_4Byte) { RunFill(64, 0, 64, 0x12345678u, 4); }
TEST_P(QueueTransferTest, FillSubrange) { RunFill(64, 8, 40, 0xFEEDFACEu, 4); }
TEST_P(QueueTransferTest, FillLargeBuffer) { RunFill(4 << 20, 0, 4 << 20, 0xC001D00Du, 4); }

TEST_P(QueueTransferTest, FillWholeBufferLength) {
  Ref<hal::Buffer> buffer = AllocateFilled(40, 0);
  ASSERT_TRUE(buffer);
  ASSERT_TRUE(IsOk(Fill(buffer, 8, hal::kWholeBuffer, 0x7, 1)));
  std::vector<uint8_t> expected(40, 7);
  std::fill(expected.begin(), expected.begin() + 8, 0);
  EXPECT_EQ(ReadBytes(*buffer), expected);
}

TEST_P(QueueTransferTest, FillSizeAlignmentAndPatternClasses) {
  const std::tuple<uint32_t, uint64_t, uint64_t> cases[] = {
      {1, 0, 1},  {1, 1, 3},   {1, 7, 9},    {1, 3, 4093}, {2, 0, 2},    {2, 2, 2},
      {2, 6, 10}, {2, 2, 4094}, {4, 0, 4},   {4, 4, 8},    {4, 12, 4084}, {4, 0, 4096},
  };
  for (const auto& [width, offset, length] : cases) {
    RunFill(4096 + 16, offset, length, 0xA1B2C3D4u & (width == 4 ? ~0u : (1u << (8 * width)) - 1), width);
    if (HasFatalFailure()) return;
  }
}

TEST_P(QueueTransferTest, InvalidFillsAreRejectedAtCall) {
  Ref<hal::Buffer> buffer = AllocateFilled(64, 0);
  ASSERT_TRUE(buffer);
  SemaphorePoint signal{semaphore_.get(), 1};
  auto fill = [&](uint64_t offset, uint64_t length, uint32_t width) {
    return device().QueueFill(hal::kQueueAffinityAny, {}, {&signal, 1}, buffer, offset, length, 0xFF, width);
  };
  EXPECT_TRUE(IsError(fill(0, 64, 3), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(fill(2, 8, 4), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(fill(0, 6, 4), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(fill(60, 8, 4), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(fill(68, 0, 1), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(device().QueueFill(hal::kQueueAffinityAny, {}, {&signal, 1}, nullptr, 0, 4, 0, 4),
                      StatusCode::kInvalidArgument));
  EXPECT_EQ(ValueOf(*semaphore_), 0u) << "a rejected operation must not signal";
  EXPECT_EQ(ReadBytes(*buffer), std::vector<uint8_t>(64, 0));
}

TEST_P(QueueTransferTest, UpdateEntireBuffer) { RunUpdate(64, 0, 0, 64); }
TEST_P(QueueTransferTest, UpdateSubrange) { RunUpdate(64, 0, 20, 24); }
TEST_P(QueueTransferTest, UpdateWithSourceOffset) { RunUpdate(64, 13, 4, 32); }
TEST_P(QueueTransferTest, UpdateLargerThanCommandBufferLimit) { RunUpdate(300 * 1024, 7, 3, 260 * 1024 + 5); }

TEST_P(QueueTransferTest, UpdateSizeAndAlignmentClasses) {
  const std::tuple<uint64_t, uint64_t, uint64_t> cases[] = {
      {0, 0, 1}, {1, 0, 1}, {0, 1, 3}, {3, 5, 7}, {0, 0, 4096}, {1, 3, 4093}, {0, 4, 65536}, {5, 9, 65537},
  };
  for (const auto& [source_offset, target_offset, length] : cases) {
    RunUpdate(65536 + 32, source_offset, target_offset, length);
    if (HasFatalFailure()) return;
  }
}

TEST_P(QueueTransferTest, UpdateCapturesSourceBeforeWaitResolves) {
  Ref<hal::Semaphore> gate = CreateSemaphore();
  Ref<hal::Buffer> buffer = AllocateFilled(256 * 1024, 0);
  ASSERT_TRUE(gate && buffer);
  std::vector<uint8_t> source(256 * 1024, 0x11);
  SemaphorePoint wait{gate.get(), 1}, signal{semaphore_.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueUpdate(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, source.data(),
                                        source.size(), buffer, 0)));
  // The host reuses its memory before the update may run.
  std::fill(source.begin(), source.end(), 0x99);
  source.clear();
  source.shrink_to_fit();
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore_, 1)));
  EXPECT_EQ(ReadBytes(*buffer), std::vector<uint8_t>(256 * 1024, 0x11));
}

TEST_P(QueueTransferTest, UpdateOutOfRangeIsRejectedAtCall) {
  Ref<hal::Buffer> buffer = AllocateFilled(16, 0);
  ASSERT_TRUE(buffer);
  const uint8_t data[32] = {};
  SemaphorePoint signal{semaphore_.get(), 1};
  EXPECT_TRUE(IsError(device().QueueUpdate(hal::kQueueAffinityAny, {}, {&signal, 1}, data, 32, buffer, 0),
                      StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(device().QueueUpdate(hal::kQueueAffinityAny, {}, {&signal, 1}, data, 8, buffer, 12),
                      StatusCode::kOutOfRange));
  EXPECT_EQ(ValueOf(*semaphore_), 0u);
}

TEST_P(QueueTransferTest, CopyEntireBuffer) { RunCopy(1024, 0, 0, 1024); }
TEST_P(QueueTransferTest, CopyWithOffsets) { RunCopy(1024, 100, 300, 500); }
TEST_P(QueueTransferTest, CopyLargeBuffer) { RunCopy(4 << 20, 0, 0, 4 << 20); }

TEST_P(QueueTransferTest, CopySizeAndAlignmentClasses) {
  const std::tuple<uint64_t, uint64_t, uint64_t> cases[] = {
      {0, 0, 1}, {1, 2, 3}, {3, 1, 64}, {63, 65, 1000}, {0, 0, 4096}, {4095, 1, 4097}, {7, 9, 65535},
  };
  for (const auto& [source_offset, target_offset, length] : cases) {
    RunCopy(65536 + 64, source_offset, target_offset, length);
    if (HasFatalFailure()) return;
  }
}

TEST_P(QueueTransferTest, CopyOutOfRangeIsRejectedAtCall) {
  Ref<hal::Buffer> source = AllocateFilled(16, 1);
  Ref<hal::Buffer> target = AllocateFilled(16, 0);
  ASSERT_TRUE(source && target);
  SemaphorePoint signal{semaphore_.get(), 1};
  EXPECT_TRUE(IsError(device().QueueCopy(hal::kQueueAffinityAny, {}, {&signal, 1}, source, 8, target, 0, 16),
                      StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(device().QueueCopy(hal::kQueueAffinityAny, {}, {&signal, 1}, source, 0, target, 9, 8),
                      StatusCode::kOutOfRange));
  EXPECT_EQ(ValueOf(*semaphore_), 0u);
  EXPECT_EQ(ReadBytes(*target), std::vector<uint8_t>(16, 0));
}

TEST_P(QueueTransferTest, BurstCopySubmit) {
  constexpr int kCopies = 64;
  Ref<hal::Buffer> source = AllocateBuffer(kCopies * 64);
  Ref<hal::Buffer> target = AllocateFilled(kCopies * 64, 0);
  ASSERT_TRUE(source && target);
  std::vector<uint8_t> bytes(kCopies * 64);
  std::iota(bytes.begin(), bytes.end(), uint8_t{0});
  ASSERT_TRUE(IsOk(source->Write(0, bytes.data(), bytes.size())));
  // Independent copies, all in flight before the host waits for any.
  std::vector<Ref<hal::Semaphore>> done(kCopies);
  for (int i = 0; i < kCopies; ++i) {
    done[i] = CreateSemaphore();
    ASSERT_TRUE(done[i]);
    SemaphorePoint signal{done[i].get(), 1};
    ASSERT_TRUE(IsOk(device().QueueCopy(hal::kQueueAffinityAny, {}, {&signal, 1}, source, uint64_t(i) * 64,
                                        target, uint64_t(kCopies - 1 - i) * 64, 64)));
  }
  for (const Ref<hal::Semaphore>& semaphore : done) ASSERT_TRUE(IsOk(WaitFor(*semaphore, 1)));
  for (int i = 0; i < kCopies; ++i) {
    EXPECT_EQ(ReadBytes(*target, uint64_t(kCopies - 1 - i) * 64, 64), ReadBytes(*source, uint64_t(i) * 64, 64));
  }
}

TEST_P(QueueTransferTest, ChainedFillThenCopy) {
  // Submitted back to front: the copy waits on the fill's signal.
  Ref<hal::Buffer> a = AllocateFilled(32, 0), b = AllocateFilled(32, 0);
  ASSERT_TRUE(a && b);
  SemaphorePoint s1{semaphore_.get(), 1}, s2{semaphore_.get(), 2};
  ASSERT_TRUE(IsOk(device().QueueCopy(hal::kQueueAffinityAny, {&s1, 1}, {&s2, 1}, a, 0, b, 0, 32)));
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {}, {&s1, 1}, a, 0, 32, 0xF0, 1)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore_, 2)));
  EXPECT_EQ(ReadBytes(*b), std::vector<uint8_t>(32, 0xF0));
}

TEST_P(QueueTransferTest, ChainedUpdateThenCopy) {
  Ref<hal::Buffer> a = AllocateFilled(8, 0), b = AllocateFilled(16, 0);
  Ref<hal::Semaphore> gate = CreateSemaphore();
  ASSERT_TRUE(a && b && gate);
  SemaphorePoint g1{gate.get(), 1}, s1{semaphore_.get(), 1}, s2{semaphore_.get(), 2};
  const uint8_t data[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  ASSERT_TRUE(IsOk(device().QueueCopy(hal::kQueueAffinityAny, {&s1, 1}, {&s2, 1}, a, 0, b, 8, 8)));
  ASSERT_TRUE(IsOk(device().QueueUpdate(hal::kQueueAffinityAny, {&g1, 1}, {&s1, 1}, data, 8, a, 0)));
  EXPECT_EQ(ValueOf(*semaphore_), 0u);
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore_, 2)));
  std::vector<uint8_t> expected(16, 0);
  std::copy(data, data + 8, expected.begin() + 8);
  EXPECT_EQ(ReadBytes(*b), expected);
}

TEST_P(QueueTransferTest, ChainedFillCopyFill) {
  Ref<hal::Buffer> a = AllocateFilled(16, 0), b = AllocateFilled(16, 0);
  ASSERT_TRUE(a && b);
  SemaphorePoint s1{semaphore_.get(), 1}, s2{semaphore_.get(), 2}, s3{semaphore_.get(), 3};
  // fill a=1 → copy a→b → fill a=2; the second fill must not overtake the copy.
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&s2, 1}, {&s3, 1}, a, 0, 16, 2, 1)));
  ASSERT_TRUE(IsOk(device().QueueCopy(hal::kQueueAffinityAny, {&s1, 1}, {&s2, 1}, a, 0, b, 0, 16)));
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {}, {&s1, 1}, a, 0, 16, 1, 1)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore_, 3)));
  EXPECT_EQ(ReadBytes(*a), std::vector<uint8_t>(16, 2));
  EXPECT_EQ(ReadBytes(*b), std::vector<uint8_t>(16, 1));
}

TEST_P(QueueTransferTest, BarrierSignals) {
  SemaphorePoint signal{semaphore_.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueBarrier(hal::kQueueAffinityAny, {}, {&signal, 1})));
  EXPECT_TRUE(IsOk(WaitFor(*semaphore_, 1)));
}

TEST_P(QueueTransferTest, BarrierPreservesOrdering) {
  Ref<hal::Buffer> a = AllocateFilled(16, 0), b = AllocateFilled(16, 0);
  Ref<hal::Semaphore> gate = CreateSemaphore();
  ASSERT_TRUE(a && b && gate);
  SemaphorePoint g1{gate.get(), 1}, s1{semaphore_.get(), 1}, s2{semaphore_.get(), 2}, s3{semaphore_.get(), 3};
  ASSERT_TRUE(IsOk(device().QueueFill(hal::kQueueAffinityAny, {&g1, 1}, {&s1, 1}, a, 0, 16, 0x2B, 1)));
  ASSERT_TRUE(IsOk(device().QueueBarrier(hal::kQueueAffinityAny, {&s1, 1}, {&s2, 1})));
  ASSERT_TRUE(IsOk(device().QueueCopy(hal::kQueueAffinityAny, {&s2, 1}, {&s3, 1}, a, 0, b, 0, 16)));
  EXPECT_EQ(ValueOf(*semaphore_), 0u);
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore_, 3)));
  EXPECT_EQ(ReadBytes(*b), std::vector<uint8_t>(16, 0x2B));
}

TEST_P(QueueTransferTest, TransfersThroughSubspans) {
  Ref<hal::Buffer> root = AllocateFilled(64, 0);
  ASSERT_TRUE(root);
  base::StatusOr<Ref<hal::Buffer>> left = hal::Buffer::Subspan(root, 0, 32);
  base::StatusOr<Ref<hal::Buffer>> right = hal::Buffer::Subspan(root, 32, 32);
  ASSERT_TRUE(IsOk(left) && IsOk(right));
  ASSERT_TRUE(IsOk(Fill(*left, 8, 8, 0xE1, 1)));
  ASSERT_TRUE(IsOk(Copy(*left, 8, *right, 4, 8)));
  EXPECT_TRUE(IsError(device().QueueFill(hal::kQueueAffinityAny, {}, {}, *right, 28, 8, 0, 1), StatusCode::kOutOfRange));
  std::vector<uint8_t> expected(64, 0);
  std::fill(expected.begin() + 8, expected.begin() + 16, 0xE1);
  std::fill(expected.begin() + 36, expected.begin() + 44, 0xE1);
  EXPECT_EQ(ReadBytes(*root), expected);
}

INSTANTIATE_TEST_SUITE_P(Cts, QueueTransferTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
