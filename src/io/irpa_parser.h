// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ParseIrpa: the entries of an IREE parameter archive (.irpa, format version 0.0).
//
// Accepts SKIP (dropped), SPLAT and DATA entries and follows chained headers (next_header_offset).
// Refuses EXTERNAL entries (UNIMPLEMENTED, naming the key), other versions (INCOMPATIBLE), and
// anything that does not fit the file: truncated headers or entry tables, names, metadata or
// stored bytes past the end, data not at its minimum_alignment, overlapping data, duplicate keys.
#ifndef IREE_RT_IO_IRPA_PARSER_H_
#define IREE_RT_IO_IRPA_PARSER_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "io/parameter_entry.h"

namespace iree_rt::io {

// |bytes| is the whole file; |file_name| only labels messages. Offsets in the result are absolute.
base::StatusOr<std::vector<ParameterEntry>> ParseIrpa(std::span<const uint8_t> bytes,
                                                      std::string_view file_name);

}  // namespace iree_rt::io

#endif  // IREE_RT_IO_IRPA_PARSER_H_
