// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// HalState: the `hal` module's per-context state: the devices the program enumerates and one
// executable cache per device, made on first use.
#ifndef IREE_RT_MODULES_HAL_MODULE_STATE_H_
#define IREE_RT_MODULES_HAL_MODULE_STATE_H_

#include <mutex>
#include <utility>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/device.h"
#include "hal/executable_cache.h"
#include "modules/hal/fence_pool.h"
#include "vm/module.h"

namespace iree_rt::modules::hal {

class HalState final : public vm::ModuleState {
 public:
  explicit HalState(std::vector<base::Ref<::iree_rt::hal::Device>> devices)
      : devices_(std::move(devices)) {}

  const std::vector<base::Ref<::iree_rt::hal::Device>>& devices() const { return devices_; }

  // The cache executables of |device| are prepared with, created on first use.
  base::StatusOr<::iree_rt::hal::ExecutableCache*> ExecutableCacheFor(::iree_rt::hal::Device& device);
  FencePool& fence_pool() { return fence_pool_; }

  const void* type_tag() const override { return &kTypeTag; }
  static constexpr char kTypeTag = 0;

 private:
  const std::vector<base::Ref<::iree_rt::hal::Device>> devices_;
  std::mutex mutex_;  // a context's invocations are serialized, but async hosts may overlap
  // Few devices per context: a list beats a map. The device is retained with its cache.
  std::vector<std::pair<base::Ref<::iree_rt::hal::Device>, base::Ref<::iree_rt::hal::ExecutableCache>>>
      caches_;
  FencePool fence_pool_;
};

// The HalState of a call; INTERNAL if |state| came from another module.
base::StatusOr<HalState*> GetHalState(vm::ModuleState& state);

}  // namespace iree_rt::modules::hal

#endif  // IREE_RT_MODULES_HAL_MODULE_STATE_H_
