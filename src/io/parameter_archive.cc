// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "io/parameter_archive.h"

#include <optional>
#include <utility>

#include "io/gguf_parser.h"
#include "io/irpa_parser.h"
#include "io/safetensors_parser.h"

namespace iree_rt::io {
namespace {

constexpr std::pair<std::string_view, ArchiveFormat> kFormats[] = {
    {"irpa", ArchiveFormat::kIrpa},
    {"safetensors", ArchiveFormat::kSafetensors},
    {"gguf", ArchiveFormat::kGguf},
};

std::optional<ArchiveFormat> FindFormat(std::string_view name) {
  for (const auto& [format_name, format] : kFormats) {
    if (format_name == name) return format;
  }
  return std::nullopt;
}

}  // namespace

base::StatusOr<ArchiveFormat> ArchiveFormatFromName(std::string_view file_name) {
  const size_t dot = file_name.rfind('.');
  if (dot != std::string_view::npos) {
    if (auto format = FindFormat(file_name.substr(dot + 1))) return *format;
  }
  return base::UnimplementedError(file_name,
                                  ": not a parameter archive this runtime reads (the name must "
                                  "end in .irpa, .safetensors or .gguf)");
}

base::StatusOr<ArchiveFormat> ArchiveFormatFromString(std::string_view format) {
  if (auto found = FindFormat(format)) return *found;
  return base::InvalidArgumentError("unknown parameter archive format '", format,
                                    "' (irpa, safetensors or gguf)");
}

std::string_view ArchiveFormatName(ArchiveFormat format) {
  for (const auto& [format_name, value] : kFormats) {
    if (value == format) return format_name;
  }
  return "unknown";
}

base::StatusOr<std::vector<ParameterEntry>> ParseParameterArchive(std::span<const uint8_t> bytes,
                                                                  ArchiveFormat format,
                                                                  std::string_view file_name) {
  switch (format) {
    case ArchiveFormat::kIrpa:
      return ParseIrpa(bytes, file_name);
    case ArchiveFormat::kSafetensors:
      return ParseSafetensors(bytes, file_name);
    case ArchiveFormat::kGguf:
      return ParseGguf(bytes, file_name);
  }
  return base::InternalError(file_name, ": unhandled archive format");
}

base::StatusOr<std::vector<ParameterEntry>> ParseParameterArchive(std::span<const uint8_t> bytes,
                                                                  std::string_view file_name) {
  RT_ASSIGN_OR_RETURN(ArchiveFormat format, ArchiveFormatFromName(file_name));
  return ParseParameterArchive(bytes, format, file_name);
}

}  // namespace iree_rt::io
