// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ParseGguf: the tensors of a .gguf file, versions 2 and 3 (little-endian).
//
// The metadata key/value section is walked (every value type, arrays of strings and nested
// arrays included) and skipped, except general.alignment, which sets the data alignment (32 when
// absent). Each tensor's storage size comes from its ggml type's block size and bytes per block
// (ggml_types.h: every type the format defines, BF16, the K-quants and the IQ types included).
// Refuses an unknown type id (UNIMPLEMENTED, naming the tensor and the id), big-endian files and
// other versions (INCOMPATIBLE), truncation, data past the end, misaligned or overlapping data,
// size overflow and duplicate names.
#ifndef IREE_RT_IO_GGUF_PARSER_H_
#define IREE_RT_IO_GGUF_PARSER_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "io/parameter_entry.h"

namespace iree_rt::io {

base::StatusOr<std::vector<ParameterEntry>> ParseGguf(std::span<const uint8_t> bytes,
                                                      std::string_view file_name);

}  // namespace iree_rt::io

#endif  // IREE_RT_IO_GGUF_PARSER_H_
