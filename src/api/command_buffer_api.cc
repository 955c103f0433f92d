// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_command_buffer_*.
#include "api/convert.h"
#include "api/handles.h"
#include "api/status_bridge.h"
#include "iree_rt.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace hal = iree_rt::hal;
using api::CommandBufferHandle;
using api::FromHandle;
using api::Guard;

static_assert(IREE_RT_COMMAND_BUFFER_MODE_ONE_SHOT == hal::CommandBufferMode::kOneShot);
static_assert(IREE_RT_COMMAND_BUFFER_MODE_ALLOW_INLINE_EXECUTION ==
              hal::CommandBufferMode::kAllowInlineExecution);
static_assert(IREE_RT_COMMAND_BUFFER_MODE_UNVALIDATED == hal::CommandBufferMode::kUnvalidated);
static_assert(IREE_RT_COMMAND_CATEGORY_TRANSFER == hal::CommandCategory::kTransfer);
static_assert(IREE_RT_COMMAND_CATEGORY_DISPATCH == hal::CommandCategory::kDispatch);
static_assert(IREE_RT_COMMAND_CATEGORY_ANY == hal::CommandCategory::kAny);

iree_rt_status_t iree_rt_command_buffer_create(iree_rt_device_t device,
                                               iree_rt_command_buffer_mode_t mode,
                                               iree_rt_command_category_t categories,
                                               uint32_t binding_capacity,
                                               iree_rt_command_buffer_t* out_command_buffer) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::DeviceHandle * d, FromHandle(device, "device"));
    RT_RETURN_IF_ERROR(api::CheckNotNull(out_command_buffer, "out_command_buffer"));
    RT_ASSIGN_OR_RETURN(
        Ref<hal::CommandBuffer> command_buffer,
        d->device->CreateCommandBuffer(mode, categories, hal::kQueueAffinityAny, binding_capacity));
    *out_command_buffer = api::ToHandle(MakeRef<CommandBufferHandle>(std::move(command_buffer)));
    return Status::Ok();
  });
}

void iree_rt_command_buffer_retain(iree_rt_command_buffer_t command_buffer) {
  api::RetainHandle(command_buffer);
}

void iree_rt_command_buffer_release(iree_rt_command_buffer_t command_buffer) {
  api::ReleaseHandle(command_buffer);
}

iree_rt_status_t iree_rt_command_buffer_fill(iree_rt_command_buffer_t command_buffer,
                                             iree_rt_buffer_t target, uint32_t target_slot,
                                             uint64_t target_offset, uint64_t length,
                                             const void* pattern, size_t pattern_length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(CommandBufferHandle * cb, FromHandle(command_buffer, "command_buffer"));
    RT_ASSIGN_OR_RETURN(hal::BufferRef ref,
                        api::MakeBufferRef(target, "target", target_slot, target_offset, length));
    RT_ASSIGN_OR_RETURN(uint32_t bits, api::FillPattern(pattern, pattern_length));
    return cb->command_buffer->Fill(ref, bits, static_cast<uint32_t>(pattern_length));
  });
}

iree_rt_status_t iree_rt_command_buffer_update(iree_rt_command_buffer_t command_buffer,
                                               const void* source, uint64_t length,
                                               iree_rt_buffer_t target, uint32_t target_slot,
                                               uint64_t target_offset) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(CommandBufferHandle * cb, FromHandle(command_buffer, "command_buffer"));
    RT_RETURN_IF_ERROR(api::CheckExactLength(length, "length"));
    RT_RETURN_IF_ERROR(api::CheckArray(source, length, "source"));
    RT_ASSIGN_OR_RETURN(hal::BufferRef ref,
                        api::MakeBufferRef(target, "target", target_slot, target_offset, length));
    return cb->command_buffer->Update(source, length, ref);
  });
}

iree_rt_status_t iree_rt_command_buffer_copy(iree_rt_command_buffer_t command_buffer,
                                             iree_rt_buffer_t source, uint32_t source_slot,
                                             uint64_t source_offset, iree_rt_buffer_t target,
                                             uint32_t target_slot, uint64_t target_offset,
                                             uint64_t length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(CommandBufferHandle * cb, FromHandle(command_buffer, "command_buffer"));
    RT_RETURN_IF_ERROR(api::CheckExactLength(length, "length"));
    RT_ASSIGN_OR_RETURN(hal::BufferRef from,
                        api::MakeBufferRef(source, "source", source_slot, source_offset, length));
    RT_ASSIGN_OR_RETURN(hal::BufferRef to,
                        api::MakeBufferRef(target, "target", target_slot, target_offset, length));
    return cb->command_buffer->Copy(from, to, length);
  });
}

iree_rt_status_t iree_rt_command_buffer_dispatch(
    iree_rt_command_buffer_t command_buffer, iree_rt_executable_t executable,
    uint32_t export_ordinal, uint32_t workgroup_count_x, uint32_t workgroup_count_y,
    uint32_t workgroup_count_z, const uint32_t* constants, size_t constant_count,
    const iree_rt_buffer_t* buffers, const uint32_t* slots, const uint64_t* offsets,
    const uint64_t* lengths, size_t binding_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(CommandBufferHandle * cb, FromHandle(command_buffer, "command_buffer"));
    RT_ASSIGN_OR_RETURN(api::ExecutableHandle * e, FromHandle(executable, "executable"));
    RT_RETURN_IF_ERROR(api::CheckArray(constants, constant_count, "constants"));
    RT_ASSIGN_OR_RETURN(std::vector<hal::BufferRef> bindings,
                        api::MakeBufferRefs(buffers, slots, offsets, lengths, binding_count));
    hal::DispatchConfig config;
    config.workgroup_count[0] = workgroup_count_x;
    config.workgroup_count[1] = workgroup_count_y;
    config.workgroup_count[2] = workgroup_count_z;
    std::span<const uint32_t> constant_span(constants, constants ? constant_count : 0);
    return cb->command_buffer->Dispatch(e->executable, export_ordinal, config, constant_span,
                                        bindings, hal::DispatchFlag::kNone);
  });
}

iree_rt_status_t iree_rt_command_buffer_barrier(iree_rt_command_buffer_t command_buffer) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(CommandBufferHandle * cb, FromHandle(command_buffer, "command_buffer"));
    return cb->command_buffer->ExecutionBarrier(0, 0);
  });
}

iree_rt_status_t iree_rt_command_buffer_finalize(iree_rt_command_buffer_t command_buffer) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(CommandBufferHandle * cb, FromHandle(command_buffer, "command_buffer"));
    return cb->command_buffer->Finalize();
  });
}
