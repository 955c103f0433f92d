// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ELF64 on-disk structures and the constants the loader uses, written from the System V
// gABI and the x86-64/AArch64 psABI supplements. Values are read from untrusted bytes
// with memcpy (ReadAt), never by casting a pointer, so alignment never matters.
#ifndef IREE_RT_DRIVERS_CPU_LOADER_ELF_FORMAT_H_
#define IREE_RT_DRIVERS_CPU_LOADER_ELF_FORMAT_H_

#include <cstdint>
#include <cstring>
#include <ostream>
#include <type_traits>

namespace iree_rt::drivers::cpu::elf {

struct Ehdr {
  uint8_t e_ident[16];
  uint16_t e_type;
  uint16_t e_machine;
  uint32_t e_version;
  uint64_t e_entry;
  uint64_t e_phoff;
  uint64_t e_shoff;
  uint32_t e_flags;
  uint16_t e_ehsize;
  uint16_t e_phentsize;
  uint16_t e_phnum;
  uint16_t e_shentsize;
  uint16_t e_shnum;
  uint16_t e_shstrndx;
};
struct Phdr {
  uint32_t p_type;
  uint32_t p_flags;
  uint64_t p_offset;
  uint64_t p_vaddr;
  uint64_t p_paddr;
  uint64_t p_filesz;
  uint64_t p_memsz;
  uint64_t p_align;
};
struct Shdr {
  uint32_t sh_name;
  uint32_t sh_type;
  uint64_t sh_flags;
  uint64_t sh_addr;
  uint64_t sh_offset;
  uint64_t sh_size;
  uint32_t sh_link;
  uint32_t sh_info;
  uint64_t sh_addralign;
  uint64_t sh_entsize;
};
struct Dyn {
  int64_t d_tag;
  uint64_t d_val;
};
struct Sym {
  uint32_t st_name;
  uint8_t st_info;
  uint8_t st_other;
  uint16_t st_shndx;
  uint64_t st_value;
  uint64_t st_size;
};
struct Rela {
  uint64_t r_offset;
  uint64_t r_info;
  int64_t r_addend;
};
static_assert(sizeof(Ehdr) == 64 && sizeof(Phdr) == 56 && sizeof(Shdr) == 64);
static_assert(sizeof(Dyn) == 16 && sizeof(Sym) == 24 && sizeof(Rela) == 24);

// e_ident
inline constexpr uint8_t kMagic[4] = {0x7F, 'E', 'L', 'F'};
inline constexpr int kIdentClass = 4;
inline constexpr int kIdentData = 5;
inline constexpr int kIdentVersion = 6;
inline constexpr uint8_t kClass64 = 2;
inline constexpr uint8_t kData2Lsb = 1;
inline constexpr uint32_t kVersionCurrent = 1;

// e_type / e_machine
inline constexpr uint16_t kTypeExec = 2;
inline constexpr uint16_t kTypeDyn = 3;
inline constexpr uint16_t kMachineX86_64 = 62;
inline constexpr uint16_t kMachineAarch64 = 183;

// p_type / p_flags
inline constexpr uint32_t kPtNull = 0;
inline constexpr uint32_t kPtLoad = 1;
inline constexpr uint32_t kPtDynamic = 2;
inline constexpr uint32_t kPtTls = 7;
inline constexpr uint32_t kPtGnuRelro = 0x6474E552;
inline constexpr uint32_t kPfX = 1;
inline constexpr uint32_t kPfW = 2;
inline constexpr uint32_t kPfR = 4;

// d_tag
inline constexpr int64_t kDtNull = 0;
inline constexpr int64_t kDtNeeded = 1;
inline constexpr int64_t kDtPltRelSz = 2;
inline constexpr int64_t kDtHash = 4;
inline constexpr int64_t kDtStrTab = 5;
inline constexpr int64_t kDtSymTab = 6;
inline constexpr int64_t kDtRela = 7;
inline constexpr int64_t kDtRelaSz = 8;
inline constexpr int64_t kDtRelaEnt = 9;
inline constexpr int64_t kDtStrSz = 10;
inline constexpr int64_t kDtSymEnt = 11;
inline constexpr int64_t kDtInit = 12;
inline constexpr int64_t kDtRel = 17;
inline constexpr int64_t kDtRelSz = 18;
inline constexpr int64_t kDtRelEnt = 19;
inline constexpr int64_t kDtPltRel = 20;
inline constexpr int64_t kDtJmpRel = 23;
inline constexpr int64_t kDtInitArray = 25;
inline constexpr int64_t kDtInitArraySz = 27;

// Symbols
inline constexpr uint16_t kShnUndef = 0;
inline constexpr uint16_t kShnLoReserve = 0xFF00;
inline constexpr uint16_t kShnAbs = 0xFFF1;
inline constexpr uint8_t kStbGlobal = 1;
inline constexpr uint8_t kStbWeak = 2;
inline uint8_t SymBinding(uint8_t st_info) { return st_info >> 4; }

// Relocations
inline uint32_t RelaType(uint64_t r_info) { return static_cast<uint32_t>(r_info); }
inline uint32_t RelaSym(uint64_t r_info) { return static_cast<uint32_t>(r_info >> 32); }

// FatELF container (icculus.org/fatelf, format version 1), little-endian.
inline constexpr uint32_t kFatElfMagic = 0x1F0E70FA;
inline constexpr uint16_t kFatElfVersion = 1;
inline constexpr size_t kFatElfHeaderSize = 8;
inline constexpr size_t kFatElfRecordSize = 24;

// Copies a T out of |base| + |offset|; the caller has bounds-checked the range.
template <typename T>
T ReadAt(const uint8_t* base, uint64_t offset) {
  static_assert(std::is_trivially_copyable_v<T>);
  T value;
  std::memcpy(&value, base + offset, sizeof(T));
  return value;
}

// Streams as "0x1a2b" in messages.
struct Hex {
  uint64_t value;
};
inline std::ostream& operator<<(std::ostream& os, Hex hex) {
  const char digits[] = "0123456789abcdef";
  char text[19];
  int pos = sizeof(text);
  uint64_t v = hex.value;
  do {
    text[--pos] = digits[v & 0xF];
    v >>= 4;
  } while (v != 0);
  text[--pos] = 'x';
  text[--pos] = '0';
  return os.write(text + pos, sizeof(text) - pos);
}

// Overflow-safe "[offset, offset + size) lies inside [0, limit)".
inline bool RangeFits(uint64_t offset, uint64_t size, uint64_t limit) {
  return offset <= limit && size <= limit - offset;
}

}  // namespace iree_rt::drivers::cpu::elf

#endif  // IREE_RT_DRIVERS_CPU_LOADER_ELF_FORMAT_H_
