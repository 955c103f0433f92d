// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/staging_pool.h"

namespace iree_rt::hal {

base::StatusOr<base::Ref<Buffer>> StagingPool::Take(Allocator& allocator, uint64_t size) {
  if (size == kSlotSize) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!kept_.empty()) {
      base::Ref<Buffer> buffer = std::move(kept_.back());
      kept_.pop_back();
      return buffer;
    }
  }
  BufferParams params;
  params.type = MemoryType::kHostLocal | MemoryType::kDeviceVisible;
  params.usage = BufferUsage::kTransfer | BufferUsage::kMapping;
  return allocator.AllocateBuffer(params, size);
}

void StagingPool::Give(base::Ref<Buffer> buffer) {
  if (!buffer || buffer->byte_length() != kSlotSize) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (kept_.size() < kMaxKept) kept_.push_back(std::move(buffer));
}

}  // namespace iree_rt::hal
