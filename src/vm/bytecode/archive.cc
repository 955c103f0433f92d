// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/bytecode/archive.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace iree_rt::vm::bytecode {
namespace {

constexpr uint32_t kZipLocalHeaderSignature = 0x04034B50;  // "PK\3\4"
constexpr size_t kZipLocalHeaderSize = 30;
constexpr size_t kZipFileNameLengthOffset = 26;
constexpr size_t kZipExtraFieldLengthOffset = 28;
// Below this the contents cannot hold a size prefix, a root offset and an identifier (the
// reference runtime uses the same floor).
constexpr size_t kMinModuleContentsSize = 16;
constexpr size_t kSizePrefixSize = 4;
constexpr char kFileIdentifier[4] = {'I', 'R', 'E', 'E'};
// FlatBuffers readers load scalars in place; u64 fields are the widest in the schema.
constexpr uintptr_t kFlatBufferAlignment = 8;

uint16_t LoadU16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t LoadU32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

std::string Printable(std::span<const uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (uint8_t c : bytes) {
    if (c >= 0x20 && c < 0x7F && c != '\\') {
      text += static_cast<char>(c);
    } else {
      text += "\\x";
      text += kHex[c >> 4];
      text += kHex[c & 0xF];
    }
  }
  return text;
}

}  // namespace

base::StatusOr<ArchiveLayout> ParseArchive(std::span<const uint8_t> bytes) {
  ArchiveLayout layout;
  const size_t size = bytes.size();
  if (size >= 4 && LoadU32(bytes.data()) == kZipLocalHeaderSignature) {
    if (size < kZipLocalHeaderSize) {
      return base::InvalidArgumentError("module file is ", size,
                                        " bytes: too short for the 30-byte ZIP local file header "
                                        "its signature announces");
    }
    const size_t header_size = kZipLocalHeaderSize +
                               LoadU16(bytes.data() + kZipFileNameLengthOffset) +
                               LoadU16(bytes.data() + kZipExtraFieldLengthOffset);
    if (header_size > size) {
      return base::InvalidArgumentError(
          "ZIP local file header (", header_size,
          " bytes with name and extra field) runs past the end of the ", size, "-byte module file");
    }
    layout.is_zip = true;
    layout.prefix_offset = header_size;
  }

  const size_t contents_size = size - layout.prefix_offset;
  if (contents_size < kMinModuleContentsSize) {
    return base::InvalidArgumentError(
        "module contents", layout.is_zip ? " after the ZIP header" : "", " are ", contents_size,
        " bytes; at least ", kMinModuleContentsSize, " are needed for a module FlatBuffer");
  }
  const uint8_t* contents = bytes.data() + layout.prefix_offset;
  const uint32_t flatbuffer_size = LoadU32(contents);
  if (flatbuffer_size > contents_size - kSizePrefixSize) {
    return base::InvalidArgumentError("FlatBuffer size prefix at offset ", layout.prefix_offset,
                                      " says ", flatbuffer_size, " bytes but only ",
                                      contents_size - kSizePrefixSize, " follow it");
  }
  // Root offset (4) + identifier (4).
  if (flatbuffer_size < 8) {
    return base::InvalidArgumentError("FlatBuffer size prefix says ", flatbuffer_size,
                                      " bytes; too small for a root offset and file identifier");
  }
  const std::span<const uint8_t> identifier(contents + kSizePrefixSize + 4, 4);
  if (!std::equal(identifier.begin(), identifier.end(), kFileIdentifier)) {
    return base::InvalidArgumentError("module FlatBuffer file identifier is '",
                                      Printable(identifier),
                                      "', expected 'IREE' (not an IREE VM bytecode module)");
  }
  if (reinterpret_cast<uintptr_t>(contents) % kFlatBufferAlignment != 0) {
    return base::InvalidArgumentError(
        "module FlatBuffer (offset ", layout.prefix_offset, ") is not ", kFlatBufferAlignment,
        "-byte aligned in memory; load the module into aligned storage");
  }
  layout.size_prefixed_flatbuffer =
      std::span<const uint8_t>(contents, kSizePrefixSize + flatbuffer_size);

  // 64-bit math: prefix_offset + 4 + N <= size, so no overflow before rounding up.
  const uint64_t flatbuffer_end =
      uint64_t{layout.prefix_offset} + kSizePrefixSize + flatbuffer_size;
  layout.rodata_base =
      (flatbuffer_end + (kArchiveSegmentAlignment - 1)) & ~uint64_t{kArchiveSegmentAlignment - 1};
  if (layout.rodata_base < size)
    layout.rodata = bytes.subspan(static_cast<size_t>(layout.rodata_base));
  return layout;
}

}  // namespace iree_rt::vm::bytecode
