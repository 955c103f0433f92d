// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "object_model_test_util.h"
#include "vm/list.h"

namespace iree_rt::vm {
namespace {

using base::StatusCode;
using testing::IsError;

base::Ref<Buffer> MakeBuffer(uint64_t length, uint32_t alignment = 0) {
  auto buffer = Buffer::Allocate(length, alignment);
  EXPECT_TRUE(buffer.ok()) << buffer.status().ToString();
  return buffer.ok() ? *buffer : base::Ref<Buffer>();
}

// A buffer holding 00 01 02 ... (n-1).
base::Ref<Buffer> MakeSequence(uint64_t length) {
  base::Ref<Buffer> buffer = MakeBuffer(length);
  auto bytes = buffer->WriteRange(0, length);
  EXPECT_TRUE(bytes.ok());
  for (uint64_t i = 0; i < length; ++i) (*bytes)[i] = static_cast<uint8_t>(i);
  return buffer;
}

class KeepAlive : public base::RefObject {};

TEST(BufferTest, AllocateIsZeroFilledMutableAndAligned) {
  for (uint32_t alignment : {0u, 1u, 8u, 16u, 64u, 4096u}) {
    base::Ref<Buffer> buffer = MakeBuffer(100, alignment);
    ASSERT_TRUE(buffer);
    EXPECT_EQ(buffer->length(), 100u);
    EXPECT_TRUE(buffer->is_mutable());
    EXPECT_EQ(buffer->access(), Buffer::kMutable | Buffer::kOriginGuest);
    const uint32_t expected_alignment = alignment == 0 ? 16 : alignment;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer->bytes().data()) % expected_alignment, 0u)
        << alignment;
    for (uint8_t byte : buffer->bytes()) ASSERT_EQ(byte, 0);
  }
}

TEST(BufferTest, AllocateHonoursAccessArgument) {
  auto buffer = Buffer::Allocate(4, 0, Buffer::kMutable | Buffer::kOriginHost);
  ASSERT_TRUE(buffer.ok());
  EXPECT_EQ((*buffer)->access(), Buffer::kMutable | Buffer::kOriginHost);
}

TEST(BufferTest, AllocateRejectsBadAlignmentAndHugeLengths) {
  EXPECT_TRUE(IsError(Buffer::Allocate(16, 3), StatusCode::kInvalidArgument, "alignment 3"));
  EXPECT_TRUE(IsError(Buffer::Allocate(16, 1u << 31), StatusCode::kInvalidArgument, "alignment"));
  EXPECT_TRUE(IsError(Buffer::Allocate(uint64_t{1} << 40, 0), StatusCode::kResourceExhausted,
                      "buffer length 1099511627776"));
  EXPECT_TRUE(IsError(Buffer::Allocate(std::numeric_limits<uint64_t>::max(), 64),
                      StatusCode::kResourceExhausted));
}

TEST(BufferTest, EmptyBufferSupportsEmptyRanges) {
  base::Ref<Buffer> buffer = MakeBuffer(0);
  EXPECT_EQ(buffer->length(), 0u);
  EXPECT_TRUE(buffer->ReadRange(0, 0).ok());
  EXPECT_TRUE(buffer->WriteRange(0, 0).ok());
  EXPECT_TRUE(IsError(buffer->ReadRange(0, 1), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(buffer->Load<int8_t>(0), StatusCode::kOutOfRange));
  EXPECT_TRUE(buffer->Fill<int32_t>(0, 0, 7).ok());
  auto clone = Buffer::Clone(*buffer, 0, 0, 0);
  ASSERT_TRUE(clone.ok());
  EXPECT_EQ((*clone)->length(), 0u);
}

TEST(BufferTest, RangesAreBoundsCheckedWithoutOverflow) {
  base::Ref<Buffer> buffer = MakeBuffer(16);
  auto whole = buffer->ReadRange(0, 16);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->size(), 16u);
  auto tail = buffer->ReadRange(16, 0);
  ASSERT_TRUE(tail.ok());
  EXPECT_TRUE(tail->empty());
  auto middle = buffer->WriteRange(4, 8);
  ASSERT_TRUE(middle.ok());
  EXPECT_EQ(middle->data(), buffer->bytes().data() + 4);
  EXPECT_TRUE(IsError(buffer->ReadRange(8, 9), StatusCode::kOutOfRange,
                      "out-of-bounds access detected (offset=8, length=9, buffer length=16)"));
  EXPECT_TRUE(IsError(buffer->ReadRange(17, 0), StatusCode::kOutOfRange));
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  EXPECT_TRUE(IsError(buffer->ReadRange(max, 2), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(buffer->ReadRange(2, max), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(buffer->WriteRange(max - 1, 2), StatusCode::kOutOfRange));
}

TEST(BufferTest, WrapReadOnlyAliasesKeepsAliveAndRefusesWrites) {
  std::vector<uint8_t> storage = {1, 2, 3, 4, 5, 6, 7, 8};
  base::Ref<KeepAlive> owner = base::MakeRef<KeepAlive>();
  {
    // Asking for kMutable does not make an aliasing buffer writable.
    base::Ref<Buffer> buffer =
        Buffer::WrapReadOnly(storage, owner, Buffer::kOriginModule | Buffer::kMutable);
    EXPECT_EQ(owner->ref_count_for_testing(), 2);
    EXPECT_FALSE(buffer->is_mutable());
    EXPECT_EQ(buffer->access(), Buffer::kOriginModule);
    EXPECT_EQ(buffer->bytes().data(), storage.data());
    auto value = buffer->Load<uint16_t>(1);
    ASSERT_TRUE(value.ok());
    EXPECT_EQ(*value, 0x0403);
    EXPECT_TRUE(IsError(buffer->WriteRange(0, 1), StatusCode::kPermissionDenied,
                        "buffer is read-only and cannot be mapped for mutation"));
    EXPECT_TRUE(IsError(buffer->Store<int8_t>(0, 9), StatusCode::kPermissionDenied));
    EXPECT_TRUE(IsError(buffer->Fill<int8_t>(0, 1, 9), StatusCode::kPermissionDenied));
    base::Ref<Buffer> source = MakeBuffer(8);
    EXPECT_TRUE(IsError(Buffer::Copy(*source, 0, *buffer, 0, 1), StatusCode::kPermissionDenied));
    EXPECT_EQ(storage[0], 1);
  }
  EXPECT_EQ(owner->ref_count_for_testing(), 1);
}

TEST(BufferTest, WrapReadOnlyOfEmptySpan) {
  base::Ref<Buffer> buffer = Buffer::WrapReadOnly({}, nullptr);
  EXPECT_EQ(buffer->length(), 0u);
  auto hash = buffer->Hash(0, 0);
  ASSERT_TRUE(hash.ok());
  EXPECT_EQ(static_cast<uint64_t>(*hash), 0x726fdb47dd0e0e31ull);
  auto equal = Buffer::Compare(*buffer, 0, *buffer, 0, 0);
  ASSERT_TRUE(equal.ok());
  EXPECT_TRUE(*equal);
}

TEST(BufferTest, StoreAndLoadEveryElementType) {
  base::Ref<Buffer> buffer = MakeBuffer(64);
  ASSERT_TRUE(buffer->Store<int8_t>(0, -2).ok());
  ASSERT_TRUE(buffer->Store<int16_t>(1, -300).ok());
  ASSERT_TRUE(buffer->Store<int32_t>(1, -70000).ok());
  ASSERT_TRUE(buffer->Store<int64_t>(1, -5000000000ll).ok());
  ASSERT_TRUE(buffer->Store<float>(4, 1.5f).ok());
  ASSERT_TRUE(buffer->Store<double>(3, -2.25).ok());
  EXPECT_EQ(buffer->Load<int8_t>(0).value(), -2);
  EXPECT_EQ(buffer->Load<uint8_t>(0).value(), 0xFE);  // the .u load of the same byte
  EXPECT_EQ(buffer->Load<int16_t>(1).value(), -300);
  EXPECT_EQ(buffer->Load<uint16_t>(1).value(), static_cast<uint16_t>(-300));
  EXPECT_EQ(buffer->Load<int32_t>(1).value(), -70000);
  EXPECT_EQ(buffer->Load<int64_t>(1).value(), -5000000000ll);
  EXPECT_EQ(buffer->Load<float>(4).value(), 1.5f);
  EXPECT_EQ(buffer->Load<double>(3).value(), -2.25);
  // Element indices scale by the element size: i32 element 1 is bytes 4..7, little-endian.
  ASSERT_TRUE(buffer->Store<uint32_t>(15, 0x11223344u).ok());
  EXPECT_EQ(buffer->bytes()[60], 0x44);
  EXPECT_EQ(buffer->bytes()[63], 0x11);
  EXPECT_EQ(buffer->Load<uint64_t>(7).value(), 0x1122334400000000ull);
}

TEST(BufferTest, LoadsWorkOnUnalignedAddresses) {
  alignas(8) uint8_t storage[17] = {};
  const uint64_t pattern = 0x0807060504030201ull;
  std::memcpy(storage + 1, &pattern, sizeof(pattern));
  base::Ref<Buffer> buffer = Buffer::WrapReadOnly({storage + 1, 16}, nullptr);
  ASSERT_EQ(reinterpret_cast<uintptr_t>(buffer->bytes().data()) % 2, 1u);
  EXPECT_EQ(buffer->Load<uint64_t>(0).value(), pattern);
  EXPECT_EQ(buffer->Load<int32_t>(1).value(), 0x08070605);
  EXPECT_EQ(buffer->Load<int16_t>(0).value(), 0x0201);
  EXPECT_EQ(buffer->Load<double>(1).value(), 0.0);
}

TEST(BufferTest, ElementAccessIsBoundsChecked) {
  base::Ref<Buffer> buffer = MakeBuffer(10);
  EXPECT_TRUE(buffer->Load<int32_t>(1).ok());  // bytes 4..7
  EXPECT_TRUE(IsError(buffer->Load<int32_t>(2), StatusCode::kOutOfRange, "element offset=2"));
  EXPECT_TRUE(IsError(buffer->Store<int64_t>(1, 0), StatusCode::kOutOfRange));
  EXPECT_TRUE(buffer->Store<int16_t>(4, 1).ok());
  EXPECT_TRUE(IsError(buffer->Store<int16_t>(5, 1), StatusCode::kOutOfRange));
  // index * size would wrap around without the overflow-safe check.
  EXPECT_TRUE(IsError(buffer->Load<int64_t>(uint64_t{1} << 61), StatusCode::kOutOfRange));
  EXPECT_TRUE(
      IsError(buffer->Load<int8_t>(std::numeric_limits<uint64_t>::max()), StatusCode::kOutOfRange));
}

TEST(BufferTest, FillWritesElementsInRange) {
  base::Ref<Buffer> buffer = MakeBuffer(32);
  ASSERT_TRUE(buffer->Fill<int8_t>(1, 3, -1).ok());
  EXPECT_EQ(buffer->bytes()[0], 0);
  EXPECT_EQ(buffer->bytes()[1], 0xFF);
  EXPECT_EQ(buffer->bytes()[3], 0xFF);
  EXPECT_EQ(buffer->bytes()[4], 0);
  ASSERT_TRUE(buffer->Fill<int16_t>(4, 2, 0x0102).ok());
  EXPECT_EQ(buffer->Load<int16_t>(4).value(), 0x0102);
  EXPECT_EQ(buffer->Load<int16_t>(5).value(), 0x0102);
  EXPECT_EQ(buffer->Load<int16_t>(6).value(), 0);
  ASSERT_TRUE(buffer->Fill<int32_t>(4, 2, 7).ok());
  EXPECT_EQ(buffer->Load<int32_t>(5).value(), 7);
  ASSERT_TRUE(buffer->Fill<float>(6, 2, 0.5f).ok());
  EXPECT_EQ(buffer->Load<float>(7).value(), 0.5f);
  ASSERT_TRUE(buffer->Fill<int64_t>(0, 4, -9).ok());
  for (uint64_t i = 0; i < 4; ++i) EXPECT_EQ(buffer->Load<int64_t>(i).value(), -9);
  ASSERT_TRUE(buffer->Fill<double>(2, 2, 3.0).ok());
  EXPECT_EQ(buffer->Load<double>(3).value(), 3.0);
  EXPECT_TRUE(IsError(buffer->Fill<int32_t>(6, 3, 0), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(buffer->Fill<int32_t>(9, 0, 0), StatusCode::kOutOfRange));
  EXPECT_TRUE(buffer->Fill<int32_t>(8, 0, 0).ok());
  EXPECT_TRUE(IsError(buffer->Fill<int16_t>(2, std::numeric_limits<uint64_t>::max(), 0),
                      StatusCode::kOutOfRange));
}

TEST(BufferTest, CopyHandlesOverlapBothWays) {
  base::Ref<Buffer> buffer = MakeSequence(8);
  ASSERT_TRUE(Buffer::Copy(*buffer, 0, *buffer, 2, 5).ok());
  EXPECT_EQ(std::vector<uint8_t>(buffer->bytes().begin(), buffer->bytes().end()),
            (std::vector<uint8_t>{0, 1, 0, 1, 2, 3, 4, 7}));
  buffer = MakeSequence(8);
  ASSERT_TRUE(Buffer::Copy(*buffer, 3, *buffer, 1, 5).ok());
  EXPECT_EQ(std::vector<uint8_t>(buffer->bytes().begin(), buffer->bytes().end()),
            (std::vector<uint8_t>{0, 3, 4, 5, 6, 7, 6, 7}));
}

TEST(BufferTest, CopyBetweenBuffersChecksBothRanges) {
  base::Ref<Buffer> source = MakeSequence(8);
  base::Ref<Buffer> target = MakeBuffer(4);
  ASSERT_TRUE(Buffer::Copy(*source, 5, *target, 1, 3).ok());
  EXPECT_EQ(std::vector<uint8_t>(target->bytes().begin(), target->bytes().end()),
            (std::vector<uint8_t>{0, 5, 6, 7}));
  EXPECT_TRUE(IsError(Buffer::Copy(*source, 6, *target, 0, 3), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Buffer::Copy(*source, 0, *target, 2, 3), StatusCode::kOutOfRange));
  EXPECT_TRUE(Buffer::Copy(*source, 8, *target, 4, 0).ok());
}

TEST(BufferTest, CompareByteRanges) {
  base::Ref<Buffer> a = MakeSequence(8);
  base::Ref<Buffer> b = MakeBuffer(8);
  ASSERT_TRUE(Buffer::Copy(*a, 2, *b, 0, 4).ok());
  EXPECT_TRUE(Buffer::Compare(*a, 2, *b, 0, 4).value());
  EXPECT_FALSE(Buffer::Compare(*a, 2, *b, 0, 5).value());
  EXPECT_FALSE(Buffer::Compare(*a, 0, *b, 0, 4).value());
  EXPECT_TRUE(Buffer::Compare(*a, 3, *b, 7, 0).value());
  EXPECT_TRUE(IsError(Buffer::Compare(*a, 0, *b, 5, 4), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Buffer::Compare(*a, 7, *b, 0, 2), StatusCode::kOutOfRange));
}

TEST(BufferTest, CloneCopiesASubrangeIntoANewMutableBuffer) {
  std::vector<uint8_t> storage = {9, 8, 7, 6, 5};
  base::Ref<Buffer> rodata = Buffer::WrapReadOnly(storage, nullptr);
  auto clone = Buffer::Clone(*rodata, 1, 3, 64);
  ASSERT_TRUE(clone.ok());
  base::Ref<Buffer> copy = *clone;
  EXPECT_EQ(copy->length(), 3u);
  EXPECT_TRUE(copy->is_mutable());
  EXPECT_EQ(copy->access(), Buffer::kMutable | Buffer::kOriginGuest);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(copy->bytes().data()) % 64, 0u);
  EXPECT_EQ(std::vector<uint8_t>(copy->bytes().begin(), copy->bytes().end()),
            (std::vector<uint8_t>{8, 7, 6}));
  ASSERT_TRUE(copy->Store<uint8_t>(0, 1).ok());
  EXPECT_EQ(storage[1], 8);  // independent storage
  EXPECT_TRUE(IsError(Buffer::Clone(*rodata, 3, 3, 0), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Buffer::Clone(*rodata, 0, 1, 6), StatusCode::kInvalidArgument));
}

// Reference outputs of SipHash-2-4 for key 00..0F and message 00 01 .. (n-1), from the
// SipHash paper and its reference implementation, as little-endian u64s.
TEST(BufferTest, HashMatchesSipHashReferenceVectors) {
  const std::pair<uint64_t, uint64_t> vectors[] = {
      {0, 0x726fdb47dd0e0e31ull}, {1, 0x74f839c593dc67fdull},  {2, 0x0d6c8009d9a94f5aull},
      {3, 0x85676696d7fb7e2dull}, {4, 0xcf2794e0277187b7ull},  {5, 0x18765564cd99a68dull},
      {6, 0xcbc9466e58fee3ceull}, {7, 0xab0200f58b01d137ull},  {8, 0x93f5f5799a932462ull},
      {9, 0x9e0082df0ba9e4b0ull}, {15, 0xa129ca6149be45e5ull},
  };
  base::Ref<Buffer> buffer = MakeSequence(64);
  for (const auto& [length, expected] : vectors) {
    auto hash = buffer->Hash(0, length);
    ASSERT_TRUE(hash.ok());
    EXPECT_EQ(static_cast<uint64_t>(*hash), expected) << "length " << length;
  }
}

TEST(BufferTest, HashCoversOnlyTheRequestedRange) {
  base::Ref<Buffer> buffer = MakeSequence(32);
  base::Ref<Buffer> shifted = MakeBuffer(40);
  ASSERT_TRUE(Buffer::Copy(*buffer, 0, *shifted, 3, 20).ok());
  EXPECT_EQ(buffer->Hash(0, 20).value(), shifted->Hash(3, 20).value());
  EXPECT_NE(buffer->Hash(0, 20).value(), shifted->Hash(2, 20).value());
  EXPECT_TRUE(IsError(buffer->Hash(30, 3), StatusCode::kOutOfRange));
}

TEST(BufferTest, RefWrapsBufferWithItsType) {
  base::Ref<Buffer> buffer = MakeBuffer(4);
  Ref ref = Ref::Make(buffer);
  EXPECT_EQ(ref.type(), &kBufferType);
  EXPECT_EQ(kBufferType.name, "vm.buffer");
  EXPECT_EQ(ref.Get<Buffer>(), buffer.get());
  EXPECT_EQ(ref.Get<List>(), nullptr);
  EXPECT_EQ(buffer->ref_count_for_testing(), 2);
  ref.Reset();
  EXPECT_EQ(buffer->ref_count_for_testing(), 1);
}

}  // namespace
}  // namespace iree_rt::vm
