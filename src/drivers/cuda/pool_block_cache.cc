// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/pool_block_cache.h"

#include <vector>

namespace iree_rt::drivers::cuda {

CUdeviceptr PoolBlockCache::Take(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = blocks_.find(bytes);
  if (it == blocks_.end()) return 0;
  const CUdeviceptr block = it->second;
  blocks_.erase(it);
  cached_bytes_ -= bytes;
  return block;
}

void PoolBlockCache::Give(uint64_t bytes, CUdeviceptr block) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cached_bytes_ + bytes <= capacity_bytes_) {
      blocks_.emplace(bytes, block);
      cached_bytes_ += bytes;
      return;
    }
  }
  Free(block);
}

bool PoolBlockCache::Flush() {
  std::vector<CUdeviceptr> freed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [bytes, block] : blocks_) freed.push_back(block);
    blocks_.clear();
    cached_bytes_ = 0;
  }
  for (CUdeviceptr block : freed) Free(block);
  return !freed.empty();
}

void PoolBlockCache::Free(CUdeviceptr block) const {
  context_->Activate().IgnoreError();
  context_->syms().cuMemFreeAsync(block, context_->dispatch_stream());
}

}  // namespace iree_rt::drivers::cuda
