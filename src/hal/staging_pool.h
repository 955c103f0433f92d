// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::StagingPool: the host-visible, device-visible buffers (pinned memory on CUDA) through which
// Device::QueueReadMany streams file bytes into device memory, kept between reads so a program's
// many parameter loads do not pay for pinning memory each time.
//
// Thread-safety: every method may be called from any thread.
#ifndef IREE_RT_HAL_STAGING_POOL_H_
#define IREE_RT_HAL_STAGING_POOL_H_

#include <cstdint>
#include <mutex>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/allocator.h"
#include "hal/buffer.h"

namespace iree_rt::hal {

class StagingPool final : public base::RefObject {
 public:
  // The size of the buffers the pool keeps; Take of another size allocates one that Give drops.
  static constexpr uint64_t kSlotSize = 8ull << 20;
  static constexpr size_t kMaxKept = 16;

  // A buffer of |size| bytes: a kept one when |size| is kSlotSize, else a new one.
  base::StatusOr<base::Ref<Buffer>> Take(Allocator& allocator, uint64_t size);
  // Returns |buffer| for reuse (or drops it when the pool is full or it is not a slot).
  void Give(base::Ref<Buffer> buffer);

 private:
  std::mutex mutex_;
  std::vector<base::Ref<Buffer>> kept_;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_STAGING_POOL_H_
