// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cpu::DispatchProgram: the code of one CPU executable as the command runner sees it, whatever
// its format: native kernels behind the llvm-cpu library ABI (ExecutableLibrary) or a VMVX
// bytecode module run by the VM (VmvxProgram). The runner validates a dispatch once with
// PrepareDispatch, then runs its workgroups, possibly from many threads at once.
//
// The dispatch state uses the library ABI's layout (DispatchStateV0): it already carries
// everything a workgroup needs (counts, sizes, constants, binding pointers and lengths), so the
// llvm-cpu path hands it to the kernel as is and the VMVX path reads the same fields.
#ifndef IREE_RT_DRIVERS_CPU_DISPATCH_PROGRAM_H_
#define IREE_RT_DRIVERS_CPU_DISPATCH_PROGRAM_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "base/status.h"
#include "drivers/cpu/loader/library_abi.h"

namespace iree_rt::drivers::cpu {

class DispatchProgram {
 public:
  struct ExportInfo {
    std::string name;
    uint32_t constant_count = 0;               // 32-bit push constants per dispatch
    uint32_t binding_count = 0;                // buffer bindings per dispatch
    uint32_t workgroup_size[3] = {1, 1, 1};    // 0 is reported as 1
    uint32_t local_memory_size = 0;            // bytes of workgroup-local scratch required
    uint64_t flags = 0;                        // kDispatchFlag* bits (library ABI)
  };

  virtual ~DispatchProgram() = default;

  virtual uint32_t export_count() const = 0;
  // Requires |ordinal| < export_count().
  virtual const ExportInfo& export_info(uint32_t ordinal) const = 0;

  // The executable's name, for messages.
  virtual const std::string& name() const = 0;

  // Validates one dispatch of export |ordinal| against its export info and fills |out_state|
  // (the same checks for every kind), which points into the caller's |constants|,
  // |binding_ptrs| and |binding_lengths| (they must outlive its use). |max_concurrency| is
  // clamped to [1, 255]. Errors (|out_state| untouched): OUT_OF_RANGE for a bad ordinal;
  // INVALID_ARGUMENT naming the export for a constant/binding count mismatch, a null binding or
  // workgroup_count[2] > 65535.
  base::Status PrepareDispatch(uint32_t ordinal, const uint32_t workgroup_count[3],
                               std::span<const uint32_t> constants,
                               std::span<void* const> binding_ptrs,
                               std::span<const size_t> binding_lengths,
                               uint32_t max_concurrency, DispatchStateV0* out_state) const;

  // The checks every RunWorkgroup makes before running: OUT_OF_RANGE for a bad ordinal or a
  // workgroup outside the state's counts, RESOURCE_EXHAUSTED for too little local memory.
  // Returns the export's info.
  base::StatusOr<const ExportInfo*> CheckWorkgroup(uint32_t ordinal, const DispatchStateV0& state,
                                                   uint32_t x, uint32_t y, uint32_t z,
                                                   const void* local_memory,
                                                   uint32_t local_memory_size) const;

  // Runs workgroup (x, y, z) of a dispatch prepared for |ordinal|. |local_memory| is scratch
  // private to this call of export_info(ordinal).local_memory_size bytes or more. Thread-safe:
  // workgroups of one dispatch (and of different dispatches) run concurrently. Errors name the
  // export and workgroup.
  virtual base::Status RunWorkgroup(uint32_t ordinal, const DispatchStateV0& state, uint32_t x,
                                    uint32_t y, uint32_t z, uint32_t processor_id,
                                    void* local_memory, uint32_t local_memory_size) const = 0;
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_DISPATCH_PROGRAM_H_
