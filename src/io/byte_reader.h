// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ByteReader: a bounds-checked little-endian cursor over untrusted bytes. Every read either
// succeeds entirely or returns false and leaves the cursor where it was, so a parser can never
// read outside its span, whatever the counts and offsets in the file say.
#ifndef IREE_RT_IO_BYTE_READER_H_
#define IREE_RT_IO_BYTE_READER_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace iree_rt::io {

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> bytes, size_t position = 0)
      : bytes_(bytes), position_(position <= bytes.size() ? position : bytes.size()) {}

  size_t position() const { return position_; }
  size_t remaining() const { return bytes_.size() - position_; }

  bool Skip(uint64_t count) {
    if (count > remaining()) return false;
    position_ += static_cast<size_t>(count);
    return true;
  }
  bool ReadU8(uint8_t& out) { return ReadLittleEndian(out); }
  bool ReadU16(uint16_t& out) { return ReadLittleEndian(out); }
  bool ReadU32(uint32_t& out) { return ReadLittleEndian(out); }
  bool ReadU64(uint64_t& out) { return ReadLittleEndian(out); }
  // A view of the next |count| bytes (valid while the span is).
  bool ReadBytes(uint64_t count, std::span<const uint8_t>& out) {
    if (count > remaining()) return false;
    out = bytes_.subspan(position_, static_cast<size_t>(count));
    position_ += static_cast<size_t>(count);
    return true;
  }
  bool ReadString(uint64_t count, std::string_view& out) {
    std::span<const uint8_t> view;
    if (!ReadBytes(count, view)) return false;
    out = std::string_view(reinterpret_cast<const char*>(view.data()), view.size());
    return true;
  }

 private:
  template <typename T>
  bool ReadLittleEndian(T& out) {
    if (sizeof(T) > remaining()) return false;
    T value = 0;
    for (size_t i = 0; i < sizeof(T); ++i) {
      value |= static_cast<T>(static_cast<T>(bytes_[position_ + i]) << (8 * i));
    }
    out = value;
    position_ += sizeof(T);
    return true;
  }

  std::span<const uint8_t> bytes_;
  size_t position_;
};

// a + b into |out|, false if the sum wraps.
inline bool CheckedAdd(uint64_t a, uint64_t b, uint64_t& out) {
  return !__builtin_add_overflow(a, b, &out);
}
inline bool CheckedMul(uint64_t a, uint64_t b, uint64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}
// True if [offset, offset + length) lies inside [0, size) without wrapping.
inline bool RangeInside(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

}  // namespace iree_rt::io

#endif  // IREE_RT_IO_BYTE_READER_H_
