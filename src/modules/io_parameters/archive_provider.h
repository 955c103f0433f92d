// io_parameters::ArchiveProvider: the parameters of one scope from archive files (.irpa,
// .safetensors, .gguf; several files merge into one index, a key in two of them is refused).
//
// How the bytes are reached (--parameter_mode):
//   kMmap     the files are mapped: a CPU device imports aligned parameters without a copy, so a
//             model of many GB starts in milliseconds and processes share the page cache;
//   kPreload  the files are read whole into aligned memory first, then imported the same way;
//   kFile     only the archive headers are read; each load copies from the file with pread.
#ifndef IREE_RT_MODULES_IO_PARAMETERS_ARCHIVE_PROVIDER_H_
#define IREE_RT_MODULES_IO_PARAMETERS_ARCHIVE_PROVIDER_H_

#include <span>
#include <string>
#include <vector>

#include "io/parameter_index.h"
#include "modules/io_parameters/parameter_provider.h"

namespace iree_rt::modules::io_parameters {

enum class ParameterMode { kFile, kPreload, kMmap };

class ArchiveProvider final : public ParameterProvider {
 public:
  // Opens and indexes |paths| for |scope|. Errors name the file (and the key, for a bad entry or
  // a key found twice).
  static base::StatusOr<base::Ref<ArchiveProvider>> Open(std::string scope,
                                                         std::span<const std::string> paths,
                                                         ParameterMode mode);

  const std::string& scope() const override { return index_.scope(); }
  base::StatusOr<Entry> Lookup(std::string_view key) const override;
  const io::ParameterIndex& index() const { return index_; }

 private:
  explicit ArchiveProvider(std::string scope) : index_(std::move(scope)) {}

  io::ParameterIndex index_;
  std::vector<base::Ref<hal::File>> files_;   // by file index
  std::vector<const uint8_t*> host_bases_;    // by file index; null in kFile mode
};

// "--parameters" values ("[scope=]path", split at the first '='), grouped into one provider per
// scope in first-seen order.
base::StatusOr<std::vector<base::Ref<ParameterProvider>>> OpenParameterFlags(
    std::span<const std::string> flags, ParameterMode mode);

}  // namespace iree_rt::modules::io_parameters

#endif  // IREE_RT_MODULES_IO_PARAMETERS_ARCHIVE_PROVIDER_H_
