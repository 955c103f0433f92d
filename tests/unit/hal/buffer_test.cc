// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::Buffer: subspans, range resolution, mapping permissions and host transfers.
#include "hal/buffer.h"

#include <gtest/gtest.h>

#include <numeric>

#include "test_util.h"

namespace iree_rt::hal {
namespace {

using base::Ref;
using base::StatusCode;
using testing::IsError;
using testing::IsOk;
using testing::MakeHostBuffer;

std::vector<uint8_t> ReadAll(Buffer& buffer) {
  std::vector<uint8_t> bytes(buffer.byte_length());
  EXPECT_TRUE(IsOk(buffer.Read(0, bytes.data(), bytes.size())));
  return bytes;
}

TEST(BufferTest, SubspanRanges) {
  Ref<Buffer> root = MakeHostBuffer(64);
  ASSERT_TRUE(root);
  base::StatusOr<Ref<Buffer>> a = Buffer::Subspan(root, 16, 32);
  ASSERT_TRUE(IsOk(a));
  EXPECT_EQ((*a)->byte_offset(), 16u);
  EXPECT_EQ((*a)->byte_length(), 32u);
  EXPECT_EQ((*a)->allocated_buffer(), root.get());
  EXPECT_EQ((*a)->memory_type(), root->memory_type());
  EXPECT_EQ((*a)->allowed_usage(), root->allowed_usage());
  // Nested subspans accumulate offsets and still point at the root.
  base::StatusOr<Ref<Buffer>> b = Buffer::Subspan(*a, 8, kWholeBuffer);
  ASSERT_TRUE(IsOk(b));
  EXPECT_EQ((*b)->byte_offset(), 24u);
  EXPECT_EQ((*b)->byte_length(), 24u);
  EXPECT_EQ((*b)->allocated_buffer(), root.get());
  // Edges.
  base::StatusOr<Ref<Buffer>> empty_at_end = Buffer::Subspan(root, 64, 0);
  ASSERT_TRUE(IsOk(empty_at_end));
  EXPECT_EQ((*empty_at_end)->byte_length(), 0u);
  base::StatusOr<Ref<Buffer>> whole = Buffer::Subspan(root, 0, kWholeBuffer);
  ASSERT_TRUE(IsOk(whole));
  EXPECT_EQ((*whole)->byte_length(), 64u);
  EXPECT_TRUE(IsError(Buffer::Subspan(root, 65, 0).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Buffer::Subspan(root, 60, 8).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Buffer::Subspan(*a, 0, 33).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Buffer::Subspan(*a, 8, UINT64_MAX - 4).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Buffer::Subspan(nullptr, 0, 0).status(), StatusCode::kInvalidArgument));
}

TEST(BufferTest, SubspanRetainsTheRoot) {
  Ref<Buffer> root = MakeHostBuffer(64);
  ASSERT_TRUE(root);
  Buffer* raw = root.get();
  base::StatusOr<Ref<Buffer>> view = Buffer::Subspan(root, 8, 8);
  ASSERT_TRUE(IsOk(view));
  EXPECT_EQ(raw->ref_count_for_testing(), 2);
  root = nullptr;
  EXPECT_EQ(raw->ref_count_for_testing(), 1);
  const uint8_t byte = 9;
  EXPECT_TRUE(IsOk((*view)->Write(7, &byte, 1)));  // the root is still alive
}

TEST(BufferTest, ResolveRange) {
  Ref<Buffer> buffer = MakeHostBuffer(100);
  ASSERT_TRUE(buffer);
  auto resolve = [&](uint64_t offset, uint64_t length) { return buffer->ResolveRange(offset, length); };
  EXPECT_EQ(resolve(0, kWholeBuffer).value(), 100u);
  EXPECT_EQ(resolve(40, kWholeBuffer).value(), 60u);
  EXPECT_EQ(resolve(100, kWholeBuffer).value(), 0u);
  EXPECT_EQ(resolve(100, 0).value(), 0u);
  EXPECT_EQ(resolve(10, 90).value(), 90u);
  EXPECT_TRUE(IsError(resolve(101, 0).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(resolve(101, kWholeBuffer).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(resolve(10, 91).status(), StatusCode::kOutOfRange));
  // offset + length would wrap around 2^64: must not pass.
  EXPECT_TRUE(IsError(resolve(8, UINT64_MAX - 4).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(resolve(UINT64_MAX, 1).status(), StatusCode::kOutOfRange));
}

TEST(BufferTest, MapRequiresHostVisibleMemory) {
  Ref<Buffer> buffer = MakeHostBuffer(16, MemoryType::kDeviceLocal);
  ASSERT_TRUE(buffer);
  EXPECT_TRUE(IsError(buffer->Map(MemoryAccess::kRead, 0, 16).status(), StatusCode::kFailedPrecondition,
                      "HOST_VISIBLE"));
  uint8_t byte;
  EXPECT_TRUE(IsError(buffer->Read(0, &byte, 1), StatusCode::kFailedPrecondition));
}

TEST(BufferTest, MapRequiresMappingUsage) {
  Ref<Buffer> buffer = MakeHostBuffer(16, MemoryType::kHostLocal, BufferUsage::kTransfer);
  ASSERT_TRUE(buffer);
  EXPECT_TRUE(IsError(buffer->Map(MemoryAccess::kRead, 0, 16).status(), StatusCode::kFailedPrecondition,
                      "mapping"));
  Ref<Buffer> persistent = MakeHostBuffer(16, MemoryType::kHostLocal, BufferUsage::kMappingPersistent);
  ASSERT_TRUE(persistent);
  EXPECT_TRUE(IsOk(persistent->Map(MemoryAccess::kRead, 0, 16)));
}

TEST(BufferTest, MapChecksAccess) {
  Ref<Buffer> read_only = MakeHostBuffer(16, MemoryType::kHostLocal, BufferUsage::kMappingScoped, MemoryAccess::kRead);
  ASSERT_TRUE(read_only);
  EXPECT_TRUE(IsOk(read_only->Map(MemoryAccess::kRead, 0, 16)));
  EXPECT_TRUE(IsError(read_only->Map(MemoryAccess::kWrite, 0, 16).status(), StatusCode::kPermissionDenied));
  EXPECT_TRUE(IsError(read_only->Map(MemoryAccess::kRead | MemoryAccess::kDiscard, 0, 16).status(),
                      StatusCode::kPermissionDenied));
  const uint8_t byte = 1;
  EXPECT_TRUE(IsError(read_only->Write(0, &byte, 1), StatusCode::kPermissionDenied));
  EXPECT_TRUE(IsError(read_only->Fill(0, 4, 0, 4), StatusCode::kPermissionDenied));
  Ref<Buffer> write_only = MakeHostBuffer(16, MemoryType::kHostLocal, BufferUsage::kMappingScoped, MemoryAccess::kWrite);
  ASSERT_TRUE(write_only);
  uint8_t out;
  EXPECT_TRUE(IsError(write_only->Read(0, &out, 1), StatusCode::kPermissionDenied));
  EXPECT_TRUE(IsOk(write_only->Write(0, &byte, 1)));
}

TEST(BufferTest, MapOfASubspanPointsIntoTheRoot) {
  Ref<Buffer> root = MakeHostBuffer(64);
  ASSERT_TRUE(root);
  base::StatusOr<Ref<Buffer>> view = Buffer::Subspan(root, 16, 32);
  ASSERT_TRUE(IsOk(view));
  base::StatusOr<uint8_t*> root_ptr = root->Map(MemoryAccess::kRead, 0, 64);
  base::StatusOr<uint8_t*> view_ptr = (*view)->Map(MemoryAccess::kRead, 4, 8);
  ASSERT_TRUE(IsOk(root_ptr) && IsOk(view_ptr));
  EXPECT_EQ(*view_ptr, *root_ptr + 20);
  EXPECT_TRUE(IsError((*view)->Map(MemoryAccess::kRead, 28, 8).status(), StatusCode::kOutOfRange));
}

TEST(BufferTest, FillPatternValidation) {
  EXPECT_TRUE(IsOk(Buffer::ValidateFillPattern(0, 4, 1)));
  EXPECT_TRUE(IsOk(Buffer::ValidateFillPattern(1, 3, 1)));
  EXPECT_TRUE(IsOk(Buffer::ValidateFillPattern(2, 6, 2)));
  EXPECT_TRUE(IsOk(Buffer::ValidateFillPattern(4, 8, 4)));
  EXPECT_TRUE(IsOk(Buffer::ValidateFillPattern(4, kWholeBuffer, 4)));
  EXPECT_TRUE(IsOk(Buffer::ValidateFillPattern(0, 0, 4)));
  for (uint32_t bad_width : {0u, 3u, 5u, 8u}) {
    EXPECT_TRUE(IsError(Buffer::ValidateFillPattern(0, 8, bad_width), StatusCode::kInvalidArgument)) << bad_width;
  }
  EXPECT_TRUE(IsError(Buffer::ValidateFillPattern(2, 8, 4), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Buffer::ValidateFillPattern(0, 6, 4), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Buffer::ValidateFillPattern(1, 4, 2), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Buffer::ValidateFillPattern(0, 3, 2), StatusCode::kInvalidArgument));
}

TEST(BufferTest, FillWritesThePatternLittleEndian) {
  Ref<Buffer> buffer = MakeHostBuffer(12);
  ASSERT_TRUE(buffer);
  ASSERT_TRUE(IsOk(buffer->Fill(2, 4, 0xAABB, 2)));
  ASSERT_TRUE(IsOk(buffer->Fill(8, kWholeBuffer, 0x11223344u, 4)));
  EXPECT_EQ(ReadAll(*buffer), (std::vector<uint8_t>{0, 0, 0xBB, 0xAA, 0xBB, 0xAA, 0, 0, 0x44, 0x33, 0x22, 0x11}));
  ASSERT_TRUE(IsOk(buffer->Fill(0, 0, 0xFF, 1)));  // empty
  EXPECT_EQ(ReadAll(*buffer)[0], 0);
}

TEST(BufferTest, WholeBufferFillMustCoverWholePatterns) {
  // A 6-byte view filled with a 4-byte pattern "to the end" would write past the view.
  Ref<Buffer> root = MakeHostBuffer(8);
  ASSERT_TRUE(root);
  base::StatusOr<Ref<Buffer>> view = Buffer::Subspan(root, 0, 6);
  ASSERT_TRUE(IsOk(view));
  EXPECT_TRUE(IsError((*view)->Fill(0, kWholeBuffer, 0xFFFFFFFFu, 4), StatusCode::kInvalidArgument));
  EXPECT_EQ(ReadAll(*root), std::vector<uint8_t>(8, 0)) << "bytes outside the view were written";
}

TEST(BufferTest, ReadWriteAndCopy) {
  Ref<Buffer> a = MakeHostBuffer(32);
  Ref<Buffer> b = MakeHostBuffer(32);
  ASSERT_TRUE(a && b);
  std::vector<uint8_t> ramp(32);
  std::iota(ramp.begin(), ramp.end(), uint8_t{1});
  ASSERT_TRUE(IsOk(a->Write(0, ramp.data(), 32)));
  ASSERT_TRUE(IsOk(Buffer::Copy(*a, 4, *b, 8, 16)));
  std::vector<uint8_t> expected(32, 0);
  std::copy(ramp.begin() + 4, ramp.begin() + 20, expected.begin() + 8);
  EXPECT_EQ(ReadAll(*b), expected);
  // Overlapping copies within one buffer behave like memmove.
  ASSERT_TRUE(IsOk(Buffer::Copy(*a, 0, *a, 2, 8)));
  std::vector<uint8_t> moved = ramp;
  std::copy(ramp.begin(), ramp.begin() + 8, moved.begin() + 2);
  EXPECT_EQ(ReadAll(*a), moved);
  // Zero-length transfers need no pointer; non-zero ones do.
  EXPECT_TRUE(IsOk(a->Read(0, nullptr, 0)));
  EXPECT_TRUE(IsOk(a->Write(32, nullptr, 0)));
  EXPECT_TRUE(IsError(a->Read(0, nullptr, 1), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(a->Write(0, nullptr, 1), StatusCode::kInvalidArgument));
  uint8_t byte;
  EXPECT_TRUE(IsError(a->Read(32, &byte, 1), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Buffer::Copy(*a, 20, *b, 0, 13), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsOk(Buffer::Copy(*a, 32, *b, 32, 0))) << "an empty copy at the end is fine";
  EXPECT_TRUE(IsError(Buffer::Copy(*a, 40, *b, 0, 0), StatusCode::kOutOfRange))
      << "even an empty copy must start inside the buffer";
  EXPECT_TRUE(IsError(a->Read(0, &byte, kWholeBuffer), StatusCode::kInvalidArgument))
      << "host transfers need an exact length";
}

TEST(BufferTest, BitNames) {
  EXPECT_EQ(MemoryTypeToString(MemoryType::kNone), "NONE");
  EXPECT_EQ(MemoryTypeToString(MemoryType::kHostLocal), "HOST_LOCAL");
  EXPECT_EQ(MemoryTypeToString(MemoryType::kDeviceLocal | MemoryType::kHostVisible), "DEVICE_LOCAL|HOST_VISIBLE");
  EXPECT_EQ(MemoryTypeToString(0x1000), "0x1000");
  EXPECT_EQ(BufferUsageToString(BufferUsage::kTransfer), "TRANSFER_SOURCE|TRANSFER_TARGET");
  EXPECT_EQ(BufferUsageToString(BufferUsage::kDispatchStorage), "DISPATCH_STORAGE_READ|DISPATCH_STORAGE_WRITE");
  EXPECT_EQ(BufferUsageToString(BufferUsage::kNone), "NONE");
}

}  // namespace
}  // namespace iree_rt::hal
