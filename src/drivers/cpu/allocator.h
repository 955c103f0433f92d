// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cpu::HostAllocator: every CPU buffer is host memory, visible to both host and "device".
#ifndef IREE_RT_DRIVERS_CPU_ALLOCATOR_H_
#define IREE_RT_DRIVERS_CPU_ALLOCATOR_H_

#include "hal/allocator.h"
#include "hal/utils/heap_buffer.h"

namespace iree_rt::drivers::cpu {

class HostAllocator final : public hal::Allocator {
 public:
  explicit HostAllocator(uint64_t max_allocation_size) : hal::Allocator(max_allocation_size) {}

  // What a CPU buffer reports for |params|: host memory is device-visible and mappable.
  static hal::BufferParams Promote(const hal::BufferParams& params);
  bool device_memory_is_host_memory() const override { return true; }

 private:
  hal::utils::HeapBuffer::FreeObserver FreeObserver(hal::MemoryTypeBits type);
  base::StatusOr<base::Ref<hal::Buffer>> AllocateBufferImpl(const hal::BufferParams& params,
                                                            uint64_t size) override;
  base::StatusOr<base::Ref<hal::Buffer>> AllocateTransientImpl(const hal::BufferParams& params,
                                                               uint64_t size,
                                                               uint64_t alloca_flags) override;
  base::StatusOr<base::Ref<hal::Buffer>> ImportHostBufferImpl(const hal::BufferParams& params,
                                                              void* host_ptr, uint64_t size,
                                                              hal::HostReleaseCallback release) override;
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_ALLOCATOR_H_
