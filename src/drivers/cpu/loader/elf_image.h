// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ElfImage: the loader's view of a mapped ELF while it is being linked (internal to
// loader/). Link-time virtual addresses index into one private mapping; every access
// from the relocation and dynamic-table code goes through Contains() first.
#ifndef IREE_RT_DRIVERS_CPU_LOADER_ELF_IMAGE_H_
#define IREE_RT_DRIVERS_CPU_LOADER_ELF_IMAGE_H_

#include <cstdint>
#include <vector>

#include "drivers/cpu/loader/elf_format.h"

namespace iree_rt::drivers::cpu {

struct ElfSegment {
  uint64_t vaddr;        // link-time address of the first byte
  uint64_t memsz;        // bytes in memory (file bytes + zero fill)
  uint32_t flags;        // elf::kPf* bits
  uint32_t phdr_index;   // for messages
};

struct ElfImage {
  uint8_t* base = nullptr;  // host address of min_vaddr
  uint64_t min_vaddr = 0;   // page-aligned
  uint64_t size = 0;        // page-aligned bytes mapped
  std::vector<ElfSegment> segments;

  // True if [vaddr, vaddr + bytes) lies inside one PT_LOAD segment (optionally one that
  // is executable). Segments are the only memory guaranteed readable after protection.
  bool Contains(uint64_t vaddr, uint64_t bytes, bool executable = false) const {
    for (const ElfSegment& segment : segments) {
      if (executable && !(segment.flags & elf::kPfX)) continue;
      if (vaddr >= segment.vaddr && elf::RangeFits(vaddr - segment.vaddr, bytes, segment.memsz)) {
        return true;
      }
    }
    return false;
  }
  // Bytes from |vaddr| to the end of the segment holding it (0 if none does).
  uint64_t BytesAvailable(uint64_t vaddr) const {
    for (const ElfSegment& segment : segments) {
      if (vaddr >= segment.vaddr && vaddr - segment.vaddr < segment.memsz) {
        return segment.memsz - (vaddr - segment.vaddr);
      }
    }
    return 0;
  }
  uint8_t* At(uint64_t vaddr) const { return base + (vaddr - min_vaddr); }
  // Load bias: host address = bias + link-time address (wraps modulo 2^64 by design).
  uint64_t bias() const { return reinterpret_cast<uintptr_t>(base) - min_vaddr; }
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_LOADER_ELF_IMAGE_H_
