// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Locates the module FlatBuffer and the external rodata base inside a .vmfb.
//
// iree-compile writes one of two layouts (docs: vm_format_facts.md §1.1):
//   ZIP polyglot (default): a ZIP local file header ("PK\3\4"), then the size-prefixed FlatBuffer.
//   plain: the size-prefixed FlatBuffer at offset 0.
// In both, external rodata lives after the FlatBuffer, relative to a 64-byte aligned base.
// Only the first local header is read; the rest of the ZIP (central directory, CRCs) is ignored.
#ifndef IREE_RT_VM_BYTECODE_ARCHIVE_H_
#define IREE_RT_VM_BYTECODE_ARCHIVE_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "base/status.h"

namespace iree_rt::vm::bytecode {

// Alignment of the external rodata base, relative to the start of the archive.
inline constexpr size_t kArchiveSegmentAlignment = 64;

struct ArchiveLayout {
  bool is_zip = false;
  // Offset from the archive start of the u32 size prefix; the FlatBuffer proper follows it.
  size_t prefix_offset = 0;
  // The size prefix and the FlatBuffer, exactly 4 + N bytes (what a size-prefixed verifier takes).
  std::span<const uint8_t> size_prefixed_flatbuffer;
  // align_up(offset of the FlatBuffer's first byte + N, 64). May exceed the archive size when no
  // external data follows; external_data_offset values are relative to it.
  uint64_t rodata_base = 0;
  // The bytes from rodata_base to the end of the archive (empty if rodata_base is past the end).
  std::span<const uint8_t> rodata;
};

// Finds the FlatBuffer in |bytes| and checks its file identifier ("IREE"). Reads nothing past
// the end of |bytes|. The returned spans alias |bytes|.
//
// Errors: INVALID_ARGUMENT for anything malformed (too short, a local header or size prefix
// running past the end, a wrong identifier, a FlatBuffer not 8-byte aligned in memory).
base::StatusOr<ArchiveLayout> ParseArchive(std::span<const uint8_t> bytes);

}  // namespace iree_rt::vm::bytecode

#endif  // IREE_RT_VM_BYTECODE_ARCHIVE_H_
