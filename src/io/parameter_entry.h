// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ParameterEntry: one named parameter of an archive (.irpa, .safetensors, .gguf), as the parsers
// return it. Entries only describe where the bytes are; they never own or copy them, so a model
// of many GB is indexed without reading its data.
#ifndef IREE_RT_IO_PARAMETER_ENTRY_H_
#define IREE_RT_IO_PARAMETER_ENTRY_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace iree_rt::io {

enum class ParameterKind : uint8_t {
  kData = 0,   // bytes stored in the file at [offset, offset + stored_length)
  kSplat = 1,  // a 1, 2, 4, 8 or 16 byte pattern repeated over length bytes; nothing stored
};

struct ParameterEntry {
  std::string key;
  ParameterKind kind = ParameterKind::kData;

  // The size the parameter has once loaded, in bytes. For data entries it is at least
  // stored_length; bytes past stored_length load as zeros (.irpa's padding rule; the other
  // formats, and every archive IREE's tools write, store all of it).
  uint64_t length = 0;

  // Data: absolute byte offset of the stored bytes in the file, and how many are stored there.
  uint64_t offset = 0;
  uint64_t stored_length = 0;
  // Data: the alignment the format promises (and the parser checked) for |offset|: the .irpa
  // entry's minimum_alignment, gguf's data alignment, 1 for safetensors (its data is unaligned).
  // The offset may be better aligned than this; zero-copy importers test offset itself.
  uint64_t alignment = 1;

  // Splat: pattern[0, pattern_length) in little-endian byte order.
  std::array<uint8_t, 16> pattern{};
  uint8_t pattern_length = 0;

  // The element type and shape where the format records them: safetensors' dtype ("BF16") and
  // shape; gguf's ggml type name ("Q4_K") and dims, reversed to row-major (outermost first, as
  // numpy writes them). Empty for .irpa, whose per-entry metadata is opaque bytes (|metadata|).
  std::string element_type;
  std::vector<uint64_t> shape;
  bool has_shape = false;
  std::vector<uint8_t> metadata;

  // The file of a ParameterIndex this entry came from (its position in ParameterIndex::files()).
  size_t file_index = 0;
};

// Checks splat parameter |key|: a pattern of 1, 2, 4, 8 or 16 bytes that fills |length| whole
// times (a fill writes whole patterns only). INVALID_ARGUMENT naming |file_name| and |key| otherwise.
base::Status CheckSplat(std::string_view key, size_t pattern_length, uint64_t length,
                        std::string_view file_name);

// Checks the entries one parser produced for |file_name|: no key twice (ALREADY_EXISTS) and no two
// data entries whose stored bytes overlap (INVALID_ARGUMENT); messages name the file and both keys.
base::Status ValidateEntries(std::vector<ParameterEntry>& entries, std::string_view file_name);

}  // namespace iree_rt::io

#endif  // IREE_RT_IO_PARAMETER_ENTRY_H_
