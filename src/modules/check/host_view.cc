// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/check/host_view.h"

#include "hal/semaphore.h"

namespace iree_rt::modules::check {

using base::Ref;
using base::StatusOr;

bool IsHostReadable(const hal::Buffer& buffer) {
  return (buffer.memory_type() & hal::MemoryType::kHostVisible) &&
         (buffer.allowed_usage() &
          (hal::BufferUsage::kMappingScoped | hal::BufferUsage::kMappingPersistent)) &&
         (buffer.allowed_access() & hal::MemoryAccess::kRead);
}

namespace {

StatusOr<HostView> Map(Ref<hal::BufferView> view) {
  HostView host;
  const uint64_t length = view->byte_length();
  if (length > 0) {
    RT_ASSIGN_OR_RETURN(uint8_t* data, view->buffer()->Map(hal::MemoryAccess::kRead, 0, length));
    host.data = std::span<const uint8_t>(data, length);
  }
  host.view = std::move(view);
  return host;
}

}  // namespace

StatusOr<HostView> MapViewOnHost(hal::Device* device, const Ref<hal::BufferView>& view) {
  const Ref<hal::Buffer>& source = view->buffer();
  if (IsHostReadable(*source)) return Map(view);
  if (device == nullptr) {
    return base::InvalidArgumentError("the buffer (",
                                      hal::MemoryTypeToString(source->memory_type()),
                                      ") is not host-mappable and no device was given to read it");
  }

  // Device-only memory: copy it into host memory on the device's queue and wait for the copy.
  const uint64_t length = view->byte_length();
  hal::BufferParams params;
  params.type = hal::MemoryType::kHostLocal | hal::MemoryType::kDeviceVisible;
  params.usage = hal::BufferUsage::kTransfer | hal::BufferUsage::kMappingScoped;
  params.access = hal::MemoryAccess::kAll;
  RT_ASSIGN_OR_RETURN(Ref<hal::Buffer> staging, device->allocator().AllocateBuffer(params, length));
  if (length > 0) {
    RT_ASSIGN_OR_RETURN(Ref<hal::Semaphore> done, device->CreateSemaphore(0));
    const hal::SemaphorePoint signal[] = {{done.get(), 1}};
    RT_RETURN_IF_ERROR(device->QueueCopy(hal::kQueueAffinityAny, {}, signal, source, 0, staging, 0,
                                         length));
    RT_RETURN_IF_ERROR(done->Wait(1, hal::kInfiniteTimeout));
  }
  RT_ASSIGN_OR_RETURN(Ref<hal::BufferView> copy,
                      hal::BufferView::Create(std::move(staging), view->shape(),
                                              view->element_type(), view->encoding()));
  return Map(std::move(copy));
}

}  // namespace iree_rt::modules::check
