// ParseParameterArchive: picks the parser for a file by its extension, as IREE's tools do.
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

// Parses |bytes| (a whole mapped file) with the parser its name's extension selects.
base::StatusOr<std::vector<ParameterEntry>> ParseParameterArchive(std::span<const uint8_t> bytes,
                                                                  std::string_view file_name);

}  // namespace iree_rt::io

#endif  // IREE_RT_IO_PARAMETER_ARCHIVE_H_
