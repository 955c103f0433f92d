// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "api/convert.h"

#include <cstring>

#include "api/handles.h"
#include "api/status_bridge.h"

namespace iree_rt::api {

using base::Status;
using base::StatusOr;

StatusOr<uint32_t> FillPattern(const void* pattern, size_t pattern_length) {
  RT_RETURN_IF_ERROR(CheckNotNull(pattern, "pattern"));
  if (pattern_length != 1 && pattern_length != 2 && pattern_length != 4) {
    return base::InvalidArgumentError("parameter 'pattern_length' must be 1, 2 or 4, got ",
                                      pattern_length);
  }
  // The HAL writes the first |pattern_length| bytes of the word as they lie in memory.
  uint32_t bits = 0;
  std::memcpy(&bits, pattern, pattern_length);
  return bits;
}

StatusOr<hal::BufferRef> MakeBufferRef(iree_rt_buffer_t buffer, const char* name, uint32_t slot,
                                       uint64_t offset, uint64_t length) {
  RT_ASSIGN_OR_RETURN(BufferHandle * handle, FromNullableHandle(buffer, name));
  hal::BufferRef ref;
  if (handle) ref.buffer = handle->buffer;
  ref.slot = slot;
  ref.offset = offset;
  ref.length = length;
  return ref;
}

StatusOr<std::vector<hal::BufferRef>> MakeBufferRefs(const iree_rt_buffer_t* buffers,
                                                     const uint32_t* slots, const uint64_t* offsets,
                                                     const uint64_t* lengths, size_t count) {
  RT_RETURN_IF_ERROR(CheckArray(buffers, count, "buffers"));
  std::vector<hal::BufferRef> refs(count);
  for (size_t i = 0; i < count; ++i) {
    RT_ASSIGN_OR_RETURN(BufferHandle * handle, FromNullableHandle(buffers[i], "buffers", i));
    if (handle) refs[i].buffer = handle->buffer;
    refs[i].slot = slots ? slots[i] : 0;
    refs[i].offset = offsets ? offsets[i] : 0;
    refs[i].length = lengths ? lengths[i] : hal::kWholeBuffer;
  }
  return refs;
}

StatusOr<std::vector<hal::BufferBinding>> MakeBindingTable(const iree_rt_buffer_t* buffers,
                                                           const uint64_t* offsets,
                                                           const uint64_t* lengths, size_t count) {
  RT_RETURN_IF_ERROR(CheckArray(buffers, count, "binding_buffers"));
  std::vector<hal::BufferBinding> table(count);
  for (size_t i = 0; i < count; ++i) {
    RT_ASSIGN_OR_RETURN(BufferHandle * handle,
                        FromNullableHandle(buffers[i], "binding_buffers", i));
    if (handle) table[i].buffer = handle->buffer;
    table[i].offset = offsets ? offsets[i] : 0;
    table[i].length = lengths ? lengths[i] : hal::kWholeBuffer;
  }
  return table;
}

StatusOr<QueueFences> QueueFences::Resolve(iree_rt_fence_t wait_fence,
                                           iree_rt_fence_t signal_fence) {
  RT_ASSIGN_OR_RETURN(FenceHandle * wait, FromNullableHandle(wait_fence, "wait_fence"));
  RT_ASSIGN_OR_RETURN(FenceHandle * signal, FromNullableHandle(signal_fence, "signal_fence"));
  QueueFences fences;
  if (wait) {
    fences.wait_fence_ = wait->current();
    fences.wait_points_ = fences.wait_fence_->points();
  }
  if (signal) {
    fences.signal_fence_ = signal->current();
    fences.signal_points_ = fences.signal_fence_->points();
  }
  return fences;
}

}  // namespace iree_rt::api
