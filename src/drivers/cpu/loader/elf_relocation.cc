// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/loader/elf_relocation.h"

#include <cstring>
#include <limits>

namespace iree_rt::drivers::cpu {

namespace {

// x86-64 psABI relocation types we handle.
enum : uint32_t {
  kX86None = 0,
  kX86_64 = 1,
  kX86Pc32 = 2,
  kX86GlobDat = 6,
  kX86JumpSlot = 7,
  kX86Relative = 8,
  kX86_32 = 10,
  kX86_32S = 11,
};
// AArch64 ELF ABI relocation types we handle.
enum : uint32_t {
  kA64None = 0,
  kA64Abs64 = 257,
  kA64GlobDat = 1025,
  kA64JumpSlot = 1026,
  kA64Relative = 1027,
};

// What to store at P: a 64-bit word, or a 32-bit one that must fit (un)signed.
enum class Width { kNone, k64, kU32, kS32 };

struct Patch {
  Width width = Width::kNone;
  uint64_t value = 0;
};

// Computes the patch for one relocation; S = symbol address, A = addend, P = place.
// Arithmetic is modulo 2^64, as in the psABIs; 32-bit forms are range-checked later.
base::StatusOr<Patch> ComputePatch(uint16_t machine, uint32_t type, uint64_t s, int64_t a,
                                   uint64_t p, uint64_t bias) {
  const uint64_t ua = static_cast<uint64_t>(a);
  if (machine == elf::kMachineX86_64) {
    switch (type) {
      case kX86None: return Patch{};
      case kX86Relative: return Patch{Width::k64, bias + ua};
      case kX86GlobDat:
      case kX86JumpSlot: return Patch{Width::k64, s};
      case kX86_64: return Patch{Width::k64, s + ua};
      case kX86_32: return Patch{Width::kU32, s + ua};
      case kX86_32S: return Patch{Width::kS32, s + ua};
      case kX86Pc32: return Patch{Width::kS32, s + ua - p};
      default: break;
    }
  } else if (machine == elf::kMachineAarch64) {
    switch (type) {
      case kA64None: return Patch{};
      case kA64Relative: return Patch{Width::k64, bias + ua};
      // RELA semantics: the word is replaced, never accumulated.
      case kA64Abs64:
      case kA64GlobDat:
      case kA64JumpSlot: return Patch{Width::k64, s + ua};
      default: break;
    }
  }
  return base::UnimplementedError("relocation type ", type, " is not supported for e_machine ",
                                  machine);
}

uint64_t PatchBytes(Width width) { return width == Width::k64 ? 8 : width == Width::kNone ? 0 : 4; }

}  // namespace

base::Status ApplyRelaRelocations(uint16_t machine, const ElfImage& image,
                                  const ElfSymbolTable& symbols, uint64_t table_vaddr,
                                  uint64_t table_size, std::string_view table_name) {
  if (table_size == 0) return base::Status::Ok();
  if (table_size % sizeof(elf::Rela) != 0) {
    return base::InvalidArgumentError("ELF: ", table_name, " size ", table_size,
                                      " is not a multiple of ", sizeof(elf::Rela));
  }
  if (!image.Contains(table_vaddr, table_size)) {
    return base::InvalidArgumentError("ELF: ", table_name, " table (address ",
                                      elf::Hex{table_vaddr}, ", size ", elf::Hex{table_size},
                                      ") lies outside the loaded segments");
  }
  const uint64_t bias = image.bias();
  const uint8_t* table = image.At(table_vaddr);
  const uint64_t count = table_size / sizeof(elf::Rela);
  for (uint64_t i = 0; i < count; ++i) {
    const auto rela = elf::ReadAt<elf::Rela>(table, i * sizeof(elf::Rela));
    const uint32_t type = elf::RelaType(rela.r_info);
    const uint32_t sym_index = elf::RelaSym(rela.r_info);
    uint64_t s = 0;
    if (sym_index != 0) {
      if (sym_index >= symbols.count) {
        return base::InvalidArgumentError("ELF: ", table_name, " entry ", i, " uses symbol ",
                                          sym_index, " but .dynsym has ", symbols.count);
      }
      const auto sym = elf::ReadAt<elf::Sym>(image.At(symbols.vaddr), sym_index * sizeof(elf::Sym));
      s = sym.st_shndx == elf::kShnAbs ? sym.st_value : bias + sym.st_value;
    }
    const uint64_t place = bias + rela.r_offset;
    auto patch = ComputePatch(machine, type, s, rela.r_addend, place, bias);
    if (!patch.ok()) {
      return base::Status(patch.status().code(),
                          base::StrCat("ELF: ", table_name, " entry ", i, " (offset ",
                                       elf::Hex{rela.r_offset}, "): ", patch.status().message()));
    }
    const uint64_t width = PatchBytes(patch->width);
    if (width == 0) continue;
    if (!image.Contains(rela.r_offset, width)) {
      return base::InvalidArgumentError("ELF: ", table_name, " entry ", i, " (type ", type,
                                        ") patches address ", elf::Hex{rela.r_offset},
                                        " outside the loaded segments");
    }
    uint8_t* target = image.At(rela.r_offset);
    const uint64_t value = patch->value;
    if (patch->width == Width::k64) {
      std::memcpy(target, &value, 8);
      continue;
    }
    const bool fits = patch->width == Width::kU32
                          ? value <= std::numeric_limits<uint32_t>::max()
                          : static_cast<int64_t>(value) >= std::numeric_limits<int32_t>::min() &&
                                static_cast<int64_t>(value) <= std::numeric_limits<int32_t>::max();
    if (!fits) {
      return base::InvalidArgumentError("ELF: ", table_name, " entry ", i, " (type ", type,
                                        ") value ", elf::Hex{value},
                                        " does not fit its 32-bit field");
    }
    const uint32_t narrow = static_cast<uint32_t>(value);
    std::memcpy(target, &narrow, 4);
  }
  return base::Status::Ok();
}

}  // namespace iree_rt::drivers::cpu
