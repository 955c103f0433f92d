// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/transient_buffer.h"

namespace iree_rt::hal::utils {

TransientBuffer::TransientBuffer(base::Ref<Buffer> storage, uint64_t alloca_flags)
    : Buffer(storage->memory_type(), storage->allowed_usage(), storage->allowed_access(),
             storage->byte_length()),
      alloca_flags_(alloca_flags), storage_(std::move(storage)) {}

base::Ref<Buffer> TransientBuffer::storage() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return storage_;
}

void TransientBuffer::Decommit() {
  base::Ref<Buffer> dropped;
  std::lock_guard<std::mutex> lock(mutex_);
  dropped = std::move(storage_);
}

base::StatusOr<uint8_t*> TransientBuffer::MapImpl(uint64_t offset, uint64_t length) {
  // Mapped under the lock (no reference taken): Decommit waits for it.
  std::lock_guard<std::mutex> lock(mutex_);
  if (!storage_) {
    return base::FailedPreconditionError("buffer storage was released by queue_dealloca");
  }
  return storage_->Map(MemoryAccess::kRead | MemoryAccess::kWrite, offset, length);
}

}  // namespace iree_rt::hal::utils
