// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::TransientStorage: the side of a QueueAlloca buffer that queue_dealloca uses. Its storage
// can be released while handles to the buffer remain; later use of the buffer then fails to map
// instead of touching freed memory.
#ifndef IREE_RT_HAL_TRANSIENT_STORAGE_H_
#define IREE_RT_HAL_TRANSIENT_STORAGE_H_

#include <cstdint>

namespace iree_rt::hal {

class TransientStorage {
 public:
  // The AllocaFlag bits the buffer was allocated with.
  virtual uint64_t alloca_flags() const = 0;
  // Releases the storage. Idempotent.
  virtual void Decommit() = 0;

 protected:
  ~TransientStorage() = default;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_TRANSIENT_STORAGE_H_
