// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/buffer.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "base/fault_hook.h"

namespace iree_rt::vm {

using base::Status;
using base::StatusCode;
using base::StatusOr;

const RefType kBufferType{"vm.buffer"};

namespace {

constexpr uint32_t kDefaultAlignment = 16;
// Programs size buffers from runtime values; past this they are almost certainly corrupt, and a
// clean RESOURCE_EXHAUSTED beats an allocator abort or an OOM kill.
constexpr uint64_t kMaxLength = uint64_t{1} << 32;
constexpr uint32_t kMaxAlignment = 1u << 16;

Status OutOfBounds(uint64_t offset, uint64_t length, uint64_t buffer_length) {
  return base::OutOfRangeError("out-of-bounds access detected (offset=", offset,
                               ", length=", length, ", buffer length=", buffer_length, ")");
}

Status ReadOnly() {
  return base::MakeStatus(StatusCode::kPermissionDenied,
                          "buffer is read-only and cannot be mapped for mutation");
}

// Checks [index, index+count) elements of |element_size| bytes against |byte_length| without
// overflow: the element count that fits is floor(byte_length / element_size).
Status CheckElements(uint64_t index, uint64_t count, size_t element_size, uint64_t byte_length) {
  const uint64_t fits = byte_length / element_size;
  if (index > fits || count > fits - index) {
    return base::OutOfRangeError("out-of-bounds access detected (element offset=", index,
                                 ", element count=", count, ", element size=", element_size,
                                 ", buffer length=", byte_length, ")");
  }
  return Status();
}

uint64_t LoadLittleEndian64(const uint8_t* p) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | p[i];
  return value;
}

struct SipState {
  uint64_t v0, v1, v2, v3;
  void Round() {
    v0 += v1;
    v1 = std::rotl(v1, 13);
    v1 ^= v0;
    v0 = std::rotl(v0, 32);
    v2 += v3;
    v3 = std::rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = std::rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = std::rotl(v1, 17);
    v1 ^= v2;
    v2 = std::rotl(v2, 32);
  }
  void Compress(uint64_t m) {
    v3 ^= m;
    Round();
    Round();
    v0 ^= m;
  }
};

// SipHash-2-4 (Aumasson & Bernstein, 2012) with the fixed key 00 01 .. 0F that buffer.hash uses.
uint64_t SipHash24(std::span<const uint8_t> data) {
  constexpr uint64_t k0 = 0x0706050403020100ull;
  constexpr uint64_t k1 = 0x0f0e0d0c0b0a0908ull;
  SipState s{k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull, k0 ^ 0x6c7967656e657261ull,
             k1 ^ 0x7465646279746573ull};
  const size_t full = data.size() & ~size_t{7};
  for (size_t i = 0; i < full; i += 8) s.Compress(LoadLittleEndian64(data.data() + i));
  // Last block: the remaining bytes, little-endian, with the length's low byte on top.
  uint64_t last = static_cast<uint64_t>(data.size() & 0xff) << 56;
  for (size_t i = full; i < data.size(); ++i) {
    last |= static_cast<uint64_t>(data[i]) << (8 * (i - full));
  }
  s.Compress(last);
  s.v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) s.Round();
  return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

}  // namespace

Buffer::~Buffer() { std::free(allocation_); }

StatusOr<base::Ref<Buffer>> Buffer::Allocate(uint64_t length, uint32_t alignment, uint32_t access,
                                             const ContextQuota* quota) {
  if (alignment == 0) alignment = kDefaultAlignment;
  if ((alignment & (alignment - 1)) != 0 || alignment > kMaxAlignment) {
    return base::InvalidArgumentError("buffer alignment ", alignment,
                                      " is not a power of two no larger than ", kMaxAlignment);
  }
  // The program's limits first: their message names the setting that governs the request.
  base::MemoryCharge charge;
  if (quota != nullptr) {
    RT_ASSIGN_OR_RETURN(charge, quota->ChargeAllocation(length, "vm.buffer allocation",
                                                               base::MemoryKind::kVmBuffer));
  }
  if (length > kMaxLength || length > std::numeric_limits<size_t>::max() - alignment) {
    return base::ResourceExhaustedError("buffer length ", length, " exceeds the limit of ",
                                        kMaxLength, " bytes");
  }
  // Never zero bytes: data() stays non-null so memcpy/memset on empty ranges are well defined.
  // aligned_alloc wants a size that is a multiple of the alignment.
  const size_t size = (std::max<size_t>(static_cast<size_t>(length), 1) + alignment - 1) &
                      ~static_cast<size_t>(alignment - 1);
  // The object first: if it cannot be made, there is no data block to leak.
  base::Ref<Buffer> buffer = base::Ref<Buffer>::Adopt(new Buffer());
  void* allocation = base::AllocationFaultInjected()              ? nullptr
                     : alignment <= alignof(std::max_align_t) ? std::calloc(1, size)
                                                              : std::aligned_alloc(alignment, size);
  if (allocation == nullptr) {
    return base::ResourceExhaustedError("out of memory allocating a buffer of ", length, " bytes");
  }
  if (alignment > alignof(std::max_align_t)) std::memset(allocation, 0, size);
  buffer->allocation_ = allocation;
  buffer->data_ = static_cast<uint8_t*>(allocation);
  buffer->length_ = length;
  buffer->access_ = access;
  buffer->charge_ = std::move(charge);
  return buffer;
}

base::Ref<Buffer> Buffer::WrapReadOnly(std::span<const uint8_t> data,
                                       base::Ref<base::RefObject> keep_alive, uint32_t access) {
  base::Ref<Buffer> buffer = base::Ref<Buffer>::Adopt(new Buffer());
  // Writes are refused by access checks, so the const_cast never leads to a store.
  buffer->data_ = const_cast<uint8_t*>(data.data());
  buffer->length_ = data.size();
  buffer->access_ = access & ~static_cast<uint32_t>(kMutable);
  buffer->keep_alive_ = std::move(keep_alive);
  return buffer;
}

base::Ref<Buffer> Buffer::WrapMutable(std::span<uint8_t> data,
                                      base::Ref<base::RefObject> keep_alive, uint32_t access) {
  base::Ref<Buffer> buffer = base::Ref<Buffer>::Adopt(new Buffer());
  buffer->data_ = data.data();
  buffer->length_ = data.size();
  buffer->access_ = access | kMutable;
  buffer->keep_alive_ = std::move(keep_alive);
  return buffer;
}

StatusOr<base::Ref<Buffer>> Buffer::Clone(const Buffer& source, uint64_t offset, uint64_t length,
                                          uint32_t alignment, const ContextQuota* quota) {
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, source.ReadRange(offset, length));
  RT_ASSIGN_OR_RETURN(base::Ref<Buffer> clone,
                      Allocate(length, alignment, kMutable | kOriginGuest, quota));
  if (!bytes.empty()) std::memcpy(clone->data_, bytes.data(), bytes.size());
  return clone;
}

StatusOr<std::span<const uint8_t>> Buffer::ReadRange(uint64_t offset, uint64_t length) const {
  if (offset > length_ || length > length_ - offset) return OutOfBounds(offset, length, length_);
  return std::span<const uint8_t>(data_ + offset, static_cast<size_t>(length));
}

StatusOr<std::span<uint8_t>> Buffer::WriteRange(uint64_t offset, uint64_t length) {
  if (!is_mutable()) return ReadOnly();
  if (offset > length_ || length > length_ - offset) return OutOfBounds(offset, length, length_);
  return std::span<uint8_t>(data_ + offset, static_cast<size_t>(length));
}

template <typename T>
StatusOr<T> Buffer::Load(uint64_t element_index) const {
  RT_RETURN_IF_ERROR(CheckElements(element_index, 1, sizeof(T), length_));
  // memcpy: rodata and cloned buffers give no alignment guarantee for the element address.
  T value;
  std::memcpy(&value, data_ + element_index * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
Status Buffer::Store(uint64_t element_index, T value) {
  if (!is_mutable()) return ReadOnly();
  RT_RETURN_IF_ERROR(CheckElements(element_index, 1, sizeof(T), length_));
  std::memcpy(data_ + element_index * sizeof(T), &value, sizeof(T));
  return Status();
}

template <typename T>
Status Buffer::Fill(uint64_t element_offset, uint64_t element_count, T value) {
  if (!is_mutable()) return ReadOnly();
  RT_RETURN_IF_ERROR(CheckElements(element_offset, element_count, sizeof(T), length_));
  uint8_t* target = data_ + element_offset * sizeof(T);
  if constexpr (sizeof(T) == 1) {
    if (element_count != 0) std::memset(target, static_cast<uint8_t>(value), element_count);
  } else {
    for (uint64_t i = 0; i < element_count; ++i)
      std::memcpy(target + i * sizeof(T), &value, sizeof(T));
  }
  return Status();
}

Status Buffer::Copy(const Buffer& source, uint64_t source_offset, Buffer& target,
                    uint64_t target_offset, uint64_t length) {
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> from, source.ReadRange(source_offset, length));
  RT_ASSIGN_OR_RETURN(std::span<uint8_t> to, target.WriteRange(target_offset, length));
  if (length != 0) std::memmove(to.data(), from.data(), from.size());
  return Status();
}

StatusOr<bool> Buffer::Compare(const Buffer& lhs, uint64_t lhs_offset, const Buffer& rhs,
                               uint64_t rhs_offset, uint64_t length) {
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> a, lhs.ReadRange(lhs_offset, length));
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> b, rhs.ReadRange(rhs_offset, length));
  return length == 0 || std::memcmp(a.data(), b.data(), a.size()) == 0;
}

StatusOr<int64_t> Buffer::Hash(uint64_t offset, uint64_t length) const {
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, ReadRange(offset, length));
  return static_cast<int64_t>(SipHash24(bytes));
}

// The element types the buffer ops and host tools use.
template StatusOr<int8_t> Buffer::Load<int8_t>(uint64_t) const;
template Status Buffer::Store<int8_t>(uint64_t, int8_t);
template Status Buffer::Fill<int8_t>(uint64_t, uint64_t, int8_t);
template StatusOr<int16_t> Buffer::Load<int16_t>(uint64_t) const;
template Status Buffer::Store<int16_t>(uint64_t, int16_t);
template Status Buffer::Fill<int16_t>(uint64_t, uint64_t, int16_t);
template StatusOr<int32_t> Buffer::Load<int32_t>(uint64_t) const;
template Status Buffer::Store<int32_t>(uint64_t, int32_t);
template Status Buffer::Fill<int32_t>(uint64_t, uint64_t, int32_t);
template StatusOr<int64_t> Buffer::Load<int64_t>(uint64_t) const;
template Status Buffer::Store<int64_t>(uint64_t, int64_t);
template Status Buffer::Fill<int64_t>(uint64_t, uint64_t, int64_t);
template StatusOr<uint8_t> Buffer::Load<uint8_t>(uint64_t) const;
template Status Buffer::Store<uint8_t>(uint64_t, uint8_t);
template Status Buffer::Fill<uint8_t>(uint64_t, uint64_t, uint8_t);
template StatusOr<uint16_t> Buffer::Load<uint16_t>(uint64_t) const;
template Status Buffer::Store<uint16_t>(uint64_t, uint16_t);
template Status Buffer::Fill<uint16_t>(uint64_t, uint64_t, uint16_t);
template StatusOr<uint32_t> Buffer::Load<uint32_t>(uint64_t) const;
template Status Buffer::Store<uint32_t>(uint64_t, uint32_t);
template Status Buffer::Fill<uint32_t>(uint64_t, uint64_t, uint32_t);
template StatusOr<uint64_t> Buffer::Load<uint64_t>(uint64_t) const;
template Status Buffer::Store<uint64_t>(uint64_t, uint64_t);
template Status Buffer::Fill<uint64_t>(uint64_t, uint64_t, uint64_t);
template StatusOr<float> Buffer::Load<float>(uint64_t) const;
template Status Buffer::Store<float>(uint64_t, float);
template Status Buffer::Fill<float>(uint64_t, uint64_t, float);
template StatusOr<double> Buffer::Load<double>(uint64_t) const;
template Status Buffer::Store<double>(uint64_t, double);
template Status Buffer::Fill<double>(uint64_t, uint64_t, double);

}  // namespace iree_rt::vm
