// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The native `hal` module: what every program compiled by iree-compile imports to allocate
// buffers, record and submit command buffers, load executables and wait on fences
// (hal_abi_facts.md §1; the cconvs and semantics of module version 7, checked against the
// imports of iree-compile 3.13.0 programs).
//
// The module is created over the devices a program may use; hal.devices.count/get enumerate them
// in the given order and the program picks by hal.device.id / hal.executable.format queries.
// Each context's state keeps one executable cache per device.
//
// Errors from exports trap the calling VM function with the export named. Queue operations are
// asynchronous (device queue semantics); a failed operation fails its signal fence, and
// fence.await reports that failure as an error. Calls never block except fence.await, which
// blocks the calling thread (the synchronous execution model).
//
// Thread-safety: the module is immutable and may be shared by many contexts.
#ifndef IREE_RT_MODULES_HAL_HAL_MODULE_H_
#define IREE_RT_MODULES_HAL_HAL_MODULE_H_

#include <cstdint>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "vm/module.h"

namespace iree_rt::hal {
class Device;
}  // namespace iree_rt::hal

namespace iree_rt::modules::hal {

// The version this module reports; programs that dispatch need at least 7.
inline constexpr uint32_t kHalModuleVersion = 7;

// Creates the module over |devices| (at least one, none null). Register it in a context before
// the program modules; the instance must have the hal ref types (RegisterRefTypes).
base::StatusOr<base::Ref<vm::Module>> CreateHalModule(
    std::vector<base::Ref<::iree_rt::hal::Device>> devices);

}  // namespace iree_rt::modules::hal

#endif  // IREE_RT_MODULES_HAL_HAL_MODULE_H_
