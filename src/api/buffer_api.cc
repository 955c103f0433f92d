// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_buffer_*: allocation, import, subspans, properties and synchronous host access.
#include <cstring>

#include "api/convert.h"
#include "api/handles.h"
#include "api/status_bridge.h"
#include "hal/allocator.h"
#include "iree_rt.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace hal = iree_rt::hal;
using api::BufferHandle;
using api::CheckExactLength;
using api::CheckNotNull;
using api::FromHandle;
using api::Guard;

// The public bit values are the HAL's (and the compiler's) own.
static_assert(IREE_RT_MEMORY_TYPE_OPTIMAL == hal::MemoryType::kOptimal);
static_assert(IREE_RT_MEMORY_TYPE_HOST_VISIBLE == hal::MemoryType::kHostVisible);
static_assert(IREE_RT_MEMORY_TYPE_HOST_COHERENT == hal::MemoryType::kHostCoherent);
static_assert(IREE_RT_MEMORY_TYPE_HOST_CACHED == hal::MemoryType::kHostCached);
static_assert(IREE_RT_MEMORY_TYPE_HOST_LOCAL == hal::MemoryType::kHostLocal);
static_assert(IREE_RT_MEMORY_TYPE_DEVICE_VISIBLE == hal::MemoryType::kDeviceVisible);
static_assert(IREE_RT_MEMORY_TYPE_DEVICE_LOCAL == hal::MemoryType::kDeviceLocal);
static_assert(IREE_RT_BUFFER_USAGE_TRANSFER == hal::BufferUsage::kTransfer);
static_assert(IREE_RT_BUFFER_USAGE_DISPATCH_INDIRECT_PARAMETERS ==
              hal::BufferUsage::kDispatchIndirectParameters);
static_assert(IREE_RT_BUFFER_USAGE_DISPATCH_UNIFORM_READ == hal::BufferUsage::kDispatchUniformRead);
static_assert(IREE_RT_BUFFER_USAGE_DISPATCH_STORAGE == hal::BufferUsage::kDispatchStorage);
static_assert(IREE_RT_BUFFER_USAGE_DISPATCH_IMAGE == hal::BufferUsage::kDispatchImage);
static_assert(IREE_RT_BUFFER_USAGE_DISPATCH == hal::BufferUsage::kDispatch);
static_assert(IREE_RT_BUFFER_USAGE_SHARING_EXPORT == hal::BufferUsage::kSharingExport);
static_assert(IREE_RT_BUFFER_USAGE_SHARING_REPLICATE == hal::BufferUsage::kSharingReplicate);
static_assert(IREE_RT_BUFFER_USAGE_SHARING_CONCURRENT == hal::BufferUsage::kSharingConcurrent);
static_assert(IREE_RT_BUFFER_USAGE_SHARING_IMMUTABLE == hal::BufferUsage::kSharingImmutable);
static_assert(IREE_RT_BUFFER_USAGE_MAPPING_SCOPED == hal::BufferUsage::kMappingScoped);
static_assert(IREE_RT_BUFFER_USAGE_MAPPING_PERSISTENT == hal::BufferUsage::kMappingPersistent);
static_assert(IREE_RT_BUFFER_USAGE_MAPPING_OPTIONAL == hal::BufferUsage::kMappingOptional);
static_assert(IREE_RT_BUFFER_USAGE_MAPPING_ACCESS_RANDOM == hal::BufferUsage::kMappingAccessRandom);
static_assert(IREE_RT_BUFFER_USAGE_MAPPING_ACCESS_SEQUENTIAL_WRITE ==
              hal::BufferUsage::kMappingAccessSequentialWrite);
static_assert(IREE_RT_BUFFER_USAGE_MAPPING == hal::BufferUsage::kMapping);
static_assert(IREE_RT_BUFFER_USAGE_DEFAULT == hal::BufferUsage::kDefault);
static_assert(IREE_RT_MEMORY_ACCESS_READ == hal::MemoryAccess::kRead);
static_assert(IREE_RT_MEMORY_ACCESS_WRITE == hal::MemoryAccess::kWrite);
static_assert(IREE_RT_MEMORY_ACCESS_DISCARD == hal::MemoryAccess::kDiscard);
static_assert(IREE_RT_MEMORY_ACCESS_DISCARD_WRITE == hal::MemoryAccess::kDiscardWrite);
static_assert(IREE_RT_MEMORY_ACCESS_ALL == hal::MemoryAccess::kAll);
static_assert(IREE_RT_WHOLE_BUFFER == hal::kWholeBuffer);

iree_rt_status_t iree_rt_buffer_allocate(iree_rt_device_t device, iree_rt_memory_type_t memory_type,
                                         iree_rt_buffer_usage_t usage, uint64_t size,
                                         iree_rt_buffer_t* out_buffer) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::DeviceHandle * d, FromHandle(device, "device"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_buffer, "out_buffer"));
    hal::BufferParams params{memory_type, usage, hal::MemoryAccess::kAll};
    RT_ASSIGN_OR_RETURN(Ref<hal::Buffer> buffer,
                        d->device->allocator().AllocateBuffer(params, size));
    *out_buffer = api::ToHandle(MakeRef<BufferHandle>(std::move(buffer)));
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_import_host(iree_rt_device_t device,
                                            iree_rt_memory_type_t memory_type,
                                            iree_rt_buffer_usage_t usage,
                                            iree_rt_memory_access_t access, void* ptr,
                                            uint64_t size, iree_rt_host_release_fn_t release_fn,
                                            void* user_data, iree_rt_buffer_t* out_buffer) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::DeviceHandle * d, FromHandle(device, "device"));
    RT_RETURN_IF_ERROR(api::CheckArray(ptr, size, "ptr"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_buffer, "out_buffer"));
    // Everything that can fail happens before the import, which then owns the callback.
    auto handle = MakeRef<BufferHandle>(nullptr);
    hal::HostReleaseCallback release;
    if (release_fn) release = [release_fn, user_data, ptr] { release_fn(user_data, ptr); };
    hal::BufferParams params{memory_type, usage, access};
    RT_ASSIGN_OR_RETURN(handle->buffer, d->device->allocator().ImportHostBuffer(
                                            params, ptr, size, std::move(release)));
    *out_buffer = api::ToHandle(std::move(handle));
    return Status::Ok();
  });
}

void iree_rt_buffer_retain(iree_rt_buffer_t buffer) { api::RetainHandle(buffer); }

void iree_rt_buffer_release(iree_rt_buffer_t buffer) { api::ReleaseHandle(buffer); }

iree_rt_status_t iree_rt_buffer_subspan(iree_rt_buffer_t buffer, uint64_t offset, uint64_t length,
                                        iree_rt_buffer_t* out_buffer) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferHandle * b, FromHandle(buffer, "buffer"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_buffer, "out_buffer"));
    RT_ASSIGN_OR_RETURN(Ref<hal::Buffer> subspan, hal::Buffer::Subspan(b->buffer, offset, length));
    *out_buffer = api::ToHandle(MakeRef<BufferHandle>(std::move(subspan)));
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_length(iree_rt_buffer_t buffer, uint64_t* out_length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferHandle * b, FromHandle(buffer, "buffer"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_length, "out_length"));
    *out_length = b->buffer->byte_length();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_memory_type(iree_rt_buffer_t buffer,
                                            iree_rt_memory_type_t* out_memory_type) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferHandle * b, FromHandle(buffer, "buffer"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_memory_type, "out_memory_type"));
    *out_memory_type = b->buffer->memory_type();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_usage(iree_rt_buffer_t buffer, iree_rt_buffer_usage_t* out_usage) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferHandle * b, FromHandle(buffer, "buffer"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_usage, "out_usage"));
    *out_usage = b->buffer->allowed_usage();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_allowed_access(iree_rt_buffer_t buffer,
                                               iree_rt_memory_access_t* out_access) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferHandle * b, FromHandle(buffer, "buffer"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_access, "out_access"));
    *out_access = b->buffer->allowed_access();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_map(iree_rt_buffer_t buffer, iree_rt_memory_access_t access,
                                    uint64_t offset, uint64_t length, void** out_ptr) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferHandle * b, FromHandle(buffer, "buffer"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_ptr, "out_ptr"));
    RT_ASSIGN_OR_RETURN(uint8_t * ptr, b->buffer->Map(access, offset, length));
    b->AddMapping(ptr);
    b->AddRef();  // held by the mapping until iree_rt_buffer_unmap
    *out_ptr = ptr;
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_unmap(iree_rt_buffer_t buffer, void* ptr) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferHandle * b, FromHandle(buffer, "buffer"));
    RT_RETURN_IF_ERROR(CheckNotNull(ptr, "ptr"));
    RT_RETURN_IF_ERROR(b->RemoveMapping(ptr));
    b->Release();  // may destroy the buffer: nothing may touch |b| after this
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_read(iree_rt_buffer_t buffer, uint64_t offset, void* target,
                                     uint64_t length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferHandle * b, FromHandle(buffer, "buffer"));
    RT_RETURN_IF_ERROR(CheckExactLength(length, "length"));
    RT_RETURN_IF_ERROR(api::CheckArray(target, length, "target"));
    return b->buffer->Read(offset, target, length);
  });
}

iree_rt_status_t iree_rt_buffer_write(iree_rt_buffer_t buffer, uint64_t offset, const void* source,
                                      uint64_t length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferHandle * b, FromHandle(buffer, "buffer"));
    RT_RETURN_IF_ERROR(CheckExactLength(length, "length"));
    RT_RETURN_IF_ERROR(api::CheckArray(source, length, "source"));
    return b->buffer->Write(offset, source, length);
  });
}

iree_rt_status_t iree_rt_buffer_fill(iree_rt_buffer_t buffer, uint64_t offset, uint64_t length,
                                     const void* pattern, size_t pattern_length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferHandle * b, FromHandle(buffer, "buffer"));
    RT_ASSIGN_OR_RETURN(uint32_t bits, api::FillPattern(pattern, pattern_length));
    return b->buffer->Fill(offset, length, bits, static_cast<uint32_t>(pattern_length));
  });
}

iree_rt_status_t iree_rt_buffer_copy(iree_rt_buffer_t source, uint64_t source_offset,
                                     iree_rt_buffer_t target, uint64_t target_offset,
                                     uint64_t length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferHandle * s, FromHandle(source, "source"));
    RT_ASSIGN_OR_RETURN(BufferHandle * t, FromHandle(target, "target"));
    RT_RETURN_IF_ERROR(CheckExactLength(length, "length"));
    return hal::Buffer::Copy(*s->buffer, source_offset, *t->buffer, target_offset, length);
  });
}
