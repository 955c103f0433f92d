// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "tooling/device_upload.h"

#include <cstring>

#include "hal/semaphore.h"

namespace iree_rt::tooling {

using base::Ref;
using base::Status;
using base::StatusOr;

namespace {

bool HostMappable(const hal::Buffer& buffer) {
  return (buffer.memory_type() & hal::MemoryType::kHostVisible) &&
         (buffer.allowed_usage() & hal::BufferUsage::kMappingScoped);
}

// Copies |length| bytes from the start of |source| to |target| on the device queue and waits.
Status QueueCopyAndWait(hal::Device& device, const Ref<hal::Buffer>& source,
                        const Ref<hal::Buffer>& target, uint64_t length) {
  RT_ASSIGN_OR_RETURN(Ref<hal::Semaphore> done, device.CreateSemaphore(0));
  const hal::SemaphorePoint signal{done.get(), 1};
  RT_RETURN_IF_ERROR(device.QueueCopy(hal::kQueueAffinityAny, {}, {&signal, 1}, source, 0, target,
                                      0, length));
  return done->Wait(1, hal::kInfiniteTimeout);
}

}  // namespace

StatusOr<Ref<hal::BufferView>> UploadToDevice(const Ref<hal::BufferView>& view, hal::Device& device) {
  const Ref<hal::Buffer>& source = view->buffer();
  if ((source->memory_type() & hal::MemoryType::kDeviceLocal) == hal::MemoryType::kDeviceLocal) {
    return view;
  }
  // A CPU device computes on the parsed buffer as it is: no second allocation, no copy.
  if (device.allocator().device_memory_is_host_memory() && HostMappable(*source) &&
      (source->memory_type() & hal::MemoryType::kDeviceVisible)) {
    return view;
  }
  const uint64_t length = view->byte_length();
  hal::BufferParams params;
  params.type = hal::MemoryType::kDeviceLocal;
  params.usage = hal::BufferUsage::kDefault | hal::BufferUsage::kTransfer;
  params.access = hal::MemoryAccess::kAll;
  RT_ASSIGN_OR_RETURN(Ref<hal::Buffer> target, device.allocator().AllocateBuffer(params, length));
  if (length == 0) {
    // Nothing to copy.
  } else if (HostMappable(*target)) {
    RT_ASSIGN_OR_RETURN(uint8_t * from, source->Map(hal::MemoryAccess::kRead, 0, length));
    RT_ASSIGN_OR_RETURN(uint8_t * to, target->Map(hal::MemoryAccess::kDiscardWrite, 0, length));
    std::memcpy(to, from, length);
  } else {
    RT_RETURN_IF_ERROR(QueueCopyAndWait(device, source, target, length));
  }
  return hal::BufferView::Create(std::move(target), view->shape(), view->element_type(),
                                 view->encoding());
}

StatusOr<Ref<hal::BufferView>> DownloadToHost(const Ref<hal::BufferView>& view, hal::Device& device) {
  const Ref<hal::Buffer>& source = view->buffer();
  if (HostMappable(*source)) return view;
  const uint64_t length = view->byte_length();
  hal::BufferParams params;
  params.type = hal::MemoryType::kHostLocal;
  params.usage = hal::BufferUsage::kTransfer | hal::BufferUsage::kMapping;
  params.access = hal::MemoryAccess::kAll;
  RT_ASSIGN_OR_RETURN(Ref<hal::Buffer> target, device.allocator().AllocateBuffer(params, length));
  if (length != 0) {
    RT_RETURN_IF_ERROR(QueueCopyAndWait(device, source, target, length));
  }
  return hal::BufferView::Create(std::move(target), view->shape(), view->element_type(),
                                 view->encoding());
}

}  // namespace iree_rt::tooling
