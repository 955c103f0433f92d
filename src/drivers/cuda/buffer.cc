// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/buffer.h"

#include "hal/utils/transient_buffer.h"

namespace iree_rt::drivers::cuda {

Buffer::Buffer(const hal::BufferParams& params, uint64_t size, CUdeviceptr device_ptr,
               void* host_ptr, std::function<void()> release)
    : hal::Buffer(params.type, params.usage, params.access, size),
      device_ptr_(device_ptr),
      host_ptr_(host_ptr),
      release_(std::move(release)) {}

Buffer::~Buffer() {
  if (release_) release_();
}

Buffer* Buffer::Cast(hal::Buffer* buffer) { return dynamic_cast<Buffer*>(buffer); }

base::StatusOr<CUdeviceptr> Buffer::ResolveDevicePointer(hal::Buffer* buffer, uint64_t offset) {
  if (!buffer) return CUdeviceptr{0};
  hal::Buffer* root = buffer->allocated_buffer();
  offset += buffer->byte_offset();
  // Queue allocas wrap their storage; a decommitted one must never reach the GPU.
  base::Ref<hal::Buffer> storage;
  if (auto* transient = dynamic_cast<hal::utils::TransientBuffer*>(root)) {
    storage = transient->storage();
    if (!storage) {
      return base::FailedPreconditionError("buffer used after its queue dealloca released the storage");
    }
    root = storage->allocated_buffer();
    offset += storage->byte_offset();
  }
  Buffer* cuda_buffer = Cast(root);
  if (!cuda_buffer) {
    return base::InvalidArgumentError("buffer was not allocated by a CUDA device (memory type ",
                                      hal::MemoryTypeToString(root->memory_type()), ")");
  }
  return cuda_buffer->device_ptr_ + offset;
}

base::StatusOr<uint8_t*> Buffer::MapImpl(uint64_t offset, uint64_t length) {
  if (managed_context_) managed_context_->BeforeManagedHostAccess();
  if (!host_ptr_) {
    return base::FailedPreconditionError("device-local CUDA memory (",
                                         hal::MemoryTypeToString(memory_type()),
                                         ") cannot be mapped on the host; allocate it HOST_VISIBLE");
  }
  return static_cast<uint8_t*>(host_ptr_) + offset;
}

}  // namespace iree_rt::drivers::cuda
