// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// FatELF: several ELF files for different machines behind one small header. The CPU
// executable format accepts either a plain ELF or a FatELF holding one for this host.
#ifndef IREE_RT_DRIVERS_CPU_LOADER_FAT_ELF_H_
#define IREE_RT_DRIVERS_CPU_LOADER_FAT_ELF_H_

#include <cstdint>
#include <span>

#include "base/status.h"

namespace iree_rt::drivers::cpu {

// Returns true if |data| starts with the FatELF magic (bytes FA 70 0E 1F).
bool IsFatElf(std::span<const uint8_t> data);

// If |data| is a FatELF, returns the slice of the first record for |machine| with 64-bit
// words, little-endian byte order and a SysV/Linux/standalone OS ABI; otherwise returns
// |data| unchanged. Errors: INVALID_ARGUMENT for a truncated or malformed container,
// UNIMPLEMENTED for an unknown container version, NOT_FOUND when no record matches.
base::StatusOr<std::span<const uint8_t>> SelectFatElfSlice(std::span<const uint8_t> data,
                                                           uint16_t machine);

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_LOADER_FAT_ELF_H_
