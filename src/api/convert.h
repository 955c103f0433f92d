// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Conversions from C argument forms to HAL values, shared by several <object>_api.cc files.
// Each validates what it converts and names the offending parameter.
#ifndef IREE_RT_API_CONVERT_H_
#define IREE_RT_API_CONVERT_H_

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.h"
#include "hal/command_buffer.h"
#include "hal/device.h"
#include "hal/fence.h"
#include "hal/semaphore.h"
#include "iree_rt.h"

namespace iree_rt::api {

// The 1, 2 or 4 bytes at |pattern| as the HAL's 32-bit fill pattern (same byte order in memory).
base::StatusOr<uint32_t> FillPattern(const void* pattern, size_t pattern_length);

// A buffer range given directly (|buffer| non-NULL) or as binding-table |slot|.
base::StatusOr<hal::BufferRef> MakeBufferRef(iree_rt_buffer_t buffer, const char* name,
                                             uint32_t slot, uint64_t offset, uint64_t length);

// Dispatch bindings from parallel arrays; |slots|, |offsets| and |lengths| are nullable.
base::StatusOr<std::vector<hal::BufferRef>> MakeBufferRefs(const iree_rt_buffer_t* buffers,
                                                           const uint32_t* slots,
                                                           const uint64_t* offsets,
                                                           const uint64_t* lengths, size_t count);

// A submission's binding table from parallel arrays; |offsets| and |lengths| are nullable.
base::StatusOr<std::vector<hal::BufferBinding>> MakeBindingTable(const iree_rt_buffer_t* buffers,
                                                                 const uint64_t* offsets,
                                                                 const uint64_t* lengths,
                                                                 size_t count);

// The wait and signal timepoints of a queue operation, read from its (nullable) fences. Holds
// the fences so the semaphores stay alive while the operation is submitted.
class QueueFences {
 public:
  static base::StatusOr<QueueFences> Resolve(iree_rt_fence_t wait_fence,
                                             iree_rt_fence_t signal_fence);
  hal::SemaphoreList wait() const { return wait_points_; }
  hal::SemaphoreList signal() const { return signal_points_; }

 private:
  base::Ref<hal::Fence> wait_fence_;
  base::Ref<hal::Fence> signal_fence_;
  hal::PointList wait_points_;
  hal::PointList signal_points_;
};

}  // namespace iree_rt::api

#endif  // IREE_RT_API_CONVERT_H_
