// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// AlignedBytes: a private copy of some bytes in memory aligned to a chosen boundary, for files
// read whole into memory (a module with --module_mode=preload, a parameter archive with
// --parameter_mode=preload): page alignment keeps every alignment the file's layout promises.
#ifndef IREE_RT_BASE_ALIGNED_BYTES_H_
#define IREE_RT_BASE_ALIGNED_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "base/ref_object.h"
#include "base/status.h"

namespace iree_rt::base {

class AlignedBytes final : public RefObject {
 public:
  // Copies |bytes| into memory aligned to |alignment| (a power of two). RESOURCE_EXHAUSTED when
  // out of memory.
  static StatusOr<Ref<AlignedBytes>> Copy(std::span<const uint8_t> bytes, size_t alignment = 4096);
  ~AlignedBytes() override;

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  std::span<const uint8_t> span() const { return {data_, size_}; }

 private:
  AlignedBytes(uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t* data_;
  size_t size_;
};

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_ALIGNED_BYTES_H_
