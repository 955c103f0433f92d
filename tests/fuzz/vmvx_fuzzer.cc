// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// VMVX executable loader fuzzer: any bytes → cpu::VmvxProgram::Load (bytecode load and
// verification, entry point signature and attr checks, linking against the vmvx module, one
// context created). It must return a status; on success every entry point's info is read and a
// dispatch of it is validated. Workgroups are not run: an arbitrary program may loop forever.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "drivers/cpu/vmvx/vmvx_program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using iree_rt::drivers::cpu::DispatchStateV0;
  using iree_rt::drivers::cpu::VmvxProgram;
  auto program = VmvxProgram::Load({data, size}, {});
  if (!program.ok()) return 0;
  uint64_t sum = 0;
  for (uint32_t i = 0; i < (*program)->export_count(); ++i) {
    const auto& info = (*program)->export_info(i);
    for (char c : info.name) sum += static_cast<uint8_t>(c);
    if (info.binding_count > 64 || info.constant_count > 64) continue;
    std::vector<uint32_t> constants(info.constant_count, 0);
    std::vector<uint8_t> memory(16, 0);
    std::vector<void*> ptrs(info.binding_count, memory.data());
    std::vector<size_t> lengths(info.binding_count, memory.size());
    const uint32_t counts[3] = {1, 1, 1};
    DispatchStateV0 state;
    sum += (*program)->PrepareDispatch(i, counts, constants, ptrs, lengths, 1, &state).ok();
  }
  return static_cast<int>(sum & 0);
}
