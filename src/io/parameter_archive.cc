#include "io/parameter_archive.h"

#include "io/gguf_parser.h"
#include "io/irpa_parser.h"
#include "io/safetensors_parser.h"

namespace iree_rt::io {

base::StatusOr<ArchiveFormat> ArchiveFormatFromName(std::string_view file_name) {
  auto ends_with = [&](std::string_view suffix) {
    return file_name.size() >= suffix.size() &&
           file_name.substr(file_name.size() - suffix.size()) == suffix;
  };
  if (ends_with(".irpa")) return ArchiveFormat::kIrpa;
  if (ends_with(".safetensors")) return ArchiveFormat::kSafetensors;
  if (ends_with(".gguf")) return ArchiveFormat::kGguf;
  return base::UnimplementedError(file_name,
                                  ": not a parameter archive this runtime reads (the name must "
                                  "end in .irpa, .safetensors or .gguf)");
}

base::StatusOr<std::vector<ParameterEntry>> ParseParameterArchive(std::span<const uint8_t> bytes,
                                                                  std::string_view file_name) {
  RT_ASSIGN_OR_RETURN(ArchiveFormat format, ArchiveFormatFromName(file_name));
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

}  // namespace iree_rt::io
