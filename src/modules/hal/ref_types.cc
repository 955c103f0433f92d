// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/hal/ref_types.h"

namespace iree_rt::modules::hal {

const vm::RefType kAllocatorType{"hal.allocator"};
const vm::RefType kBufferType{"hal.buffer"};
const vm::RefType kBufferViewType{"hal.buffer_view"};
const vm::RefType kChannelType{"hal.channel"};
const vm::RefType kCommandBufferType{"hal.command_buffer"};
const vm::RefType kDeviceType{"hal.device"};
const vm::RefType kEventType{"hal.event"};
const vm::RefType kExecutableType{"hal.executable"};
const vm::RefType kFenceType{"hal.fence"};
const vm::RefType kFileType{"hal.file"};
const vm::RefType kSemaphoreType{"hal.semaphore"};

base::Status RegisterRefTypes(vm::Instance& instance) {
  for (const vm::RefType* type :
       {&kAllocatorType, &kBufferType, &kBufferViewType, &kChannelType, &kCommandBufferType,
        &kDeviceType, &kEventType, &kExecutableType, &kFenceType, &kFileType, &kSemaphoreType}) {
    RT_RETURN_IF_ERROR(instance.RegisterType(type));
  }
  return base::Status::Ok();
}

}  // namespace iree_rt::modules::hal
