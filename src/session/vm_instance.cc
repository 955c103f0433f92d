// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "session/vm_instance.h"

#include "modules/hal/ref_types.h"

namespace iree_rt::session {

base::StatusOr<base::Ref<vm::Instance>> CreateVmInstance(const vm::Limits& limits) {
  base::Ref<vm::Instance> instance = vm::Instance::Create();
  RT_RETURN_IF_ERROR(modules::hal::RegisterRefTypes(*instance));
  instance->set_limits(limits);
  return instance;
}

}  // namespace iree_rt::session
