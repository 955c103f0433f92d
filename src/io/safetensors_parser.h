// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ParseSafetensors: the tensors of a .safetensors file (a u64 header length, a JSON header of
// {"name": {"dtype", "shape", "data_offsets": [begin, end]}}, then the data).
//
// Accepts every dtype the format defines (BOOL, U8-U64, I8-I64, F16, BF16, F32, F64, C64, the F8,
// F6 and F4 types) and an optional "__metadata__" object of strings. Refuses bad JSON, unknown
// dtypes, offsets that disagree with dtype x shape, data past the end of the file, overlapping
// tensors and duplicate names. The data is unaligned (alignment 1): loaders copy it.
#ifndef IREE_RT_IO_SAFETENSORS_PARSER_H_
#define IREE_RT_IO_SAFETENSORS_PARSER_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "io/parameter_entry.h"

namespace iree_rt::io {

base::StatusOr<std::vector<ParameterEntry>> ParseSafetensors(std::span<const uint8_t> bytes,
                                                             std::string_view file_name);

}  // namespace iree_rt::io

#endif  // IREE_RT_IO_SAFETENSORS_PARSER_H_
