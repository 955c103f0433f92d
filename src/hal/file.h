// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::File: a byte source/sink for Device::QueueRead/QueueWrite (parameter archives, checkpoints).
//
// Thread-safety: reads and writes of disjoint ranges may run concurrently.
#ifndef IREE_RT_HAL_FILE_H_
#define IREE_RT_HAL_FILE_H_

#include <cstdint>

#include "base/ref_object.h"
#include "base/status.h"

namespace iree_rt::hal {

class File : public base::RefObject {
 public:
  virtual uint64_t length() const = 0;
  virtual bool writable() const = 0;
  // Copies [offset, offset+length) of the file to |target|. OUT_OF_RANGE past the end.
  virtual base::Status Read(uint64_t offset, void* target, uint64_t length) = 0;
  // Copies |length| bytes from |source| to the file at |offset|. PERMISSION_DENIED if read-only.
  virtual base::Status Write(uint64_t offset, const void* source, uint64_t length) = 0;

 protected:
  File() = default;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_FILE_H_
