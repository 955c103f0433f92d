// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ParseParameterArchive: picks the parser for an archive by its format, given or taken from the
// file name's extension as IREE's tools do.
#ifndef IREE_RT_IO_PARAMETER_ARCHIVE_H_
#define IREE_RT_IO_PARAMETER_ARCHIVE_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "io/parameter_entry.h"

namespace iree_rt::io {

enum class ArchiveFormat : uint8_t { kIrpa, kSafetensors, kGguf };

// .irpa, .safetensors or .gguf; UNIMPLEMENTED for any other name.
base::StatusOr<ArchiveFormat> ArchiveFormatFromName(std::string_view file_name);
// "irpa", "safetensors" or "gguf" (what a caller names the format of bytes without a file name);
// INVALID_ARGUMENT for anything else.
base::StatusOr<ArchiveFormat> ArchiveFormatFromString(std::string_view format);
// The inverse of ArchiveFormatFromString.
std::string_view ArchiveFormatName(ArchiveFormat format);

// Parses |bytes| (a whole archive) as |format|; messages name |file_name|.
base::StatusOr<std::vector<ParameterEntry>> ParseParameterArchive(std::span<const uint8_t> bytes,
                                                                  ArchiveFormat format,
                                                                  std::string_view file_name);
// Parses |bytes| (a whole mapped file) with the parser its name's extension selects.
base::StatusOr<std::vector<ParameterEntry>> ParseParameterArchive(std::span<const uint8_t> bytes,
                                                                  std::string_view file_name);

}  // namespace iree_rt::io

#endif  // IREE_RT_IO_PARAMETER_ARCHIVE_H_
