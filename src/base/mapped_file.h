// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// MappedFile: a whole file mapped privately into memory.
//
// The mapping is private copy-on-write: callers treat the bytes as read-only, but a stray write
// (device code writing into an imported constant) copies the page instead of faulting, and never
// reaches the file. Load files nobody edits: a truncation by another process can still fault.
// The mapping is page-aligned, which satisfies every alignment a file format view needs.
#ifndef IREE_RT_BASE_MAPPED_FILE_H_
#define IREE_RT_BASE_MAPPED_FILE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include "base/ref_object.h"
#include "base/status.h"

namespace iree_rt::base {

class MappedFile final : public RefObject {
 public:
  // Maps the regular file at |path|. A zero-length file gives an empty span (no mapping).
  // Errors name the path: NOT_FOUND (no such file), PERMISSION_DENIED, INVALID_ARGUMENT (not
  // a regular file, e.g. a directory), RESOURCE_EXHAUSTED (out of address space or
  // descriptors), UNKNOWN (other OS errors, with strerror text).
  static StatusOr<Ref<MappedFile>> Open(const std::string& path);

  // The file's bytes; valid while this object lives.
  std::span<const uint8_t> span() const { return {data_, size_}; }
  const std::string& path() const { return path_; }

  // Asks the kernel to start reading the whole file into the page cache in the background, so
  // later first touches find their pages there instead of faulting them in one readahead window
  // at a time. Skipped for files over half the machine's memory, which would evict each other.
  void Prefetch() const;

 private:
  MappedFile(std::string path, const uint8_t* data, size_t size)
      : path_(std::move(path)), data_(data), size_(size) {}
  ~MappedFile() override;

  std::string path_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_MAPPED_FILE_H_
