// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::Allocator: CUDA memory for one device.
//
//   HOST_LOCAL requests           → pinned host memory (cuMemHostAlloc, mapped into the device)
//   DEVICE_LOCAL | HOST_VISIBLE   → managed memory (cuMemAllocManaged), never more than is free
//   DEVICE_LOCAL                  → device memory (cuMemAlloc); not mappable
// A DEVICE_LOCAL request with a MAPPING usage becomes managed memory. Imports register host memory
// (cuMemHostRegister) or wrap an existing device pointer. New allocations are zeroed.
#ifndef IREE_RT_DRIVERS_CUDA_ALLOCATOR_H_
#define IREE_RT_DRIVERS_CUDA_ALLOCATOR_H_

#include <cuda.h>

#include "drivers/cuda/context.h"
#include "drivers/cuda/pool_block_cache.h"
#include "hal/allocator.h"

namespace iree_rt::drivers::cuda {

class Allocator final : public hal::Allocator {
 public:
  Allocator(base::Ref<Context> context, uint64_t max_allocation_size)
      : hal::Allocator(max_allocation_size),
        context_(std::move(context)),
        pool_blocks_(base::MakeRef<PoolBlockCache>(context_, kPoolBlockCacheBytes)) {}

  // Wraps device memory the caller owns (e.g. from another CUDA library on this context).
  // |release| runs when the last buffer referencing it is gone.
  base::StatusOr<base::Ref<hal::Buffer>> ImportDevicePointer(const hal::BufferParams& params,
                                                             CUdeviceptr device_ptr, uint64_t size,
                                                             hal::HostReleaseCallback release);

  // Allocates |size| bytes from the context's memory pool, ordered on the dispatch stream: the
  // memory may be reused by earlier stream-ordered frees (a PoolBlockCache first, then the pool),
  // and goes back to the cache (or cuMemFreeAsync) where its free is ordered.
  // |enqueued| tells whether the allocation was enqueued on the stream (not served by the cache).
  base::StatusOr<base::Ref<hal::Buffer>> AllocateFromPool(const hal::BufferParams& params, uint64_t size,
                                                          bool* enqueued);

  // The type, usage and access a request is granted (always a superset of what was asked).
  static hal::BufferParams Promote(const hal::BufferParams& params);

 private:
  base::StatusOr<base::Ref<hal::Buffer>> AllocateBufferImpl(const hal::BufferParams& params,
                                                            uint64_t size) override;
  base::StatusOr<base::Ref<hal::Buffer>> ImportHostBufferImpl(const hal::BufferParams& params,
                                                              void* host_ptr, uint64_t size,
                                                              hal::HostReleaseCallback release) override;
  // Serves a read-only import from a copy of the data: in device memory when the caller will not
  // map it (a program's constants), else in managed memory (pages CUDA cannot pin).
  base::StatusOr<base::Ref<hal::Buffer>> ImportByCopy(const hal::BufferParams& params, const void* host_ptr,
                                                      uint64_t size, hal::HostReleaseCallback release);
  // The closure a buffer runs when destroyed: frees with |free| and updates statistics.
  std::function<void()> MakeRelease(uint64_t size, hal::MemoryTypeBits type, std::function<void()> free);

  // Queue-alloca blocks kept for reuse, at most this many bytes.
  static constexpr uint64_t kPoolBlockCacheBytes = 256ull << 20;

  const base::Ref<Context> context_;
  const base::Ref<PoolBlockCache> pool_blocks_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_ALLOCATOR_H_
