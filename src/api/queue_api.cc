// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_device_queue_*: asynchronous queue operations ordered by fences.
#include "api/convert.h"
#include "api/handles.h"
#include "api/status_bridge.h"
#include "iree_rt.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace hal = iree_rt::hal;
using api::BufferHandle;
using api::DeviceHandle;
using api::FromHandle;
using api::Guard;
using api::QueueFences;
using hal::kQueueAffinityAny;

static_assert(IREE_RT_ALLOCA_FLAG_INDETERMINATE_LIFETIME ==
              hal::AllocaFlag::kIndeterminateLifetime);

iree_rt_status_t iree_rt_device_queue_execute(
    iree_rt_device_t device, iree_rt_fence_t wait_fence, iree_rt_fence_t signal_fence,
    iree_rt_command_buffer_t command_buffer, const iree_rt_buffer_t* binding_buffers,
    const uint64_t* binding_offsets, const uint64_t* binding_lengths, size_t binding_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceHandle * d, FromHandle(device, "device"));
    RT_ASSIGN_OR_RETURN(QueueFences fences, QueueFences::Resolve(wait_fence, signal_fence));
    RT_ASSIGN_OR_RETURN(api::CommandBufferHandle * cb,
                        api::FromNullableHandle(command_buffer, "command_buffer"));
    RT_ASSIGN_OR_RETURN(
        std::vector<hal::BufferBinding> table,
        api::MakeBindingTable(binding_buffers, binding_offsets, binding_lengths, binding_count));
    Ref<hal::CommandBuffer> commands = cb ? cb->command_buffer : nullptr;
    return d->device->QueueExecute(kQueueAffinityAny, fences.wait(), fences.signal(), commands,
                                   table);
  });
}

iree_rt_status_t iree_rt_device_queue_fill(iree_rt_device_t device, iree_rt_fence_t wait_fence,
                                           iree_rt_fence_t signal_fence, iree_rt_buffer_t target,
                                           uint64_t target_offset, uint64_t length,
                                           const void* pattern, size_t pattern_length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceHandle * d, FromHandle(device, "device"));
    RT_ASSIGN_OR_RETURN(QueueFences fences, QueueFences::Resolve(wait_fence, signal_fence));
    RT_ASSIGN_OR_RETURN(BufferHandle * t, FromHandle(target, "target"));
    RT_ASSIGN_OR_RETURN(uint32_t bits, api::FillPattern(pattern, pattern_length));
    return d->device->QueueFill(kQueueAffinityAny, fences.wait(), fences.signal(), t->buffer,
                                target_offset, length, bits, static_cast<uint32_t>(pattern_length));
  });
}

iree_rt_status_t iree_rt_device_queue_copy(iree_rt_device_t device, iree_rt_fence_t wait_fence,
                                           iree_rt_fence_t signal_fence, iree_rt_buffer_t source,
                                           uint64_t source_offset, iree_rt_buffer_t target,
                                           uint64_t target_offset, uint64_t length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceHandle * d, FromHandle(device, "device"));
    RT_ASSIGN_OR_RETURN(QueueFences fences, QueueFences::Resolve(wait_fence, signal_fence));
    RT_ASSIGN_OR_RETURN(BufferHandle * s, FromHandle(source, "source"));
    RT_ASSIGN_OR_RETURN(BufferHandle * t, FromHandle(target, "target"));
    RT_RETURN_IF_ERROR(api::CheckExactLength(length, "length"));
    return d->device->QueueCopy(kQueueAffinityAny, fences.wait(), fences.signal(), s->buffer,
                                source_offset, t->buffer, target_offset, length);
  });
}

iree_rt_status_t iree_rt_device_queue_update(iree_rt_device_t device, iree_rt_fence_t wait_fence,
                                             iree_rt_fence_t signal_fence, const void* source,
                                             uint64_t length, iree_rt_buffer_t target,
                                             uint64_t target_offset) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceHandle * d, FromHandle(device, "device"));
    RT_ASSIGN_OR_RETURN(QueueFences fences, QueueFences::Resolve(wait_fence, signal_fence));
    RT_RETURN_IF_ERROR(api::CheckExactLength(length, "length"));
    RT_RETURN_IF_ERROR(api::CheckArray(source, length, "source"));
    RT_ASSIGN_OR_RETURN(BufferHandle * t, FromHandle(target, "target"));
    return d->device->QueueUpdate(kQueueAffinityAny, fences.wait(), fences.signal(), source, length,
                                  t->buffer, target_offset);
  });
}

iree_rt_status_t iree_rt_device_queue_alloca(iree_rt_device_t device, iree_rt_fence_t wait_fence,
                                             iree_rt_fence_t signal_fence,
                                             iree_rt_memory_type_t memory_type,
                                             iree_rt_buffer_usage_t usage, uint64_t size,
                                             iree_rt_alloca_flags_t flags,
                                             iree_rt_buffer_t* out_buffer) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceHandle * d, FromHandle(device, "device"));
    RT_ASSIGN_OR_RETURN(QueueFences fences, QueueFences::Resolve(wait_fence, signal_fence));
    RT_RETURN_IF_ERROR(api::CheckNotNull(out_buffer, "out_buffer"));
    auto handle = MakeRef<BufferHandle>(nullptr);  // before enqueueing: nothing can fail after
    hal::BufferParams params{memory_type, usage, hal::MemoryAccess::kAll};
    RT_ASSIGN_OR_RETURN(handle->buffer,
                        d->device->QueueAlloca(kQueueAffinityAny, fences.wait(), fences.signal(),
                                               params, size, flags));
    *out_buffer = api::ToHandle(std::move(handle));
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_device_queue_dealloca(iree_rt_device_t device, iree_rt_fence_t wait_fence,
                                               iree_rt_fence_t signal_fence,
                                               iree_rt_buffer_t buffer) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceHandle * d, FromHandle(device, "device"));
    RT_ASSIGN_OR_RETURN(QueueFences fences, QueueFences::Resolve(wait_fence, signal_fence));
    RT_ASSIGN_OR_RETURN(BufferHandle * b, FromHandle(buffer, "buffer"));
    return d->device->QueueDealloca(kQueueAffinityAny, fences.wait(), fences.signal(), b->buffer,
                                    0);
  });
}

iree_rt_status_t iree_rt_device_queue_barrier(iree_rt_device_t device, iree_rt_fence_t wait_fence,
                                              iree_rt_fence_t signal_fence) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(DeviceHandle * d, FromHandle(device, "device"));
    RT_ASSIGN_OR_RETURN(QueueFences fences, QueueFences::Resolve(wait_fence, signal_fence));
    return d->device->QueueBarrier(kQueueAffinityAny, fences.wait(), fences.signal());
  });
}
