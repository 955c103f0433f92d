// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/allocator.h"

#include <cstring>

#include "drivers/cuda/buffer.h"
#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

using base::Ref;
using base::StatusOr;
namespace MemoryType = hal::MemoryType;
namespace BufferUsage = hal::BufferUsage;

namespace {

// A bit only HOST_LOCAL has (HOST_LOCAL = 0x46, HOST_VISIBLE|HOST_COHERENT = 0x06).
constexpr hal::MemoryTypeBits kHostLocalOnlyBit = 0x40;

}  // namespace

hal::BufferParams Allocator::Promote(const hal::BufferParams& params) {
  hal::BufferParams promoted = params;
  const bool wants_mapping = (params.usage & BufferUsage::kMapping) != 0 ||
                             (params.type & MemoryType::kHostVisible) != 0;
  if (params.type & kHostLocalOnlyBit) {
    promoted.type = MemoryType::kHostLocal | MemoryType::kHostCached | MemoryType::kDeviceVisible;
  } else if (wants_mapping) {
    promoted.type = MemoryType::kDeviceLocal | MemoryType::kHostVisible | MemoryType::kHostCoherent;
  } else {
    promoted.type = MemoryType::kDeviceLocal;
  }
  promoted.type |= params.type & MemoryType::kOptimal;
  // Every CUDA allocation can be a transfer endpoint or dispatch storage.
  promoted.usage |= BufferUsage::kTransfer | BufferUsage::kDispatchStorage |
                    BufferUsage::kDispatchUniformRead | BufferUsage::kDispatchIndirectParameters;
  if (promoted.type & MemoryType::kHostVisible) {
    promoted.usage |= BufferUsage::kMappingScoped | BufferUsage::kMappingPersistent |
                      BufferUsage::kMappingAccessRandom;
  } else {
    promoted.usage &= ~(BufferUsage::kMapping | BufferUsage::kMappingPersistent |
                        BufferUsage::kMappingOptional | BufferUsage::kMappingAccessSequentialWrite);
  }
  if (promoted.access == hal::MemoryAccess::kNone) promoted.access = hal::MemoryAccess::kAll;
  return promoted;
}

std::function<void()> Allocator::MakeRelease(uint64_t size, hal::MemoryTypeBits type,
                                             std::function<void()> free) {
  RecordAllocation(size, type);
  return [self = Ref<Allocator>::Retain(this), size, type, free = std::move(free)]() {
    free();
    self->RecordDeallocation(size, type);
  };
}

StatusOr<Ref<hal::Buffer>> Allocator::AllocateBufferImpl(const hal::BufferParams& params,
                                                         uint64_t size) {
  const DynamicSymbols& syms = context_->syms();
  RT_RETURN_IF_ERROR(context_->Activate());
  hal::BufferParams promoted = Promote(params);
  // CUDA refuses zero-byte allocations; a small one keeps every buffer's pointer valid.
  const size_t bytes = size ? size : 4;
  Ref<Context> ctx = context_;
  if (promoted.type & kHostLocalOnlyBit) {
    void* host = nullptr;
    RT_CUDA_RETURN_IF_ERROR(
        syms, cuMemHostAlloc(&host, bytes, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE),
        "cuMemHostAlloc");
    CUdeviceptr device = 0;
    base::Status status = ToStatus(syms, syms.cuMemHostGetDevicePointer(&device, host, 0),
                                   "cuMemHostGetDevicePointer");
    if (!status.ok()) {
      syms.cuMemFreeHost(host);
      return status;
    }
    std::memset(host, 0, bytes);
    return Ref<hal::Buffer>(base::MakeRef<Buffer>(promoted, size, device, host, MakeRelease(size, promoted.type, [ctx, host] {
      ctx->Activate().IgnoreError();
      ctx->syms().cuMemFreeHost(host);
    })));
  }
  if (promoted.type & MemoryType::kHostVisible) {
    size_t free_bytes = 0, total_bytes = 0;
    RT_CUDA_RETURN_IF_ERROR(syms, cuMemGetInfo(&free_bytes, &total_bytes), "cuMemGetInfo");
    // Managed memory can oversubscribe and then thrash or get the process killed; refuse instead.
    if (bytes > free_bytes) {
      return base::ResourceExhaustedError("managed allocation of ", size, " bytes exceeds the ",
                                          free_bytes, " bytes free on the device");
    }
    CUdeviceptr device = 0;
    RT_CUDA_RETURN_IF_ERROR(syms, cuMemAllocManaged(&device, bytes, CU_MEM_ATTACH_GLOBAL),
                            "cuMemAllocManaged");
    void* host = reinterpret_cast<void*>(device);
    context_->BeforeManagedHostAccess();
    std::memset(host, 0, bytes);
    Ref<Buffer> buffer = base::MakeRef<Buffer>(promoted, size, device, host, MakeRelease(size, promoted.type, [ctx, device] {
      ctx->Activate().IgnoreError();
      ctx->syms().cuMemFree(device);
    }));
    buffer->set_managed(ctx);
    return Ref<hal::Buffer>(std::move(buffer));
  }
  CUdeviceptr device = 0;
  RT_CUDA_RETURN_IF_ERROR(syms, cuMemAlloc(&device, bytes), "cuMemAlloc");
  // Zeroed in stream order: every later use of the buffer goes through the dispatch stream.
  base::Status status = ToStatus(syms, syms.cuMemsetD8Async(device, 0, bytes, context_->dispatch_stream()),
                                 "cuMemsetD8Async (zeroing)");
  if (!status.ok()) {
    syms.cuMemFree(device);
    return status;
  }
  return Ref<hal::Buffer>(base::MakeRef<Buffer>(promoted, size, device, nullptr, MakeRelease(size, promoted.type, [ctx, device] {
    ctx->Activate().IgnoreError();
    ctx->syms().cuMemFree(device);
  })));
}

StatusOr<Ref<hal::Buffer>> Allocator::AllocateFromPool(const hal::BufferParams& params, uint64_t size,
                                                       bool* enqueued) {
  if (!context_->memory_pool()) return base::UnavailableError("async allocations are disabled");
  hal::BufferParams promoted = Promote(params);
  promoted.type = MemoryType::kDeviceLocal | (params.type & MemoryType::kOptimal);
  const uint64_t bytes = size ? size : 4;
  CUdeviceptr device = pool_blocks_->Take(bytes);
  *enqueued = !device;
  if (!device) {
    const DynamicSymbols& syms = context_->syms();
    RT_RETURN_IF_ERROR(context_->Activate());
    CUstream stream = context_->dispatch_stream();
    CUresult result = syms.cuMemAllocFromPoolAsync(&device, bytes, context_->memory_pool(), stream);
    // Blocks of other sizes held for reuse may be what the pool is missing.
    if (result == CUDA_ERROR_OUT_OF_MEMORY && pool_blocks_->Flush()) {
      result = syms.cuMemAllocFromPoolAsync(&device, bytes, context_->memory_pool(), stream);
    }
    RT_RETURN_IF_ERROR(ToStatus(syms, result, "cuMemAllocFromPoolAsync"));
  }
  // Given back where the stream-ordered free would be enqueued: after every use already enqueued
  // on the dispatch stream.
  return Ref<hal::Buffer>(base::MakeRef<Buffer>(
      promoted, size, device, nullptr,
      MakeRelease(size, promoted.type, [blocks = pool_blocks_, device, bytes] { blocks->Give(bytes, device); })));
}

StatusOr<Ref<hal::Buffer>> Allocator::ImportHostBufferImpl(const hal::BufferParams& params,
                                                           void* host_ptr, uint64_t size,
                                                           hal::HostReleaseCallback release) {
  const DynamicSymbols& syms = context_->syms();
  RT_RETURN_IF_ERROR(context_->Activate());
  hal::BufferParams promoted = Promote(params);
  promoted.type = MemoryType::kHostLocal | MemoryType::kHostCached | MemoryType::kDeviceVisible;
  promoted.usage |= BufferUsage::kMappingScoped | BufferUsage::kMappingPersistent |
                    BufferUsage::kMappingAccessRandom;
  CUdeviceptr device = 0;
  bool registered = false;
  // Immutable data the caller reads only on the device (compiled programs import their constants
  // so, asking for DEVICE_LOCAL): pinned host memory would make every dispatch read it over the
  // bus (a 3-7x slower MLP and CNN), so it is copied to device memory once instead.
  const bool immutable = (params.usage & BufferUsage::kSharingImmutable) &&
                         !(params.access & hal::MemoryAccess::kWrite);
  if (size && immutable && !(Promote(params).type & MemoryType::kHostVisible)) {
    return ImportByCopy(params, host_ptr, size, std::move(release));
  }
  if (size) {
    // Not CU_MEMHOSTREGISTER_READ_ONLY: with it, imports of a module's rodata (a MAP_PRIVATE
    // file mapping, where a read-only pin may keep page-cache pages the process later copies on
    // write) made one e2e program hang on an H100; without it every test passes. Pages CUDA will
    // not pin read-write (truly read-only memory, or pages an overlapping import registered) are
    // served by a copy when nobody writes through the buffer.
    const bool read_only = !(params.access & hal::MemoryAccess::kWrite);
    base::Status status = ToStatus(
        syms, syms.cuMemHostRegister(host_ptr, size, CU_MEMHOSTREGISTER_DEVICEMAP | CU_MEMHOSTREGISTER_PORTABLE),
        "cuMemHostRegister");
    if (!status.ok()) {
      if (read_only) return ImportByCopy(params, host_ptr, size, std::move(release));
      return status;
    }
    registered = true;
    status = ToStatus(syms, syms.cuMemHostGetDevicePointer(&device, host_ptr, 0), "cuMemHostGetDevicePointer");
    if (!status.ok()) {
      syms.cuMemHostUnregister(host_ptr);
      return status;
    }
  }
  Ref<Context> ctx = context_;
  return Ref<hal::Buffer>(base::MakeRef<Buffer>(
      promoted, size, device, host_ptr,
      [ctx, host_ptr, registered, release = std::move(release)] {
        if (registered) {
          ctx->Activate().IgnoreError();
          ctx->syms().cuMemHostUnregister(host_ptr);
        }
        if (release) release();
      }));
}

StatusOr<Ref<hal::Buffer>> Allocator::ImportByCopy(const hal::BufferParams& params, const void* host_ptr,
                                                   uint64_t size, hal::HostReleaseCallback release) {
  hal::BufferParams copy_params = params;
  const bool device_only = !(Promote(params).type & MemoryType::kHostVisible);
  copy_params.type = MemoryType::kDeviceLocal | (device_only ? 0 : MemoryType::kHostVisible);
  RT_ASSIGN_OR_RETURN(Ref<hal::Buffer> copy, AllocateBufferImpl(copy_params, size));
  auto* cuda_copy = static_cast<Buffer*>(copy.get());
  if (device_only) {
    // Ordered after the allocation's zeroing on the dispatch stream, and complete on return.
    const DynamicSymbols& syms = context_->syms();
    CUstream stream = context_->dispatch_stream();
    RT_CUDA_RETURN_IF_ERROR(syms, cuMemcpyHtoDAsync(cuda_copy->device_ptr(), host_ptr, size, stream),
                            "cuMemcpyHtoDAsync (import copy)");
    RT_CUDA_RETURN_IF_ERROR(syms, cuStreamSynchronize(stream), "cuStreamSynchronize (import copy)");
  } else {
    context_->BeforeManagedHostAccess();
    std::memcpy(cuda_copy->host_ptr(), host_ptr, size);
  }
  // The caller's release callback still runs when the buffer goes away, as for a real import;
  // the wrapper owns the copy and runs both.
  Ref<Buffer> wrapper = base::MakeRef<Buffer>(
      Promote(copy_params), size, cuda_copy->device_ptr(), cuda_copy->host_ptr(),
      [copy, release = std::move(release)]() mutable {
        copy = nullptr;
        if (release) release();
      });
  if (!device_only) wrapper->set_managed(context_);
  return Ref<hal::Buffer>(std::move(wrapper));
}

StatusOr<Ref<hal::Buffer>> Allocator::ImportDevicePointer(const hal::BufferParams& params,
                                                          CUdeviceptr device_ptr, uint64_t size,
                                                          hal::HostReleaseCallback release) {
  if (!device_ptr && size) return base::InvalidArgumentError("importing a null device pointer");
  hal::BufferParams promoted = Promote(params);
  promoted.type = MemoryType::kDeviceLocal | (params.type & MemoryType::kOptimal);
  return Ref<hal::Buffer>(base::MakeRef<Buffer>(promoted, size, device_ptr, nullptr,
                                                [release = std::move(release)] {
                                                  if (release) release();
                                                }));
}

}  // namespace iree_rt::drivers::cuda
