// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::Buffer: a root allocation the GPU can address: device memory (cuMemAlloc or a memory
// pool), managed memory, pinned host memory, or imported host/device memory.
//
// It carries the CUdeviceptr the GPU uses and, when host-visible, the host pointer Map returns.
// How the memory is given back is a closure chosen by whoever made it (the allocator), so the
// buffer itself stays one small class for every memory kind.
#ifndef IREE_RT_DRIVERS_CUDA_BUFFER_H_
#define IREE_RT_DRIVERS_CUDA_BUFFER_H_

#include <cuda.h>

#include <functional>

#include "drivers/cuda/context.h"
#include "hal/buffer.h"

namespace iree_rt::drivers::cuda {

class Buffer final : public hal::Buffer {
 public:
  // |host_ptr| null means not host-mappable. |release| runs once, from the destructor.
  Buffer(const hal::BufferParams& params, uint64_t size, CUdeviceptr device_ptr, void* host_ptr,
         std::function<void()> release);
  ~Buffer() override;

  CUdeviceptr device_ptr() const { return device_ptr_; }
  // Marks managed memory: host maps first call Context::BeforeManagedHostAccess.
  void set_managed(base::Ref<Context> context) { managed_context_ = std::move(context); }
  void* host_ptr() const { return host_ptr_; }

  // The cuda::Buffer behind |buffer|, or null if it belongs to another driver.
  static Buffer* Cast(hal::Buffer* buffer);

  // The device address of byte |offset| of |buffer| (which may be a subspan or a queue-alloca'd
  // buffer). FAILED_PRECONDITION if its storage was released by a dealloca; INVALID_ARGUMENT if
  // the memory is not CUDA memory.
  static base::StatusOr<CUdeviceptr> ResolveDevicePointer(hal::Buffer* buffer, uint64_t offset);

 private:
  base::StatusOr<uint8_t*> MapImpl(uint64_t offset, uint64_t length) override;

  const CUdeviceptr device_ptr_;
  void* const host_ptr_;
  std::function<void()> release_;
  base::Ref<Context> managed_context_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_BUFFER_H_
