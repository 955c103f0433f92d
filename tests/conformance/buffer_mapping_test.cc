// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// BufferMappingTest: host access to DEVICE_LOCAL|HOST_VISIBLE buffers (IREE buffer/mapping_test).
#include <numeric>

#include "cts_test.h"
#include "hal/allocator.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::StatusCode;
namespace MemoryAccess = hal::MemoryAccess;

constexpr uint64_t kSize = 128;

class BufferMappingTest : public CtsTest {
 protected:
  static hal::BufferParams MappableParams() {
    hal::BufferParams params;
    params.type = hal::MemoryType::kDeviceLocal | hal::MemoryType::kHostVisible;
    params.usage = hal::BufferUsage::kTransfer | hal::BufferUsage::kMappingScoped;
    return params;
  }
  Ref<hal::Buffer> Mappable(uint64_t size = kSize) { return AllocateBuffer(size, MappableParams()); }
  // A buffer whose byte i is i (mod 256).
  Ref<hal::Buffer> Ramp(uint64_t size = kSize) {
    Ref<hal::Buffer> buffer = Mappable(size);
    if (!buffer) return nullptr;
    std::vector<uint8_t> bytes(size);
    std::iota(bytes.begin(), bytes.end(), uint8_t{0});
    EXPECT_TRUE(IsOk(buffer->Write(0, bytes.data(), size)));
    return buffer;
  }
  static std::vector<uint8_t> RampBytes(uint64_t first, uint64_t count) {
    std::vector<uint8_t> bytes(count);
    for (uint64_t i = 0; i < count; ++i) bytes[i] = static_cast<uint8_t>(first + i);
    return bytes;
  }
};

TEST_P(BufferMappingTest, AllocatorSupportsBufferMapping) {
  Ref<hal::Buffer> buffer = Mappable();
  ASSERT_TRUE(buffer);
  EXPECT_TRUE(buffer->memory_type() & hal::MemoryType::kHostVisible);
  EXPECT_TRUE(buffer->allowed_usage() & hal::BufferUsage::kMappingScoped);
  EXPECT_EQ(buffer->byte_length(), kSize);
}

TEST_P(BufferMappingTest, ZeroWholeBuffer) {
  Ref<hal::Buffer> buffer = Ramp();
  ASSERT_TRUE(buffer);
  ASSERT_TRUE(IsOk(buffer->Fill(0, hal::kWholeBuffer, 0, 1)));
  EXPECT_EQ(ReadBytes(*buffer), std::vector<uint8_t>(kSize, 0));
}

TEST_P(BufferMappingTest, ZeroWithOffset) {
  Ref<hal::Buffer> buffer = Ramp();
  ASSERT_TRUE(buffer);
  ASSERT_TRUE(IsOk(buffer->Fill(4, 8, 0, 1)));
  std::vector<uint8_t> expected = RampBytes(0, kSize);
  std::fill(expected.begin() + 4, expected.begin() + 12, 0);
  EXPECT_EQ(ReadBytes(*buffer), expected);
}

TEST_P(BufferMappingTest, ZeroSubspan) {
  Ref<hal::Buffer> buffer = Ramp();
  ASSERT_TRUE(buffer);
  base::StatusOr<Ref<hal::Buffer>> subspan = hal::Buffer::Subspan(buffer, 16, 32);
  ASSERT_TRUE(IsOk(subspan));
  ASSERT_TRUE(IsOk((*subspan)->Fill(4, hal::kWholeBuffer, 0, 1)));  // bytes 20..47 of the root
  std::vector<uint8_t> expected = RampBytes(0, kSize);
  std::fill(expected.begin() + 20, expected.begin() + 48, 0);
  EXPECT_EQ(ReadBytes(*buffer), expected);
}

TEST_P(BufferMappingTest, FillEmpty) {
  Ref<hal::Buffer> buffer = Ramp();
  ASSERT_TRUE(buffer);
  ASSERT_TRUE(IsOk(buffer->Fill(8, 0, 0xFF, 1)));
  ASSERT_TRUE(IsOk(buffer->Fill(kSize, 0, 0xFF, 1)));
  EXPECT_EQ(ReadBytes(*buffer), RampBytes(0, kSize));
}

TEST_P(BufferMappingTest, FillWholeBuffer) {
  Ref<hal::Buffer> buffer = Mappable();
  ASSERT_TRUE(buffer);
  ASSERT_TRUE(IsOk(buffer->Fill(0, hal::kWholeBuffer, 0xAABBCCDDu, 4)));
  std::vector<uint32_t> words = ReadAs<uint32_t>(*buffer);
  EXPECT_EQ(words, std::vector<uint32_t>(kSize / 4, 0xAABBCCDDu));
}

TEST_P(BufferMappingTest, FillWithOffset) {
  Ref<hal::Buffer> buffer = Mappable();
  ASSERT_TRUE(buffer);
  ASSERT_TRUE(IsOk(buffer->Fill(6, 10, 0x1234, 2)));
  std::vector<uint8_t> expected(kSize, 0);
  for (int i = 6; i < 16; i += 2) expected[i] = 0x34, expected[i + 1] = 0x12;
  EXPECT_EQ(ReadBytes(*buffer), expected);
}

TEST_P(BufferMappingTest, FillSubspan) {
  Ref<hal::Buffer> buffer = Mappable();
  ASSERT_TRUE(buffer);
  base::StatusOr<Ref<hal::Buffer>> subspan = hal::Buffer::Subspan(buffer, 8, 16);
  ASSERT_TRUE(IsOk(subspan));
  ASSERT_TRUE(IsOk((*subspan)->Fill(0, hal::kWholeBuffer, 0xEE, 1)));
  std::vector<uint8_t> expected(kSize, 0);
  std::fill(expected.begin() + 8, expected.begin() + 24, 0xEE);
  EXPECT_EQ(ReadBytes(*buffer), expected);
  // The subspan's range is its whole world.
  EXPECT_TRUE(IsError((*subspan)->Fill(8, 16, 0xEE, 1), StatusCode::kOutOfRange));
}

TEST_P(BufferMappingTest, ReadData) {
  Ref<hal::Buffer> buffer = Ramp();
  ASSERT_TRUE(buffer);
  EXPECT_EQ(ReadBytes(*buffer, 0, 4), RampBytes(0, 4));
  EXPECT_EQ(ReadBytes(*buffer, 60, 8), RampBytes(60, 8));
  EXPECT_EQ(ReadBytes(*buffer, kSize - 1, 1), RampBytes(kSize - 1, 1));
  uint8_t byte = 0;
  EXPECT_TRUE(IsError(buffer->Read(kSize - 1, &byte, 2), StatusCode::kOutOfRange));
}

TEST_P(BufferMappingTest, ReadDataSubspan) {
  Ref<hal::Buffer> buffer = Ramp();
  ASSERT_TRUE(buffer);
  base::StatusOr<Ref<hal::Buffer>> outer = hal::Buffer::Subspan(buffer, 16, 64);
  ASSERT_TRUE(IsOk(outer));
  base::StatusOr<Ref<hal::Buffer>> inner = hal::Buffer::Subspan(*outer, 8, 16);
  ASSERT_TRUE(IsOk(inner));
  EXPECT_EQ((*inner)->byte_offset(), 24u);
  EXPECT_EQ((*inner)->allocated_buffer(), buffer.get());
  EXPECT_EQ(ReadBytes(**inner), RampBytes(24, 16));
  EXPECT_EQ(ReadBytes(**inner, 4, 4), RampBytes(28, 4));
}

TEST_P(BufferMappingTest, WriteDataWholeBuffer) {
  Ref<hal::Buffer> buffer = Mappable();
  ASSERT_TRUE(buffer);
  const std::vector<uint8_t> data = RampBytes(100, kSize);
  ASSERT_TRUE(IsOk(buffer->Write(0, data.data(), data.size())));
  EXPECT_EQ(ReadBytes(*buffer), data);
}

TEST_P(BufferMappingTest, WriteDataWithOffset) {
  Ref<hal::Buffer> buffer = Mappable();
  ASSERT_TRUE(buffer);
  const std::vector<uint8_t> data = {1, 2, 3, 4, 5};
  ASSERT_TRUE(IsOk(buffer->Write(3, data.data(), data.size())));
  std::vector<uint8_t> expected(kSize, 0);
  std::copy(data.begin(), data.end(), expected.begin() + 3);
  EXPECT_EQ(ReadBytes(*buffer), expected);
  EXPECT_TRUE(IsError(buffer->Write(kSize - 2, data.data(), data.size()), StatusCode::kOutOfRange));
}

TEST_P(BufferMappingTest, WriteDataSubspan) {
  Ref<hal::Buffer> buffer = Mappable();
  ASSERT_TRUE(buffer);
  base::StatusOr<Ref<hal::Buffer>> subspan = hal::Buffer::Subspan(buffer, 32, 32);
  ASSERT_TRUE(IsOk(subspan));
  const std::vector<uint8_t> data = {9, 8, 7, 6};
  ASSERT_TRUE(IsOk((*subspan)->Write(28, data.data(), data.size())));
  std::vector<uint8_t> expected(kSize, 0);
  std::copy(data.begin(), data.end(), expected.begin() + 60);
  EXPECT_EQ(ReadBytes(*buffer), expected);
  EXPECT_TRUE(IsError((*subspan)->Write(29, data.data(), data.size()), StatusCode::kOutOfRange));
}

TEST_P(BufferMappingTest, CopyData) {
  Ref<hal::Buffer> source = Ramp();
  Ref<hal::Buffer> target = Mappable();
  ASSERT_TRUE(source && target);
  ASSERT_TRUE(IsOk(hal::Buffer::Copy(*source, 10, *target, 20, 30)));
  std::vector<uint8_t> expected(kSize, 0);
  const std::vector<uint8_t> copied = RampBytes(10, 30);
  std::copy(copied.begin(), copied.end(), expected.begin() + 20);
  EXPECT_EQ(ReadBytes(*target), expected);
  EXPECT_EQ(ReadBytes(*source), RampBytes(0, kSize)) << "the source must be unchanged";
  EXPECT_TRUE(IsError(hal::Buffer::Copy(*source, 100, *target, 0, 29), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(hal::Buffer::Copy(*source, 0, *target, 100, 29), StatusCode::kOutOfRange));
}

TEST_P(BufferMappingTest, MapRangeRead) {
  Ref<hal::Buffer> buffer = Mappable();
  ASSERT_TRUE(buffer);
  ASSERT_TRUE(IsOk(buffer->Fill(0, hal::kWholeBuffer, 0xEF, 1)));
  base::StatusOr<uint8_t*> mapped = buffer->Map(MemoryAccess::kRead, 16, 16);
  ASSERT_TRUE(IsOk(mapped));
  EXPECT_EQ(std::vector<uint8_t>(*mapped, *mapped + 16), std::vector<uint8_t>(16, 0xEF));
}

TEST_P(BufferMappingTest, MapRangeWrite) {
  Ref<hal::Buffer> buffer = Mappable();
  ASSERT_TRUE(buffer);
  {
    base::StatusOr<uint8_t*> mapped = buffer->Map(MemoryAccess::kWrite | MemoryAccess::kDiscard, 8, 4);
    ASSERT_TRUE(IsOk(mapped));
    std::memcpy(*mapped, "\x11\x22\x33\x44", 4);
  }
  std::vector<uint8_t> expected(kSize, 0);
  expected[8] = 0x11, expected[9] = 0x22, expected[10] = 0x33, expected[11] = 0x44;
  EXPECT_EQ(ReadBytes(*buffer), expected);
}

TEST_P(BufferMappingTest, MapOutOfRangeFails) {
  Ref<hal::Buffer> buffer = Mappable();
  ASSERT_TRUE(buffer);
  EXPECT_TRUE(IsError(buffer->Map(MemoryAccess::kRead, kSize + 1, 0).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(buffer->Map(MemoryAccess::kRead, 8, kSize).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsOk(buffer->Map(MemoryAccess::kRead, kSize, 0)));
}

TEST_P(BufferMappingTest, ReadOnlyBufferRejectsWrites) {
  hal::BufferParams params = MappableParams();
  params.access = MemoryAccess::kRead;
  Ref<hal::Buffer> buffer = AllocateBuffer(kSize, params);
  ASSERT_TRUE(buffer);
  ASSERT_EQ(buffer->allowed_access() & MemoryAccess::kWrite, 0u) << "the buffer grew write access";
  EXPECT_TRUE(IsOk(buffer->Map(MemoryAccess::kRead, 0, kSize)));
  EXPECT_TRUE(IsError(buffer->Map(MemoryAccess::kWrite, 0, kSize).status(),
                      StatusCode::kPermissionDenied));
  const uint8_t byte = 1;
  EXPECT_TRUE(IsError(buffer->Write(0, &byte, 1), StatusCode::kPermissionDenied));
  EXPECT_EQ(ReadBytes(*buffer), std::vector<uint8_t>(kSize, 0));
}

INSTANTIATE_TEST_SUITE_P(Cts, BufferMappingTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
