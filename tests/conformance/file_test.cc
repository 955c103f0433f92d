// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// FileTest: QueueRead/QueueWrite between buffers and hal::File (IREE file/file_test), over a
// host-memory file (utils::MemoryFile).
#include <atomic>
#include <cstring>
#include <numeric>

#include "cts_test.h"
#include "hal/utils/memory_file.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using hal::SemaphorePoint;

class FileTest : public CtsTest {
 public:
  // For the helpers below that several cases share.
  using CtsTest::AllocateBuffer;
  using CtsTest::AllocateFilled;
  using CtsTest::CreateSemaphore;
  using CtsTest::device;
  using CtsTest::ReadBytes;
  using CtsTest::WaitFor;

  // A file over |storage_|, which holds byte i = i * 3 + 1 (mod 256).
  Ref<hal::File> CreateFile(uint64_t length, bool writable = true) {
    storage_.resize(length);
    for (uint64_t i = 0; i < length; ++i) storage_[i] = static_cast<uint8_t>(i * 3 + 1);
    return base::MakeRef<hal::utils::MemoryFile>(storage_.data(), length, writable,
                                                 [this] { file_released_ = true; });
  }
  std::vector<uint8_t> FileBytes(uint64_t offset, uint64_t length) const {
    return std::vector<uint8_t>(storage_.begin() + offset, storage_.begin() + offset + length);
  }

  Status Read(const Ref<hal::File>& file, uint64_t file_offset, const Ref<hal::Buffer>& buffer,
              uint64_t buffer_offset, uint64_t length) {
    Ref<hal::Semaphore> done = CreateSemaphore();
    if (!done) return base::InternalError("no semaphore");
    SemaphorePoint signal{done.get(), 1};
    RT_RETURN_IF_ERROR(device().QueueRead(hal::kQueueAffinityAny, {}, {&signal, 1}, file, file_offset, buffer,
                                          buffer_offset, length));
    return WaitFor(*done, 1);
  }
  Status Write(const Ref<hal::Buffer>& buffer, uint64_t buffer_offset, const Ref<hal::File>& file,
               uint64_t file_offset, uint64_t length) {
    Ref<hal::Semaphore> done = CreateSemaphore();
    if (!done) return base::InternalError("no semaphore");
    SemaphorePoint signal{done.get(), 1};
    RT_RETURN_IF_ERROR(device().QueueWrite(hal::kQueueAffinityAny, {}, {&signal, 1}, buffer, buffer_offset, file,
                                           file_offset, length));
    return WaitFor(*done, 1);
  }

  std::vector<uint8_t> storage_;
  std::atomic<bool> file_released_{false};
};

// A file whose reads fail from |bad_offset| on, as a disk error would.
class FailingFile final : public hal::File {
 public:
  FailingFile(uint64_t length, uint64_t bad_offset) : length_(length), bad_offset_(bad_offset) {}
  uint64_t length() const override { return length_; }
  bool writable() const override { return false; }
  Status Read(uint64_t offset, void* target, uint64_t length) override {
    if (offset + length > bad_offset_) return base::MakeStatus(StatusCode::kDataLoss, "bad sector");
    std::memset(target, 0x5A, length);
    return Status::Ok();
  }
  Status Write(uint64_t, const void*, uint64_t) override { return base::InternalError("read-only"); }

 private:
  uint64_t length_, bad_offset_;
};

TEST_P(FileTest, ReadEntireFile) {
  Ref<hal::File> file = CreateFile(128, false);
  Ref<hal::Buffer> buffer = AllocateFilled(128, 0);
  ASSERT_TRUE(file && buffer);
  ASSERT_TRUE(IsOk(Read(file, 0, buffer, 0, 128)));
  EXPECT_EQ(ReadBytes(*buffer), FileBytes(0, 128));
}

TEST_P(FileTest, ReadSubrangeWithOffsets) {
  Ref<hal::File> file = CreateFile(512, false);
  Ref<hal::Buffer> buffer = AllocateFilled(256, 0);
  ASSERT_TRUE(file && buffer);
  ASSERT_TRUE(IsOk(Read(file, 97, buffer, 13, 211)));
  std::vector<uint8_t> expected(256, 0);
  const std::vector<uint8_t> read = FileBytes(97, 211);
  std::copy(read.begin(), read.end(), expected.begin() + 13);
  EXPECT_EQ(ReadBytes(*buffer), expected);
}

TEST_P(FileTest, WriteSubrangeWithOffsets) {
  Ref<hal::File> file = CreateFile(512);
  std::vector<uint8_t> bytes(256);
  std::iota(bytes.begin(), bytes.end(), uint8_t{100});
  Ref<hal::Buffer> buffer = AllocateWith(bytes);
  ASSERT_TRUE(file && buffer);
  const std::vector<uint8_t> before = storage_;
  ASSERT_TRUE(IsOk(Write(buffer, 13, file, 97, 211)));
  std::vector<uint8_t> expected = before;
  std::copy(bytes.begin() + 13, bytes.begin() + 13 + 211, expected.begin() + 97);
  EXPECT_EQ(storage_, expected);
}

TEST_P(FileTest, ChainedWriteThenReadWithSemaphores) {
  Ref<hal::File> file = CreateFile(64);
  Ref<hal::Buffer> source = AllocateFilled(64, 0xAB);
  Ref<hal::Buffer> target = AllocateFilled(64, 0);
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(file && source && target && semaphore);
  SemaphorePoint s1{semaphore.get(), 1}, s2{semaphore.get(), 2};
  // The read is submitted first and waits on the write.
  ASSERT_TRUE(IsOk(device().QueueRead(hal::kQueueAffinityAny, {&s1, 1}, {&s2, 1}, file, 16, target, 0, 32)));
  ASSERT_TRUE(IsOk(device().QueueWrite(hal::kQueueAffinityAny, {}, {&s1, 1}, source, 0, file, 16, 32)));
  ASSERT_TRUE(IsOk(WaitFor(*semaphore, 2)));
  std::vector<uint8_t> expected(64, 0);
  std::fill(expected.begin(), expected.begin() + 32, 0xAB);
  EXPECT_EQ(ReadBytes(*target), expected);
}

TEST_P(FileTest, LargeRangeRoundTrip) {
  constexpr uint64_t kSize = (4 << 20) + 123;
  Ref<hal::File> file = CreateFile(kSize);
  Ref<hal::Buffer> buffer = AllocateFilled(kSize, 0);
  ASSERT_TRUE(file && buffer);
  const std::vector<uint8_t> original = storage_;
  ASSERT_TRUE(IsOk(Read(file, 0, buffer, 0, kSize)));
  std::fill(storage_.begin(), storage_.end(), 0);
  ASSERT_TRUE(IsOk(Write(buffer, 0, file, 0, kSize)));
  EXPECT_TRUE(storage_ == original) << "the round trip changed the file";
}

// Device memory the host may not map (a GPU's), |value| in every byte: reads into it take the
// staged path.
Ref<hal::Buffer> DeviceOnly(FileTest& test, uint64_t size, uint8_t value) {
  hal::BufferParams params;
  params.type = hal::MemoryType::kDeviceLocal;
  params.usage = hal::BufferUsage::kTransfer;
  Ref<hal::Buffer> buffer = test.AllocateBuffer(size, params);
  Ref<hal::Semaphore> done = test.CreateSemaphore();
  if (!buffer || !done) return nullptr;
  SemaphorePoint signal{done.get(), 1};
  Status status = test.device().QueueFill(hal::kQueueAffinityAny, {}, {&signal, 1}, buffer, 0, size, value, 1);
  if (status.ok()) status = FileTest::WaitFor(*done, 1);
  return status.ok() ? buffer : nullptr;
}

// |buffer|'s bytes, copied to host-visible memory first when the host cannot map it.
std::vector<uint8_t> BytesOf(FileTest& test, const Ref<hal::Buffer>& buffer) {
  if (buffer->memory_type() & hal::MemoryType::kHostVisible) return test.ReadBytes(*buffer);
  Ref<hal::Buffer> host = test.AllocateFilled(buffer->byte_length(), 0);
  Ref<hal::Semaphore> done = test.CreateSemaphore();
  if (!host || !done) return {};
  SemaphorePoint signal{done.get(), 1};
  Status status = test.device().QueueCopy(hal::kQueueAffinityAny, {}, {&signal, 1}, buffer, 0, host, 0,
                                          buffer->byte_length());
  if (status.ok()) status = FileTest::WaitFor(*done, 1);
  EXPECT_TRUE(status.ok()) << status.ToString();
  return test.ReadBytes(*host);
}

// Each ReadMany case runs into host-visible buffers (split over host threads) and into
// device-only ones (streamed through the staging slots, each slot reused).
Ref<hal::Buffer> Target(FileTest& test, bool device_only, uint64_t size) {
  return device_only ? DeviceOnly(test, size, 0) : test.AllocateFilled(size, 0);
}

void ReadManyLargeReads(FileTest& test, bool device_only) {
  constexpr uint64_t kBig = (40 << 20) + 4097;
  Ref<hal::File> file = test.CreateFile(kBig + 1000, false);
  Ref<hal::Buffer> big = Target(test, device_only, kBig), small = Target(test, device_only, 64),
                   mid = Target(test, device_only, 3 << 20);
  Ref<hal::Semaphore> done = test.CreateSemaphore();
  ASSERT_TRUE(file && big && small && mid && done);
  const hal::FileRead reads[] = {{file, 999, big, 0, kBig}, {file, 5, small, 7, 13}, {file, 17, mid, 0, 3 << 20}};
  SemaphorePoint signal{done.get(), 1};
  ASSERT_TRUE(IsOk(test.device().QueueReadMany(hal::kQueueAffinityAny, {}, {&signal, 1}, reads)));
  ASSERT_TRUE(IsOk(FileTest::WaitFor(*done, 1)));
  EXPECT_TRUE(BytesOf(test, big) == test.FileBytes(999, kBig)) << "the large read differs";
  std::vector<uint8_t> expected(64, 0);
  const std::vector<uint8_t> bytes = test.FileBytes(5, 13);
  std::copy(bytes.begin(), bytes.end(), expected.begin() + 7);
  EXPECT_EQ(BytesOf(test, small), expected);
  EXPECT_TRUE(BytesOf(test, mid) == test.FileBytes(17, 3 << 20)) << "the middle read differs";
}

// A read failing partway (after some slots were filled and copied) fails the signal with its
// status, and the device goes on serving reads.
void ReadManyFailurePartway(FileTest& test, bool device_only) {
  constexpr uint64_t kSize = 30 << 20;
  Ref<hal::File> bad = base::MakeRef<FailingFile>(kSize, 21 << 20);
  Ref<hal::Buffer> buffer = Target(test, device_only, kSize);
  Ref<hal::Semaphore> done = test.CreateSemaphore();
  ASSERT_TRUE(bad && buffer && done);
  const hal::FileRead read{bad, 0, buffer, 0, kSize};
  SemaphorePoint signal{done.get(), 1};
  ASSERT_TRUE(IsOk(test.device().QueueReadMany(hal::kQueueAffinityAny, {}, {&signal, 1}, {&read, 1})));
  const Status status = FileTest::WaitFor(*done, 1);
  EXPECT_TRUE(IsError(status, StatusCode::kDataLoss)) << status.ToString();
  Ref<hal::File> file = test.CreateFile(64, false);
  Ref<hal::Buffer> after = Target(test, device_only, 64);
  Ref<hal::Semaphore> again = test.CreateSemaphore();
  ASSERT_TRUE(file && after && again);
  const hal::FileRead good{file, 0, after, 0, 64};
  SemaphorePoint signal_again{again.get(), 1};
  ASSERT_TRUE(IsOk(test.device().QueueReadMany(hal::kQueueAffinityAny, {}, {&signal_again, 1}, {&good, 1})));
  ASSERT_TRUE(IsOk(FileTest::WaitFor(*again, 1)));
  EXPECT_EQ(BytesOf(test, after), test.FileBytes(0, 64));
}

// A failed wait fails the signal without reading anything.
void ReadManyAfterAFailedWait(FileTest& test, bool device_only) {
  Ref<hal::File> file = test.CreateFile(20 << 20, false);
  Ref<hal::Buffer> buffer = Target(test, device_only, 20 << 20);
  Ref<hal::Semaphore> gate = test.CreateSemaphore(), done = test.CreateSemaphore();
  ASSERT_TRUE(file && buffer && gate && done);
  const hal::FileRead read{file, 0, buffer, 0, 20 << 20};
  SemaphorePoint wait{gate.get(), 1}, signal{done.get(), 1};
  ASSERT_TRUE(IsOk(test.device().QueueReadMany(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, {&read, 1})));
  gate->Fail(base::MakeStatus(StatusCode::kAborted, "upstream failed"));
  EXPECT_TRUE(IsError(FileTest::WaitFor(*done, 1), StatusCode::kAborted));
  EXPECT_TRUE(BytesOf(test, buffer) == std::vector<uint8_t>(20 << 20, 0)) << "nothing may be read";
}

TEST_P(FileTest, ReadManyStreamsLargeReads) { ReadManyLargeReads(*this, false); }
TEST_P(FileTest, ReadManyStreamsLargeReadsIntoDeviceMemory) { ReadManyLargeReads(*this, true); }
TEST_P(FileTest, ReadManyFailurePartwayFailsTheSignal) { ReadManyFailurePartway(*this, false); }
TEST_P(FileTest, ReadManyIntoDeviceMemoryFailurePartwayFailsTheSignal) { ReadManyFailurePartway(*this, true); }
TEST_P(FileTest, ReadManyAfterAFailedWaitFailsTheSignal) { ReadManyAfterAFailedWait(*this, false); }
TEST_P(FileTest, ReadManyIntoDeviceMemoryAfterAFailedWaitFailsTheSignal) { ReadManyAfterAFailedWait(*this, true); }

// A write from device memory the host cannot map goes through staging.
TEST_P(FileTest, WriteFromDeviceMemory) {
  Ref<hal::File> file = CreateFile(256);
  Ref<hal::Buffer> source = DeviceOnly(*this, 128, 0x7C);
  ASSERT_TRUE(file && source);
  std::vector<uint8_t> expected = storage_;
  std::fill(expected.begin() + 100, expected.begin() + 100 + 96, 0x7C);
  ASSERT_TRUE(IsOk(Write(source, 32, file, 100, 96)));
  EXPECT_EQ(storage_, expected);
}

TEST_P(FileTest, ReadOnlyFileRejectsWrites) {
  Ref<hal::File> file = CreateFile(32, false);
  Ref<hal::Buffer> buffer = AllocateFilled(32, 0xEE);
  ASSERT_TRUE(file && buffer);
  EXPECT_TRUE(IsError(Write(buffer, 0, file, 0, 32), StatusCode::kPermissionDenied));
  EXPECT_EQ(storage_, FileBytes(0, 32));
  EXPECT_EQ(storage_[0], 1);
}

TEST_P(FileTest, OutOfRangeTransfersAreRejectedAtCall) {
  Ref<hal::File> file = CreateFile(64);
  Ref<hal::Buffer> buffer = AllocateFilled(64, 0);
  Ref<hal::Semaphore> semaphore = CreateSemaphore();
  ASSERT_TRUE(file && buffer && semaphore);
  SemaphorePoint signal{semaphore.get(), 1};
  EXPECT_TRUE(IsError(device().QueueRead(hal::kQueueAffinityAny, {}, {&signal, 1}, file, 32, buffer, 0, 33),
                      StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(device().QueueRead(hal::kQueueAffinityAny, {}, {&signal, 1}, file, 0, buffer, 40, 32),
                      StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(device().QueueWrite(hal::kQueueAffinityAny, {}, {&signal, 1}, buffer, 40, file, 0, 32),
                      StatusCode::kOutOfRange));
  EXPECT_EQ(ValueOf(*semaphore), 0u);
  EXPECT_EQ(ReadBytes(*buffer), std::vector<uint8_t>(64, 0));
}

TEST_P(FileTest, WritePastTheEndFailsTheSignal) {
  // The file range is only checked by the file itself, when the write runs.
  Ref<hal::File> file = CreateFile(16);
  Ref<hal::Buffer> buffer = AllocateFilled(32, 0xEE);
  ASSERT_TRUE(file && buffer);
  const Status status = Write(buffer, 0, file, 0, 32);
  EXPECT_TRUE(IsError(status, StatusCode::kOutOfRange));
  EXPECT_EQ(storage_, FileBytes(0, 16));
}

TEST_P(FileTest, PendingReadRetainsTheFile) {
  Ref<hal::File> file = CreateFile(32);
  Ref<hal::Buffer> buffer = AllocateFilled(32, 0);
  Ref<hal::Semaphore> gate = CreateSemaphore(), done = CreateSemaphore();
  ASSERT_TRUE(file && buffer && gate && done);
  SemaphorePoint wait{gate.get(), 1}, signal{done.get(), 1};
  ASSERT_TRUE(IsOk(device().QueueRead(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, file, 0, buffer, 0, 32)));
  file = nullptr;
  EXPECT_FALSE(file_released_) << "the pending read must keep the file alive";
  ASSERT_TRUE(IsOk(gate->Signal(1)));
  ASSERT_TRUE(IsOk(WaitFor(*done, 1)));
  EXPECT_EQ(ReadBytes(*buffer), FileBytes(0, 32));
  EXPECT_TRUE(file_released_) << "the completed read must release the file";
}

INSTANTIATE_TEST_SUITE_P(Cts, FileTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
