// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/hal/module_state.h"

namespace iree_rt::modules::hal {

using base::Ref;
using base::StatusOr;
namespace rt = ::iree_rt::hal;

StatusOr<rt::ExecutableCache*> HalState::ExecutableCacheFor(rt::Device& device) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [owner, cache] : caches_) {
    if (owner.get() == &device) return cache.get();
  }
  RT_ASSIGN_OR_RETURN(Ref<rt::ExecutableCache> cache, device.CreateExecutableCache());
  rt::ExecutableCache* result = cache.get();
  caches_.emplace_back(Ref<rt::Device>::Retain(&device), std::move(cache));
  return result;
}

StatusOr<HalState*> GetHalState(vm::ModuleState& state) {
  if (state.type_tag() != &HalState::kTypeTag) {
    return base::InternalError("module state was not created by the hal module");
  }
  return static_cast<HalState*>(&state);
}

}  // namespace iree_rt::modules::hal
