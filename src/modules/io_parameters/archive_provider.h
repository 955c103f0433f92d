// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// io_parameters::ArchiveProvider: the parameters of one scope, gathered from archive files
// (.irpa, .safetensors, .gguf), archives and single parameters held in memory, and splats. All
// merge into one index; a key added twice is refused, naming both of its sources.
//
// How the bytes of an archive file are reached (--parameter_mode):
//   kMmap     the files are mapped: a CPU device imports aligned parameters without a copy, so a
//             model of many GB starts in milliseconds and processes share the page cache;
//   kPreload  the files are read whole into aligned memory first, then imported the same way;
//   kFile     only the archive headers are read; each load copies from the file with pread.
// Memory sources are used in place, as mapped files are.
//
// Thread-safety: the Add* calls and Freeze may race with each other; Lookup must not race with an
// Add. Freeze the provider before a module may look anything up: every later Add then fails with
// FAILED_PRECONDITION, and the index no longer changes.
#ifndef IREE_RT_MODULES_IO_PARAMETERS_ARCHIVE_PROVIDER_H_
#define IREE_RT_MODULES_IO_PARAMETERS_ARCHIVE_PROVIDER_H_

#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "io/parameter_archive.h"
#include "io/parameter_index.h"
#include "modules/io_parameters/parameter_provider.h"

namespace iree_rt::modules::io_parameters {

enum class ParameterMode { kFile, kPreload, kMmap };

class ArchiveProvider final : public ParameterProvider {
 public:
  // An empty provider for |scope|.
  static base::Ref<ArchiveProvider> Create(std::string scope);
  // A frozen provider over the archive files |paths|, added in order.
  static base::StatusOr<base::Ref<ArchiveProvider>> Open(std::string scope,
                                                         std::span<const std::string> paths,
                                                         ParameterMode mode);

  // Each Add indexes all of its entries or none. Errors: FAILED_PRECONDITION once frozen;
  // ALREADY_EXISTS naming the key and both sources for a key already present; the parser's error
  // (naming the source, and the key for a bad entry) for a malformed archive.

  // Adds the entries of the archive file at |path| (format by extension).
  base::Status AddFile(const std::string& path, ParameterMode mode);
  // Adds the entries of the |format| archive in |bytes|. |keep_alive| keeps the bytes valid; it
  // is dropped once neither the provider nor any loaded parameter needs them (or on failure).
  base::Status AddArchiveMemory(std::span<const uint8_t> bytes, io::ArchiveFormat format,
                                base::Ref<base::RefObject> keep_alive);
  // Adds parameter |key| whose bytes are |bytes| (kept valid by |keep_alive|, as above); with
  // |writable| programs may write them (io_parameters.scatter), so they must be writable memory.
  base::Status AddMemory(std::string key, std::span<const uint8_t> bytes,
                         base::Ref<base::RefObject> keep_alive, bool writable = false);
  // Adds parameter |key| of |length| bytes, |pattern| (1, 2, 4, 8 or 16 bytes) repeated.
  // INVALID_ARGUMENT for another pattern size or a length that is not a multiple of it.
  base::Status AddSplat(std::string key, std::span<const uint8_t> pattern, uint64_t length);
  // Refuses every later Add.
  void Freeze();

  const std::string& scope() const override { return index_.scope(); }
  base::StatusOr<Entry> Lookup(std::string_view key) const override;
  // Every entry, in the order added. Not to be read while an Add may run.
  const io::ParameterIndex& index() const { return index_; }

 private:
  explicit ArchiveProvider(std::string scope) : index_(std::move(scope)) {}
  // Indexes |entries| of source |name|, whose stored bytes are in |file| (null for splats), also
  // at |host_base| when they are in host memory.
  base::Status AddSource(std::string name, std::vector<io::ParameterEntry> entries,
                         base::Ref<hal::File> file, const uint8_t* host_base);

  std::mutex mutex_;  // serializes the Adds and Freeze
  bool frozen_ = false;
  size_t memory_archives_ = 0;  // numbers memory archives in messages
  io::ParameterIndex index_;
  std::vector<base::Ref<hal::File>> files_;   // by source index
  std::vector<const uint8_t*> host_bases_;    // by source index; null in kFile mode
};

// "--parameters" values ("[scope=]path", split at the first '='), grouped into one provider per
// scope in first-seen order.
base::StatusOr<std::vector<base::Ref<ParameterProvider>>> OpenParameterFlags(
    std::span<const std::string> flags, ParameterMode mode);

}  // namespace iree_rt::modules::io_parameters

#endif  // IREE_RT_MODULES_IO_PARAMETERS_ARCHIVE_PROVIDER_H_
