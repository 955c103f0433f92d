// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::PoolBlockCache: device memory blocks of the context's memory pool that queue allocas
// gave back, kept for the next queue alloca of the same size.
//
// A block is given back where its cuMemFreeAsync would have been enqueued on the dispatch stream,
// and taken only by a queue alloca, whose uses are all enqueued on that stream afterwards (or
// reach other streams through events recorded on it): stream order keeps them after the block's
// earlier uses, as the pool itself would. Taking a cached block costs a map lookup instead of
// cuMemAllocFromPoolAsync's few microseconds of host time, which synchronous calls (two allocas
// per call is common) pay before their first dispatch. Bounded in bytes; beyond that, on Flush
// and at destruction, blocks go back to the pool with cuMemFreeAsync.
// Thread-safety: every method may be called from any thread.
#ifndef IREE_RT_DRIVERS_CUDA_POOL_BLOCK_CACHE_H_
#define IREE_RT_DRIVERS_CUDA_POOL_BLOCK_CACHE_H_

#include <cuda.h>

#include <mutex>
#include <unordered_map>

#include "base/ref_object.h"
#include "drivers/cuda/context.h"

namespace iree_rt::drivers::cuda {

class PoolBlockCache final : public base::RefObject {
 public:
  PoolBlockCache(base::Ref<Context> context, uint64_t capacity_bytes)
      : context_(std::move(context)), capacity_bytes_(capacity_bytes) {}
  ~PoolBlockCache() override { Flush(); }

  // A cached block of exactly |bytes|, or 0.
  CUdeviceptr Take(uint64_t bytes);
  // Keeps |block| for reuse, or frees it (stream-ordered) when the cache is full.
  void Give(uint64_t bytes, CUdeviceptr block);
  // Frees every cached block; returns whether there was any (an allocation may then retry).
  bool Flush();

 private:
  void Free(CUdeviceptr block) const;

  const base::Ref<Context> context_;
  const uint64_t capacity_bytes_;
  std::mutex mutex_;
  std::unordered_multimap<uint64_t, CUdeviceptr> blocks_;
  uint64_t cached_bytes_ = 0;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_POOL_BLOCK_CACHE_H_
