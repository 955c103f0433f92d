// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The `hal` module's exports, by group. Each function appends its group's definitions (name,
// cconv as iree-compile 3.13.0 records the import, handler); hal_module.cc assembles them.
#ifndef IREE_RT_MODULES_HAL_EXPORTS_H_
#define IREE_RT_MODULES_HAL_EXPORTS_H_

#include <cstdint>
#include <vector>

#include "base/memory_budget.h"
#include "vm/native_module.h"

namespace iree_rt::modules::hal {

using ExportDefs = std::vector<vm::NativeModule::FunctionDef>;

// Checks a program's HAL allocation of |size| bytes against the calling context's limits and
// charges it to the context's memory budget (nothing to check without a context).
inline base::StatusOr<base::MemoryCharge> ChargeAllocation(const vm::ModuleState& state,
                                                           uint64_t size) {
  if (state.quota() == nullptr) return base::MemoryCharge();
  return state.quota()->ChargeAllocation(size, "hal.buffer allocation",
                                         base::MemoryKind::kHalBuffer);
}

// allocator.*, buffer.*, buffer_view.*
void AppendBufferExports(ExportDefs* defs);
// command_buffer.*
void AppendCommandBufferExports(ExportDefs* defs);
// device.* (queries and queue operations), devices.*, channel.*
void AppendDeviceExports(ExportDefs* defs);
// executable.*, ex.file.from_memory, fence.*
void AppendExecutableAndFenceExports(ExportDefs* defs);

}  // namespace iree_rt::modules::hal

#endif  // IREE_RT_MODULES_HAL_EXPORTS_H_
