// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/dispatch_program.h"

#include <algorithm>

namespace iree_rt::drivers::cpu {

base::Status DispatchProgram::PrepareDispatch(uint32_t ordinal, const uint32_t workgroup_count[3],
                                              std::span<const uint32_t> constants,
                                              std::span<void* const> binding_ptrs,
                                              std::span<const size_t> binding_lengths,
                                              uint32_t max_concurrency,
                                              DispatchStateV0* out_state) const {
  if (ordinal >= export_count()) {
    return base::OutOfRangeError("export ordinal ", ordinal, " is out of range (executable '",
                                 name(), "' has ", export_count(), " exports)");
  }
  const ExportInfo& info = export_info(ordinal);
  if (constants.size() != info.constant_count) {
    return base::InvalidArgumentError("export '", info.name, "' expects ", info.constant_count,
                                      " constants but ", constants.size(), " were given");
  }
  if (binding_ptrs.size() != info.binding_count || binding_lengths.size() != binding_ptrs.size()) {
    return base::InvalidArgumentError("export '", info.name, "' expects ", info.binding_count,
                                      " bindings but ", binding_ptrs.size(), " pointers and ",
                                      binding_lengths.size(), " lengths were given");
  }
  for (size_t i = 0; i < binding_ptrs.size(); ++i) {
    if (binding_ptrs[i] == nullptr) {
      return base::InvalidArgumentError("export '", info.name, "' binding ", i, " is null");
    }
  }
  if (workgroup_count[2] > UINT16_MAX) {
    return base::InvalidArgumentError("export '", info.name, "' workgroup count z ",
                                      workgroup_count[2], " exceeds 65535 (a 16-bit ABI field)");
  }
  DispatchStateV0 state{};
  state.workgroup_size_x = info.workgroup_size[0];
  state.workgroup_size_y = info.workgroup_size[1];
  state.workgroup_size_z = static_cast<uint16_t>(info.workgroup_size[2]);
  state.constant_count = static_cast<uint16_t>(constants.size());
  state.workgroup_count_x = workgroup_count[0];
  state.workgroup_count_y = workgroup_count[1];
  state.workgroup_count_z = static_cast<uint16_t>(workgroup_count[2]);
  state.max_concurrency = static_cast<uint8_t>(std::clamp<uint32_t>(max_concurrency, 1, 255));
  state.binding_count = static_cast<uint8_t>(binding_ptrs.size());
  state.constants = constants.data();
  state.binding_ptrs = binding_ptrs.data();
  state.binding_lengths = binding_lengths.data();
  *out_state = state;
  return base::Status::Ok();
}

base::StatusOr<const DispatchProgram::ExportInfo*> DispatchProgram::CheckWorkgroup(
    uint32_t ordinal, const DispatchStateV0& state, uint32_t x, uint32_t y, uint32_t z,
    const void* local_memory, uint32_t local_memory_size) const {
  if (ordinal >= export_count()) {
    return base::OutOfRangeError("export ordinal ", ordinal, " is out of range (executable '",
                                 name(), "' has ", export_count(), " exports)");
  }
  const ExportInfo& info = export_info(ordinal);
  if (x >= state.workgroup_count_x || y >= state.workgroup_count_y ||
      z >= state.workgroup_count_z) {
    return base::OutOfRangeError("export '", info.name, "' workgroup (", x, ", ", y, ", ", z,
                                 ") is outside the dispatch's count (", state.workgroup_count_x,
                                 ", ", state.workgroup_count_y, ", ", state.workgroup_count_z, ")");
  }
  if (local_memory_size < info.local_memory_size ||
      (local_memory_size != 0 && local_memory == nullptr)) {
    return base::ResourceExhaustedError("export '", info.name, "' needs ", info.local_memory_size,
                                        " bytes of local memory but ", local_memory_size,
                                        " were provided");
  }
  return &info;
}

}  // namespace iree_rt::drivers::cpu
