// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::Allocator: makes device buffers and imports host memory.
//
// Thread-safety: all methods may be called from any thread.
#ifndef IREE_RT_HAL_ALLOCATOR_H_
#define IREE_RT_HAL_ALLOCATOR_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/buffer.h"

namespace iree_rt::hal {

// Called once when an imported host allocation is no longer referenced by any buffer.
using HostReleaseCallback = std::function<void()>;

struct AllocatorStatistics {
  uint64_t bytes_allocated = 0;  // live bytes of allocations made by this allocator
  uint64_t peak_bytes_allocated = 0;
  uint64_t allocation_count = 0;  // total allocations ever made
  // The same split by memory type, as IREE's tools print it: device-local memory (the type has
  // the device-local bit) and host-local memory (every other allocation). The peaks are each
  // type's own.
  struct ByType {
    uint64_t bytes_allocated = 0;
    uint64_t peak_bytes_allocated = 0;
    uint64_t allocation_count = 0;
    uint64_t live_count = 0;  // allocations not yet freed
  };
  ByType device_local;
  ByType host_local;
};

class Allocator : public base::RefObject {
 public:
  // Largest single allocation this allocator accepts.
  uint64_t max_allocation_size() const { return max_allocation_size_; }
  // Whether the device computes on host memory itself (a CPU device): any mappable host buffer
  // then serves as device memory, and copying it into a "device-local" one gains nothing.
  virtual bool device_memory_is_host_memory() const { return false; }

  // Allocates |size| bytes (0 is allowed). The buffer reports at least the requested type, usage and
  // access. RESOURCE_EXHAUSTED over max_allocation_size() or when memory runs out, its message
  // followed by DescribeLive(); INVALID_ARGUMENT for memory types or usages this device cannot
  // provide.
  base::StatusOr<base::Ref<Buffer>> AllocateBuffer(const BufferParams& params, uint64_t size);
  // AllocateBuffer for QueueAlloca: the buffer's transient_storage() lets queue_dealloca release
  // the memory while handles remain. |alloca_flags| are the AllocaFlag bits.
  base::StatusOr<base::Ref<Buffer>> AllocateTransient(const BufferParams& params, uint64_t size,
                                                      uint64_t alloca_flags);

  // Wraps caller-owned host memory without copying. |release| (may be empty) runs once when the last
  // buffer referencing the memory is released. On failure |release| is not called and the caller
  // still owns the memory. UNIMPLEMENTED if this device cannot use host memory directly.
  base::StatusOr<base::Ref<Buffer>> ImportHostBuffer(const BufferParams& params, void* host_ptr,
                                                     uint64_t size, HostReleaseCallback release);

  AllocatorStatistics statistics() const;
  // "live in local-task: DEVICE_LOCAL 4096 B in 2 buffers (peak 8192 B), HOST_LOCAL 0 B in 0
  // buffers (peak 64 B)": what was live, for the message of an allocation that failed.
  std::string DescribeLive() const;

  // The series name of this allocator's live bytes on base::trace's "live device memory"
  // counter (the device sets it to its id before anything is allocated).
  void set_trace_name(std::string name) { trace_name_ = std::move(name); }

 protected:
  explicit Allocator(uint64_t max_allocation_size) : max_allocation_size_(max_allocation_size) {}

  // Drivers account their live bytes through these so statistics() and limits stay in one place.
  // |type| is the allocated buffer's memory type (the same for both calls of one buffer).
  void RecordAllocation(uint64_t size, MemoryTypeBits type);
  void RecordDeallocation(uint64_t size, MemoryTypeBits type);

 private:
  // |status| followed by DescribeLive() when it is RESOURCE_EXHAUSTED.
  base::Status Exhausted(base::Status status) const;

  virtual base::StatusOr<base::Ref<Buffer>> AllocateBufferImpl(const BufferParams& params,
                                                               uint64_t size) = 0;
  // Default: an AllocateBufferImpl buffer wrapped in a utils::TransientBuffer.
  virtual base::StatusOr<base::Ref<Buffer>> AllocateTransientImpl(const BufferParams& params,
                                                                  uint64_t size,
                                                                  uint64_t alloca_flags);
  virtual base::StatusOr<base::Ref<Buffer>> ImportHostBufferImpl(const BufferParams& params,
                                                                 void* host_ptr, uint64_t size,
                                                                 HostReleaseCallback release) = 0;

  const uint64_t max_allocation_size_;
  std::atomic<uint64_t> bytes_allocated_{0};
  std::atomic<uint64_t> peak_bytes_allocated_{0};
  std::atomic<uint64_t> allocation_count_{0};
  struct TypeCounters {
    std::atomic<uint64_t> bytes{0};
    std::atomic<uint64_t> peak{0};
    std::atomic<uint64_t> count{0};
    std::atomic<uint64_t> live{0};
  };
  TypeCounters by_type_[2];  // [0] device-local, [1] host-local
  std::string trace_name_ = "allocator";
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_ALLOCATOR_H_
