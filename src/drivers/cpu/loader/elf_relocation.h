// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RELA relocation processing for the embedded ELF loader (internal to loader/).
#ifndef IREE_RT_DRIVERS_CPU_LOADER_ELF_RELOCATION_H_
#define IREE_RT_DRIVERS_CPU_LOADER_ELF_RELOCATION_H_

#include <cstdint>
#include <string_view>

#include "base/status.h"
#include "drivers/cpu/loader/elf_image.h"

namespace iree_rt::drivers::cpu {

// The dynamic symbol table, already bounds-checked against the image.
struct ElfSymbolTable {
  uint64_t vaddr = 0;
  uint32_t count = 0;  // DT_HASH nchain
};

// Applies the Elf64_Rela entries in [table_vaddr, table_vaddr + table_size) of |image|
// for |machine| (x86-64 or AArch64). Every entry's symbol index and patched range are
// checked before the write. |table_name| ("DT_RELA", "DT_JMPREL") labels messages.
// Errors: INVALID_ARGUMENT for malformed entries or out-of-image targets/values,
// UNIMPLEMENTED for relocation types the loader does not support.
base::Status ApplyRelaRelocations(uint16_t machine, const ElfImage& image,
                                  const ElfSymbolTable& symbols, uint64_t table_vaddr,
                                  uint64_t table_size, std::string_view table_name);

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_LOADER_ELF_RELOCATION_H_
