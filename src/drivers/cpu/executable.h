// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cpu::Executable: a loaded CPU executable: an llvm-cpu library (embedded ELF or system library)
// or a VMVX bytecode module, both behind DispatchProgram.
#ifndef IREE_RT_DRIVERS_CPU_EXECUTABLE_H_
#define IREE_RT_DRIVERS_CPU_EXECUTABLE_H_

#include <memory>

#include "drivers/cpu/dispatch_program.h"
#include "drivers/cpu/task/tile_cost.h"
#include "hal/executable.h"

namespace iree_rt::drivers::cpu {

class Executable final : public hal::Executable {
 public:
  // True for the formats Load accepts on this host.
  static bool SupportsFormat(std::string_view format);

  static base::StatusOr<base::Ref<Executable>> Load(std::string_view format,
                                                    std::span<const uint8_t> data,
                                                    std::span<const uint32_t> constants);

  const DispatchProgram& program() const { return *program_; }
  // Bytes of workgroup-local memory |ordinal| needs.
  uint32_t local_memory_size(uint32_t ordinal) const {
    return program_->export_info(ordinal).local_memory_size;
  }

  // What one workgroup of |ordinal| has cost so far, which sizes its parallel loops.
  TileCost& tile_cost(uint32_t ordinal) const { return tile_costs_[ordinal]; }

  const void* type_tag() const override { return &kTypeTag; }
  // Down-cast from a HAL executable; null if it belongs to another driver.
  static const Executable* Cast(const hal::Executable& executable) {
    return executable.type_tag() == &kTypeTag ? static_cast<const Executable*>(&executable) : nullptr;
  }

 private:
  static constexpr char kTypeTag = 0;
  Executable(std::vector<hal::ExportInfo> exports, std::unique_ptr<DispatchProgram> program)
      : hal::Executable(std::move(exports)), program_(std::move(program)),
        tile_costs_(new TileCost[program_->export_count()]) {}

  std::unique_ptr<DispatchProgram> program_;
  std::unique_ptr<TileCost[]> tile_costs_;  // statistics: updated through a const executable
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_EXECUTABLE_H_
