// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A buffer made by Device::QueueAlloca over storage from any allocator: a handle whose storage
// can be released by QueueDealloca while references to the handle remain (later use then fails
// cleanly instead of touching freed memory). Host allocators make one object instead
// (HeapBuffer::AllocateTransient).
#ifndef IREE_RT_HAL_UTILS_TRANSIENT_BUFFER_H_
#define IREE_RT_HAL_UTILS_TRANSIENT_BUFFER_H_

#include <mutex>

#include "hal/buffer.h"

namespace iree_rt::hal::utils {

class TransientBuffer final : public Buffer, public TransientStorage {
 public:
  TransientBuffer(base::Ref<Buffer> storage, uint64_t alloca_flags);

  TransientStorage* transient_storage() override { return this; }
  uint64_t alloca_flags() const override { return alloca_flags_; }
  // The storage, or null once decommitted.
  base::Ref<Buffer> storage() const;
  // Drops the storage. Idempotent.
  void Decommit() override;

 private:
  base::StatusOr<uint8_t*> MapImpl(uint64_t offset, uint64_t length) override;

  const uint64_t alloca_flags_;
  mutable std::mutex mutex_;
  base::Ref<Buffer> storage_;
};

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_TRANSIENT_BUFFER_H_
