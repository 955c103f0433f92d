// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// FdFile: a read-only hal::File over an open file descriptor, read with pread (so concurrent
// reads of disjoint ranges need no lock). For parameter archives loaded without mapping them
// (--parameter_mode=file): the bytes go from the page cache straight into device buffers.
#ifndef IREE_RT_HAL_UTILS_FD_FILE_H_
#define IREE_RT_HAL_UTILS_FD_FILE_H_

#include <string>

#include "hal/file.h"

namespace iree_rt::hal::utils {

class FdFile final : public File {
 public:
  // Opens |path| read-only. Errors name the path (NOT_FOUND, PERMISSION_DENIED, UNKNOWN).
  static base::StatusOr<base::Ref<FdFile>> Open(const std::string& path);
  ~FdFile() override;

  uint64_t length() const override { return length_; }
  bool writable() const override { return false; }
  base::Status Read(uint64_t offset, void* target, uint64_t length) override;
  base::Status Write(uint64_t offset, const void* source, uint64_t length) override;

 private:
  FdFile(std::string path, int fd, uint64_t length) : path_(std::move(path)), fd_(fd), length_(length) {}

  std::string path_;
  int fd_;
  uint64_t length_;
};

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_FD_FILE_H_
