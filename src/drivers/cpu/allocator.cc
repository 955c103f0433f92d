// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/allocator.h"

#include "hal/utils/heap_buffer.h"

namespace iree_rt::drivers::cpu {

using base::Ref;
using base::StatusOr;
using hal::utils::HeapBuffer;

hal::BufferParams HostAllocator::Promote(const hal::BufferParams& params) {
  hal::BufferParams promoted = params;
  promoted.type |= hal::MemoryType::kHostVisible | hal::MemoryType::kHostCoherent |
                   hal::MemoryType::kDeviceVisible;
  promoted.type &= ~hal::MemoryType::kOptimal;
  // Programs and users may map or transfer any CPU buffer; granting it keeps asserts passing.
  promoted.usage |= hal::BufferUsage::kTransfer | hal::BufferUsage::kMappingScoped |
                    hal::BufferUsage::kMappingPersistent | hal::BufferUsage::kMappingAccessRandom;
  if (params.usage & hal::BufferUsage::kDispatch) {
    promoted.usage |= hal::BufferUsage::kDispatchStorage | hal::BufferUsage::kDispatchIndirectParameters;
  }
  if (promoted.access == hal::MemoryAccess::kNone) promoted.access = hal::MemoryAccess::kAll;
  return promoted;
}

// Freed bytes go back to the allocator's statistics; the buffer keeps the allocator alive.
HeapBuffer::FreeObserver HostAllocator::FreeObserver(hal::MemoryTypeBits type) {
  // The observer is a plain function: one per statistics bucket of the buffer's type.
  constexpr hal::MemoryTypeBits kDeviceLocal = hal::MemoryType::kDeviceLocal;
  if (type & kDeviceLocal & ~hal::MemoryType::kDeviceVisible) {
    return {[](base::RefObject* owner, uint64_t bytes) {
              static_cast<HostAllocator*>(owner)->RecordDeallocation(bytes, kDeviceLocal);
            },
            Ref<base::RefObject>::Retain(this)};
  }
  return {[](base::RefObject* owner, uint64_t bytes) {
            static_cast<HostAllocator*>(owner)->RecordDeallocation(bytes, hal::MemoryType::kHostLocal);
          },
          Ref<base::RefObject>::Retain(this)};
}

StatusOr<Ref<hal::Buffer>> HostAllocator::AllocateBufferImpl(const hal::BufferParams& params,
                                                             uint64_t size) {
  hal::BufferParams promoted = Promote(params);
  RT_ASSIGN_OR_RETURN(Ref<HeapBuffer> buffer,
                      HeapBuffer::Allocate(promoted.type, promoted.usage, promoted.access, size,
                                           FreeObserver(promoted.type)));
  RecordAllocation(size, promoted.type);
  return Ref<hal::Buffer>(std::move(buffer));
}

StatusOr<Ref<hal::Buffer>> HostAllocator::AllocateTransientImpl(const hal::BufferParams& params,
                                                                uint64_t size,
                                                                uint64_t alloca_flags) {
  hal::BufferParams promoted = Promote(params);
  RT_ASSIGN_OR_RETURN(Ref<HeapBuffer> buffer,
                      HeapBuffer::AllocateTransient(promoted.type, promoted.usage, promoted.access,
                                                    size, alloca_flags, FreeObserver(promoted.type)));
  RecordAllocation(size, promoted.type);
  return Ref<hal::Buffer>(std::move(buffer));
}

StatusOr<Ref<hal::Buffer>> HostAllocator::ImportHostBufferImpl(const hal::BufferParams& params,
                                                               void* host_ptr, uint64_t size,
                                                               hal::HostReleaseCallback release) {
  hal::BufferParams promoted = Promote(params);
  return Ref<hal::Buffer>(HeapBuffer::Wrap(promoted.type, promoted.usage, promoted.access, host_ptr,
                                           size, std::move(release)));
}

}  // namespace iree_rt::drivers::cpu
