// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The VM ref types of HAL objects ("hal.buffer_view", ...), so HAL objects can sit in VM
// registers, lists and call arguments. This is one of the two places vm/ and hal/ meet (the
// other is the `hal` module itself).
#ifndef IREE_RT_MODULES_HAL_REF_TYPES_H_
#define IREE_RT_MODULES_HAL_REF_TYPES_H_

#include "base/status.h"
#include "vm/instance.h"
#include "vm/ref.h"

namespace iree_rt::hal {
class Allocator;
class Buffer;
class BufferView;
class Channel;
class CommandBuffer;
class Device;
class Executable;
class Fence;
class File;
class Semaphore;
}  // namespace iree_rt::hal

namespace iree_rt::modules::hal {

extern const vm::RefType kAllocatorType;      // "hal.allocator"
extern const vm::RefType kBufferType;         // "hal.buffer"
extern const vm::RefType kBufferViewType;     // "hal.buffer_view"
extern const vm::RefType kChannelType;        // "hal.channel"
extern const vm::RefType kCommandBufferType;  // "hal.command_buffer"
extern const vm::RefType kDeviceType;         // "hal.device"
extern const vm::RefType kEventType;          // "hal.event" (no runtime object yet)
extern const vm::RefType kExecutableType;     // "hal.executable"
extern const vm::RefType kFenceType;          // "hal.fence"
extern const vm::RefType kFileType;           // "hal.file"
extern const vm::RefType kSemaphoreType;      // "hal.semaphore"

// Registers every type above with |instance| (idempotent), so modules naming them can load.
base::Status RegisterRefTypes(vm::Instance& instance);

}  // namespace iree_rt::modules::hal

namespace iree_rt::vm {
template <> inline const RefType* RefTypeOf<hal::Allocator>() { return &modules::hal::kAllocatorType; }
template <> inline const RefType* RefTypeOf<hal::Buffer>() { return &modules::hal::kBufferType; }
template <> inline const RefType* RefTypeOf<hal::BufferView>() { return &modules::hal::kBufferViewType; }
template <> inline const RefType* RefTypeOf<hal::Channel>() { return &modules::hal::kChannelType; }
template <> inline const RefType* RefTypeOf<hal::CommandBuffer>() { return &modules::hal::kCommandBufferType; }
template <> inline const RefType* RefTypeOf<hal::Device>() { return &modules::hal::kDeviceType; }
template <> inline const RefType* RefTypeOf<hal::Executable>() { return &modules::hal::kExecutableType; }
template <> inline const RefType* RefTypeOf<hal::Fence>() { return &modules::hal::kFenceType; }
template <> inline const RefType* RefTypeOf<hal::File>() { return &modules::hal::kFileType; }
template <> inline const RefType* RefTypeOf<hal::Semaphore>() { return &modules::hal::kSemaphoreType; }
}  // namespace iree_rt::vm

#endif  // IREE_RT_MODULES_HAL_REF_TYPES_H_
