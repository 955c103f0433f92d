// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/loader/elf_module.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "base/fault_hook.h"
#include "drivers/cpu/loader/elf_format.h"
#include "drivers/cpu/loader/fat_elf.h"

namespace iree_rt::drivers::cpu {

namespace {

// Generated executables are tens of KiB; this only stops absurd p_memsz values from
// reserving the address space.
constexpr uint64_t kMaxImageSize = 1ull << 30;

const char* SegmentTypeName(uint32_t type) {
  switch (type) {
    case elf::kPtLoad: return "PT_LOAD";
    case elf::kPtDynamic: return "PT_DYNAMIC";
    case elf::kPtTls: return "PT_TLS";
    case elf::kPtGnuRelro: return "PT_GNU_RELRO";
    default: return "other";
  }
}

const char* MachineName(uint16_t machine) {
  switch (machine) {
    case elf::kMachineX86_64: return "x86-64";
    case elf::kMachineAarch64: return "AArch64";
    case 3: return "i386";
    case 40: return "ARM";
    case 243: return "RISC-V";
    default: return "unknown";
  }
}

uint64_t PageSize() {
  static const uint64_t page_size = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return page_size;
}

base::Status ValidateHeader(std::span<const uint8_t> data, elf::Ehdr* out) {
  if (data.size() < sizeof(elf::Ehdr)) {
    return base::InvalidArgumentError("ELF: file is ", data.size(),
                                      " bytes, smaller than the 64-byte ELF header");
  }
  const auto h = elf::ReadAt<elf::Ehdr>(data.data(), 0);
  if (std::memcmp(h.e_ident, elf::kMagic, sizeof(elf::kMagic)) != 0) {
    return base::InvalidArgumentError("ELF: bad magic (expected 7f 45 4c 46)");
  }
  if (h.e_ident[elf::kIdentClass] != elf::kClass64) {
    return base::IncompatibleError("ELF: class ", static_cast<int>(h.e_ident[elf::kIdentClass]),
                                   " is not supported; this host loads ELFCLASS64 (2)");
  }
  if (h.e_ident[elf::kIdentData] != elf::kData2Lsb) {
    return base::IncompatibleError("ELF: data encoding ",
                                   static_cast<int>(h.e_ident[elf::kIdentData]),
                                   " is not supported; only little-endian (ELFDATA2LSB)");
  }
  if (h.e_ident[elf::kIdentVersion] != elf::kVersionCurrent || h.e_version != elf::kVersionCurrent) {
    return base::InvalidArgumentError("ELF: version ", h.e_version, " (ident ",
                                      static_cast<int>(h.e_ident[elf::kIdentVersion]),
                                      ") is not EV_CURRENT (1)");
  }
  if (h.e_type != elf::kTypeDyn) {
    return base::InvalidArgumentError("ELF: e_type ", h.e_type,
                                      h.e_type == elf::kTypeExec ? " (ET_EXEC)" : "",
                                      " is not loadable; only ET_DYN shared objects are");
  }
  const uint16_t host = ElfModule::HostMachine();
  if (h.e_machine != host) {
    return base::IncompatibleError("ELF: e_machine ", h.e_machine, " (", MachineName(h.e_machine),
                                   ") does not match this host (", host, ", ", MachineName(host),
                                   ")");
  }
  if (h.e_ehsize != sizeof(elf::Ehdr) || h.e_phentsize != sizeof(elf::Phdr) ||
      h.e_shentsize != sizeof(elf::Shdr)) {
    return base::InvalidArgumentError("ELF: header sizes e_ehsize ", h.e_ehsize, ", e_phentsize ",
                                      h.e_phentsize, ", e_shentsize ", h.e_shentsize,
                                      " differ from ELF64's 64/56/64");
  }
  if (h.e_phnum == 0 || h.e_phnum == 0xFFFF) {
    return base::InvalidArgumentError("ELF: e_phnum ", h.e_phnum,
                                      " is not a usable program header count");
  }
  if (!elf::RangeFits(h.e_phoff, uint64_t{h.e_phnum} * sizeof(elf::Phdr), data.size())) {
    return base::InvalidArgumentError("ELF: program header table (offset ", elf::Hex{h.e_phoff},
                                      ", ", h.e_phnum, " entries) extends past end of file (",
                                      data.size(), " bytes)");
  }
  if (h.e_shoff == 0 || h.e_shnum == 0) {
    return base::InvalidArgumentError("ELF: section header table missing");
  }
  if (!elf::RangeFits(h.e_shoff, uint64_t{h.e_shnum} * sizeof(elf::Shdr), data.size())) {
    return base::InvalidArgumentError("ELF: section header table (offset ", elf::Hex{h.e_shoff},
                                      ", ", h.e_shnum, " entries) extends past end of file (",
                                      data.size(), " bytes)");
  }
  *out = h;
  return base::Status::Ok();
}

struct ProgramHeaders {
  std::vector<elf::Phdr> loads;  // p_memsz > 0 only, in file order
  std::vector<uint32_t> load_indices;
  std::vector<elf::Phdr> relros;
  elf::Phdr dynamic{};
  bool has_dynamic = false;
};

base::Status ReadProgramHeaders(std::span<const uint8_t> data, const elf::Ehdr& ehdr,
                                ProgramHeaders* out) {
  for (uint32_t i = 0; i < ehdr.e_phnum; ++i) {
    const auto ph = elf::ReadAt<elf::Phdr>(data.data(), ehdr.e_phoff + i * sizeof(elf::Phdr));
    const char* kind = SegmentTypeName(ph.p_type);
    if (ph.p_type == elf::kPtLoad) {
      if (ph.p_filesz > ph.p_memsz) {
        return base::InvalidArgumentError("ELF: program header ", i, " (", kind, ") p_filesz ",
                                          elf::Hex{ph.p_filesz}, " exceeds p_memsz ",
                                          elf::Hex{ph.p_memsz});
      }
      if (!elf::RangeFits(ph.p_offset, ph.p_filesz, data.size())) {
        return base::InvalidArgumentError("ELF: program header ", i, " (", kind,
                                          ") extends past end of file (offset ",
                                          elf::Hex{ph.p_offset}, ", size ", elf::Hex{ph.p_filesz},
                                          ", file ", elf::Hex{data.size()}, ")");
      }
      if (ph.p_memsz > kMaxImageSize) {
        return base::ResourceExhaustedError("ELF: program header ", i, " (", kind, ") p_memsz ",
                                            elf::Hex{ph.p_memsz}, " exceeds the loader limit ",
                                            elf::Hex{kMaxImageSize});
      }
      if (ph.p_vaddr > UINT64_MAX - ph.p_memsz - PageSize()) {
        return base::InvalidArgumentError("ELF: program header ", i, " (", kind,
                                          ") address range overflows (vaddr ",
                                          elf::Hex{ph.p_vaddr}, ", size ", elf::Hex{ph.p_memsz},
                                          ")");
      }
      if ((ph.p_flags & elf::kPfW) && (ph.p_flags & elf::kPfX)) {
        return base::InvalidArgumentError("ELF: program header ", i, " (", kind,
                                          ") is both writable and executable");
      }
      if (ph.p_memsz == 0) continue;
      out->loads.push_back(ph);
      out->load_indices.push_back(i);
    } else if (ph.p_type == elf::kPtDynamic) {
      if (out->has_dynamic) {
        return base::InvalidArgumentError("ELF: program header ", i, " is a second PT_DYNAMIC");
      }
      out->dynamic = ph;
      out->has_dynamic = true;
    } else if (ph.p_type == elf::kPtTls && ph.p_memsz != 0) {
      return base::UnimplementedError("ELF: program header ", i,
                                      " (PT_TLS): thread-local storage is not supported");
    } else if (ph.p_type == elf::kPtGnuRelro) {
      out->relros.push_back(ph);
    }
  }
  if (out->loads.empty()) return base::InvalidArgumentError("ELF: no non-empty PT_LOAD segment");
  if (!out->has_dynamic) {
    return base::InvalidArgumentError("ELF: no PT_DYNAMIC program header (the dynamic table is "
                                      "required)");
  }
  return base::Status::Ok();
}

// Fills |image| segments and the page-aligned span, rejecting overlapping segments.
base::Status PlanImage(const ProgramHeaders& headers, ElfImage* image) {
  for (size_t i = 0; i < headers.loads.size(); ++i) {
    const elf::Phdr& ph = headers.loads[i];
    image->segments.push_back({ph.p_vaddr, ph.p_memsz, ph.p_flags, headers.load_indices[i]});
  }
  std::vector<ElfSegment> sorted = image->segments;
  std::sort(sorted.begin(), sorted.end(),
            [](const ElfSegment& a, const ElfSegment& b) { return a.vaddr < b.vaddr; });
  for (size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i - 1].vaddr + sorted[i - 1].memsz > sorted[i].vaddr) {
      return base::InvalidArgumentError("ELF: program headers ", sorted[i - 1].phdr_index, " and ",
                                        sorted[i].phdr_index, " (PT_LOAD) overlap");
    }
  }
  const uint64_t page = PageSize();
  const uint64_t min_vaddr = sorted.front().vaddr & ~(page - 1);
  uint64_t max_end = 0;
  for (const ElfSegment& s : sorted) max_end = std::max(max_end, s.vaddr + s.memsz);
  const uint64_t end = (max_end + page - 1) & ~(page - 1);  // no overflow: checked per header
  if (end - min_vaddr > kMaxImageSize) {
    return base::ResourceExhaustedError("ELF: image spans ", elf::Hex{end - min_vaddr},
                                        " bytes; the loader limit is ", elf::Hex{kMaxImageSize});
  }
  image->min_vaddr = min_vaddr;
  image->size = end - min_vaddr;
  return base::Status::Ok();
}

struct DynamicInfo {
  uint64_t strtab = 0, strsz = 0, symtab = 0, hash = 0;
  uint64_t rela = 0, relasz = 0, jmprel = 0, pltrelsz = 0;
  uint64_t init = 0, init_array = 0, init_arraysz = 0;
  bool has_strtab = false, has_strsz = false, has_symtab = false, has_hash = false;
  bool has_rela = false, has_relasz = false, has_jmprel = false;
};

base::StatusOr<DynamicInfo> ParseDynamic(const ElfImage& image, const elf::Phdr& dynamic) {
  if (dynamic.p_memsz % sizeof(elf::Dyn) != 0 || !image.Contains(dynamic.p_vaddr, dynamic.p_memsz)) {
    return base::InvalidArgumentError("ELF: PT_DYNAMIC (address ", elf::Hex{dynamic.p_vaddr},
                                      ", size ", elf::Hex{dynamic.p_memsz},
                                      ") is misaligned or outside the loaded segments");
  }
  DynamicInfo info;
  const uint8_t* table = image.At(dynamic.p_vaddr);
  for (uint64_t i = 0; i < dynamic.p_memsz / sizeof(elf::Dyn); ++i) {
    const auto entry = elf::ReadAt<elf::Dyn>(table, i * sizeof(elf::Dyn));
    if (entry.d_tag == elf::kDtNull) break;
    const uint64_t v = entry.d_val;
    switch (entry.d_tag) {
      case elf::kDtNeeded:
        return base::UnimplementedError("ELF: DT_NEEDED: dynamic library dependencies are not "
                                        "supported (the image must be freestanding)");
      case elf::kDtRel:
      case elf::kDtRelSz:
      case elf::kDtRelEnt:
        return base::UnimplementedError("ELF: DT_REL relocations (tag ", entry.d_tag,
                                        ") are not supported; only DT_RELA");
      case elf::kDtPltRel:
        if (v != static_cast<uint64_t>(elf::kDtRela)) {
          return base::UnimplementedError("ELF: DT_PLTREL is ", v, "; only DT_RELA (7) is supported");
        }
        break;
      case elf::kDtSymEnt:
        if (v != sizeof(elf::Sym)) {
          return base::InvalidArgumentError("ELF: DT_SYMENT is ", v, "; expected ", sizeof(elf::Sym));
        }
        break;
      case elf::kDtRelaEnt:
        if (v != sizeof(elf::Rela)) {
          return base::InvalidArgumentError("ELF: DT_RELAENT is ", v, "; expected ",
                                            sizeof(elf::Rela));
        }
        break;
      case elf::kDtStrTab: info.strtab = v; info.has_strtab = true; break;
      case elf::kDtStrSz: info.strsz = v; info.has_strsz = true; break;
      case elf::kDtSymTab: info.symtab = v; info.has_symtab = true; break;
      case elf::kDtHash: info.hash = v; info.has_hash = true; break;
      case elf::kDtRela: info.rela = v; info.has_rela = true; break;
      case elf::kDtRelaSz: info.relasz = v; info.has_relasz = true; break;
      case elf::kDtJmpRel: info.jmprel = v; info.has_jmprel = true; break;
      case elf::kDtPltRelSz: info.pltrelsz = v; break;
      case elf::kDtInit: info.init = v; break;
      case elf::kDtInitArray: info.init_array = v; break;
      case elf::kDtInitArraySz: info.init_arraysz = v; break;
      default: break;  // DT_FLAGS, DT_RELACOUNT, DT_GNU_HASH, ...: not needed
    }
  }
  if (!info.has_hash) {
    return base::InvalidArgumentError("ELF: DT_HASH is required (the symbol count comes from the "
                                      "SysV hash table; DT_GNU_HASH is not used)");
  }
  if (!info.has_symtab || !info.has_strtab || !info.has_strsz) {
    return base::InvalidArgumentError("ELF: DT_SYMTAB, DT_STRTAB and DT_STRSZ are required");
  }
  if (info.has_rela != info.has_relasz) {
    return base::InvalidArgumentError("ELF: DT_RELA and DT_RELASZ must appear together");
  }
  if (info.has_jmprel && info.pltrelsz == 0) {
    return base::InvalidArgumentError("ELF: DT_JMPREL without DT_PLTRELSZ");
  }
  return info;
}

// Reads the DT_HASH header and bounds-checks the hash, symbol and string tables.
base::Status ValidateSymbolTables(const ElfImage& image, const DynamicInfo& dyn,
                                  ElfSymbolTable* symbols) {
  if (!image.Contains(dyn.hash, 8)) {
    return base::InvalidArgumentError("ELF: DT_HASH address ", elf::Hex{dyn.hash},
                                      " lies outside the loaded segments");
  }
  const uint64_t nbucket = elf::ReadAt<uint32_t>(image.At(dyn.hash), 0);
  const uint64_t nchain = elf::ReadAt<uint32_t>(image.At(dyn.hash), 4);
  if (!image.Contains(dyn.hash, (2 + nbucket + nchain) * 4)) {
    return base::InvalidArgumentError("ELF: DT_HASH table (", nbucket, " buckets, ", nchain,
                                      " chains) extends outside the loaded segments");
  }
  if (!image.Contains(dyn.symtab, nchain * sizeof(elf::Sym))) {
    return base::InvalidArgumentError("ELF: DT_SYMTAB (address ", elf::Hex{dyn.symtab}, ", ",
                                      nchain, " symbols) extends outside the loaded segments");
  }
  if (dyn.strsz == 0 || !image.Contains(dyn.strtab, dyn.strsz)) {
    return base::InvalidArgumentError("ELF: DT_STRTAB (address ", elf::Hex{dyn.strtab}, ", size ",
                                      elf::Hex{dyn.strsz}, ") is empty or outside the segments");
  }
  symbols->vaddr = dyn.symtab;
  symbols->count = static_cast<uint32_t>(nchain);
  return base::Status::Ok();
}

// Returns the NUL-terminated name at |offset| in the string table, bounded by it.
std::string_view TableString(const ElfImage& image, uint64_t strtab, uint64_t strsz,
                             uint64_t offset) {
  if (offset >= strsz) return {};
  const char* start = reinterpret_cast<const char*>(image.At(strtab)) + offset;
  return std::string_view(start, strnlen(start, strsz - offset));
}

base::Status RejectUndefinedSymbols(const ElfImage& image, const DynamicInfo& dyn,
                                    const ElfSymbolTable& symbols) {
  for (uint32_t i = 1; i < symbols.count; ++i) {
    const auto sym = elf::ReadAt<elf::Sym>(image.At(symbols.vaddr), i * sizeof(elf::Sym));
    if (sym.st_name >= dyn.strsz) {
      return base::InvalidArgumentError("ELF: symbol ", i, " name offset ", sym.st_name,
                                        " is past the string table (", dyn.strsz, " bytes)");
    }
    const std::string_view name = TableString(image, dyn.strtab, dyn.strsz, sym.st_name);
    if (sym.st_shndx == elf::kShnUndef) {
      return base::UnimplementedError("ELF: symbol ", i, " ('", name,
                                      "') is undefined; dynamic linking is not supported");
    }
    if (sym.st_shndx >= elf::kShnLoReserve && sym.st_shndx != elf::kShnAbs) {
      return base::UnimplementedError("ELF: symbol ", i, " ('", name, "') has special section index ",
                                      elf::Hex{sym.st_shndx});
    }
  }
  return base::Status::Ok();
}

// Collects DT_INIT and DT_INIT_ARRAY targets (after relocation) and checks each lies in
// an executable segment, so a corrupted table cannot make us jump into data.
base::StatusOr<std::vector<uint64_t>> CollectInitializers(const ElfImage& image,
                                                          const DynamicInfo& dyn) {
  std::vector<uint64_t> targets;  // host addresses
  const uint64_t bias = image.bias();
  if (dyn.init != 0) {
    if (!image.Contains(dyn.init, 1, /*executable=*/true)) {
      return base::InvalidArgumentError("ELF: DT_INIT ", elf::Hex{dyn.init},
                                        " is not inside an executable segment");
    }
    targets.push_back(bias + dyn.init);
  }
  if (dyn.init_arraysz == 0) return targets;
  if (dyn.init_arraysz % 8 != 0 || !image.Contains(dyn.init_array, dyn.init_arraysz)) {
    return base::InvalidArgumentError("ELF: DT_INIT_ARRAY (address ", elf::Hex{dyn.init_array},
                                      ", size ", elf::Hex{dyn.init_arraysz},
                                      ") is misaligned or outside the loaded segments");
  }
  for (uint64_t i = 0; i < dyn.init_arraysz / 8; ++i) {
    const uint64_t address = elf::ReadAt<uint64_t>(image.At(dyn.init_array), i * 8);
    if (address == 0 || address == UINT64_MAX) continue;  // placeholders by convention
    if (!image.Contains(address - bias, 1, /*executable=*/true)) {
      return base::InvalidArgumentError("ELF: DT_INIT_ARRAY entry ", i,
                                        " does not point into an executable segment");
    }
    targets.push_back(address);
  }
  return targets;
}

// Applies per-page protections: the union of the flags of the segments on a page (all
// loaded pages are at least readable), minus write for PT_GNU_RELRO pages; gaps get none.
base::Status ProtectImage(const ElfImage& image, const std::vector<elf::Phdr>& relros) {
  const uint64_t page = PageSize();
  const uint64_t pages = image.size / page;
  std::vector<uint32_t> flags(pages, 0);
  for (const ElfSegment& s : image.segments) {
    const uint64_t first = (s.vaddr - image.min_vaddr) / page;
    const uint64_t last = (s.vaddr + s.memsz - image.min_vaddr + page - 1) / page;
    for (uint64_t p = first; p < last; ++p) {
      flags[p] |= s.flags | elf::kPfR;
      if ((flags[p] & elf::kPfW) && (flags[p] & elf::kPfX)) {
        return base::InvalidArgumentError("ELF: the page at ",
                                          elf::Hex{image.min_vaddr + p * page},
                                          " would be writable and executable (program header ",
                                          s.phdr_index, " shares it)");
      }
    }
  }
  for (const elf::Phdr& relro : relros) {
    // Round both ends down, like the system loader, so no non-RELRO data loses write.
    if (relro.p_vaddr < image.min_vaddr ||
        !elf::RangeFits(relro.p_vaddr - image.min_vaddr, relro.p_memsz, image.size)) {
      return base::InvalidArgumentError("ELF: PT_GNU_RELRO (address ", elf::Hex{relro.p_vaddr},
                                        ", size ", elf::Hex{relro.p_memsz},
                                        ") lies outside the image");
    }
    const uint64_t first = (relro.p_vaddr - image.min_vaddr) / page;
    const uint64_t last = std::min(pages, (relro.p_vaddr - image.min_vaddr + relro.p_memsz) / page);
    for (uint64_t p = first; p < last; ++p) flags[p] &= ~elf::kPfW;
  }
  for (uint64_t p = 0; p < pages;) {
    uint64_t run = p + 1;
    while (run < pages && flags[run] == flags[p]) ++run;
    int prot = PROT_NONE;
    if (flags[p] & elf::kPfR) prot |= PROT_READ;
    if (flags[p] & elf::kPfW) prot |= PROT_WRITE;
    if (flags[p] & elf::kPfX) prot |= PROT_EXEC;
    if (mprotect(image.base + p * page, (run - p) * page, prot) != 0) {
      return base::InternalError("ELF: mprotect failed: ", std::strerror(errno));
    }
    if (prot & PROT_EXEC) {
      char* begin = reinterpret_cast<char*>(image.base + p * page);
      __builtin___clear_cache(begin, begin + (run - p) * page);
    }
    p = run;
  }
  return base::Status::Ok();
}

}  // namespace

uint16_t ElfModule::HostMachine() {
#if defined(__x86_64__)
  return elf::kMachineX86_64;
#elif defined(__aarch64__)
  return elf::kMachineAarch64;
#else
  return 0;
#endif
}

base::StatusOr<std::unique_ptr<ElfModule>> ElfModule::Load(std::span<const uint8_t> input) {
  return LoadImpl(input, /*run_initializers=*/true);
}

base::StatusOr<std::unique_ptr<ElfModule>> ElfModule::LoadWithoutInitializers(
    std::span<const uint8_t> input) {
  return LoadImpl(input, /*run_initializers=*/false);
}

base::StatusOr<std::unique_ptr<ElfModule>> ElfModule::LoadImpl(std::span<const uint8_t> input,
                                                               bool run_initializers) {
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> data, SelectFatElfSlice(input, HostMachine()));
  elf::Ehdr ehdr;
  RT_RETURN_IF_ERROR(ValidateHeader(data, &ehdr));
  ProgramHeaders headers;
  RT_RETURN_IF_ERROR(ReadProgramHeaders(data, ehdr, &headers));

  std::unique_ptr<ElfModule> module(new ElfModule());
  ElfImage& image = module->image_;
  RT_RETURN_IF_ERROR(PlanImage(headers, &image));
  void* base = base::AllocationFaultInjected()
                   ? MAP_FAILED
                   : mmap(nullptr, image.size, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) {
    return base::ResourceExhaustedError("ELF: reserving ", image.size,
                                        " bytes failed: ", std::strerror(errno));
  }
  image.base = static_cast<uint8_t*>(base);  // from here on the destructor unmaps
  for (const elf::Phdr& ph : headers.loads) {
    if (ph.p_filesz != 0) std::memcpy(image.At(ph.p_vaddr), data.data() + ph.p_offset, ph.p_filesz);
  }

  RT_ASSIGN_OR_RETURN(DynamicInfo dyn, ParseDynamic(image, headers.dynamic));
  RT_RETURN_IF_ERROR(ValidateSymbolTables(image, dyn, &module->symbols_));
  RT_RETURN_IF_ERROR(RejectUndefinedSymbols(image, dyn, module->symbols_));
  module->strtab_vaddr_ = dyn.strtab;
  module->strtab_size_ = dyn.strsz;

  if (dyn.has_rela) {
    RT_RETURN_IF_ERROR(ApplyRelaRelocations(ehdr.e_machine, image, module->symbols_, dyn.rela,
                                            dyn.relasz, "DT_RELA"));
  }
  if (dyn.has_jmprel) {
    RT_RETURN_IF_ERROR(ApplyRelaRelocations(ehdr.e_machine, image, module->symbols_, dyn.jmprel,
                                            dyn.pltrelsz, "DT_JMPREL"));
  }
  RT_ASSIGN_OR_RETURN(std::vector<uint64_t> initializers, CollectInitializers(image, dyn));
  RT_RETURN_IF_ERROR(ProtectImage(image, headers.relros));
  if (run_initializers) {
    for (uint64_t address : initializers) reinterpret_cast<void (*)()>(address)();
  }
  return module;
}

ElfModule::~ElfModule() {
  if (image_.base != nullptr) munmap(image_.base, image_.size);
}

void* ElfModule::LookupSymbol(std::string_view name) const {
  if (name.empty()) return nullptr;
  // Scan from the end, as lookups of the few exported symbols always find them late.
  for (uint32_t i = symbols_.count; i-- > 1;) {
    const auto sym = elf::ReadAt<elf::Sym>(image_.At(symbols_.vaddr), i * sizeof(elf::Sym));
    const uint8_t binding = elf::SymBinding(sym.st_info);
    if (sym.st_name == 0 || (binding != elf::kStbGlobal && binding != elf::kStbWeak)) continue;
    if (sym.st_shndx == elf::kShnAbs) continue;  // not an address in the image
    if (TableString(image_, strtab_vaddr_, strtab_size_, sym.st_name) != name) continue;
    if (!image_.Contains(sym.st_value, 1)) return nullptr;
    return image_.At(sym.st_value);
  }
  return nullptr;
}

bool ElfModule::ContainsRange(const void* ptr, size_t size) const {
  const uint64_t address = reinterpret_cast<uintptr_t>(ptr);
  return image_.Contains(address - image_.bias(), size);
}

std::optional<std::string_view> ElfModule::ReadString(const char* ptr) const {
  const uint64_t available = image_.BytesAvailable(reinterpret_cast<uintptr_t>(ptr) - image_.bias());
  if (available == 0) return std::nullopt;
  const size_t length = strnlen(ptr, available);
  if (length == available) return std::nullopt;  // unterminated within its segment
  return std::string_view(ptr, length);
}

bool ElfModule::ContainsCode(const void* ptr) const {
  const uint64_t address = reinterpret_cast<uintptr_t>(ptr);
  return image_.Contains(address - image_.bias(), 1, /*executable=*/true);
}

}  // namespace iree_rt::drivers::cpu
