// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// MemoryFile: a hal::File over host memory the caller provides (e.g. a module's embedded
// parameters), released through a callback when the file is destroyed.
#ifndef IREE_RT_HAL_UTILS_MEMORY_FILE_H_
#define IREE_RT_HAL_UTILS_MEMORY_FILE_H_

#include <cstring>
#include <functional>

#include "hal/file.h"

namespace iree_rt::hal::utils {

class MemoryFile final : public File {
 public:
  MemoryFile(uint8_t* data, uint64_t length, bool writable, std::function<void()> release)
      : data_(data), length_(length), writable_(writable), release_(std::move(release)) {}
  ~MemoryFile() override {
    if (release_) release_();
  }

  uint64_t length() const override { return length_; }
  bool writable() const override { return writable_; }
  base::Status Read(uint64_t offset, void* target, uint64_t length) override {
    RT_RETURN_IF_ERROR(CheckRange(offset, length));
    if (length) std::memcpy(target, data_ + offset, length);
    return base::Status::Ok();
  }
  base::Status Write(uint64_t offset, const void* source, uint64_t length) override {
    if (!writable_) return base::MakeStatus(base::StatusCode::kPermissionDenied, "file is read-only");
    RT_RETURN_IF_ERROR(CheckRange(offset, length));
    if (length) std::memcpy(data_ + offset, source, length);
    return base::Status::Ok();
  }

 private:
  base::Status CheckRange(uint64_t offset, uint64_t length) const {
    if (offset > length_ || length > length_ - offset) {
      return base::OutOfRangeError("file range [", offset, ", +", length, ") past the end (", length_, " bytes)");
    }
    return base::Status::Ok();
  }

  uint8_t* data_;
  uint64_t length_;
  bool writable_;
  std::function<void()> release_;
};

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_MEMORY_FILE_H_
