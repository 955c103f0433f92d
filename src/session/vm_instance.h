// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// session::CreateVmInstance: the VM instance every runtime session starts from, with the HAL's
// ref types registered (every compiled program passes buffers, views and fences) and the limits
// its contexts run under.
#ifndef IREE_RT_SESSION_VM_INSTANCE_H_
#define IREE_RT_SESSION_VM_INSTANCE_H_

#include "base/status.h"
#include "vm/instance.h"
#include "vm/limits.h"

namespace iree_rt::session {

base::StatusOr<base::Ref<vm::Instance>> CreateVmInstance(const vm::Limits& limits);

}  // namespace iree_rt::session

#endif  // IREE_RT_SESSION_VM_INSTANCE_H_
