// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The bad-module corpus, executable part: CPU executables compiled by iree-compile
// (embedded-elf, this host's arch) broken one field at a time. ElfModule::Load must reject each
// with a message naming the broken header, table or entry, and never crash or run code.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bad_modules_util.h"
#include "drivers/cpu/loader/elf_format.h"
#include "drivers/cpu/loader/elf_module.h"

namespace iree_rt::bad_modules {
namespace {

namespace elf = drivers::cpu::elf;
using base::StatusCode;
using drivers::cpu::ElfModule;

const char* const kExecutables[] = {
    "executables/rt_exe_abs.so",
    "executables/rt_exe_multi_entrypoint.so",
    "executables/rt_exe_write_constants.so",
};

base::Status LoadElf(const std::vector<uint8_t>& bytes) {
  return ElfModule::LoadWithoutInitializers(bytes).status();
}

class BadElfTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    file_ = ReadTestFile(GetParam());
    ASSERT_GE(file_.size(), sizeof(elf::Ehdr));
    base::Status status = ElfModule::Load(file_).status();
    ASSERT_TRUE(status.ok()) << status.ToString();
    ehdr_ = ReadAt<elf::Ehdr>(file_, 0);
    for (uint16_t i = 0; i < ehdr_.e_phnum; ++i) {
      const elf::Phdr ph = ReadAt<elf::Phdr>(file_, ehdr_.e_phoff + i * sizeof(elf::Phdr));
      if (ph.p_type == elf::kPtDynamic) dynamic_ = ph;
      if (ph.p_type == elf::kPtLoad) loads_.push_back(ph);
    }
    ASSERT_NE(dynamic_.p_type, 0u);
  }
  std::string What(const std::string& detail) const {
    return std::string(GetParam()) + ": " + detail;
  }

  // File position of virtual address |vaddr| (inside a PT_LOAD's file bytes), or 0.
  size_t FileOffset(uint64_t vaddr) const {
    for (const elf::Phdr& ph : loads_) {
      if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz)
        return ph.p_offset + (vaddr - ph.p_vaddr);
    }
    return 0;
  }
  // File position of the first dynamic entry with |tag|, or 0.
  size_t DynamicEntry(int64_t tag) const {
    for (size_t pos = dynamic_.p_offset; pos + 16 <= dynamic_.p_offset + dynamic_.p_filesz;
         pos += 16) {
      const int64_t t = ReadAt<int64_t>(file_, pos);
      if (t == tag) return pos;
      if (t == elf::kDtNull) break;
    }
    return 0;
  }
  template <typename T>
  void Expect(size_t pos, T value, std::string_view category,
              std::initializer_list<std::string_view> substrings, const std::string& what,
              StatusCode code = StatusCode::kOk) {
    std::vector<uint8_t> broken = file_;
    WriteAt(broken, pos, value);
    ExpectRejected(LoadElf(broken), category, substrings, What(what), code);
  }

  std::vector<uint8_t> file_;
  elf::Ehdr ehdr_{};
  elf::Phdr dynamic_{};
  std::vector<elf::Phdr> loads_;
};

TEST_P(BadElfTest, Truncated) {
  // Every prefix up to the end of the last PT_LOAD's file bytes (section headers come later).
  size_t needed = 0;
  for (const elf::Phdr& ph : loads_) needed = std::max<size_t>(needed, ph.p_offset + ph.p_filesz);
  for (size_t size = 0; size < needed; size += 7) {
    std::vector<uint8_t> prefix(file_.begin(), file_.begin() + size);
    ExpectRejected(LoadElf(prefix), "elf truncated",
                   {"smaller than the 64-byte ELF header", "extends past end of file"},
                   What("truncated to " + std::to_string(size)), StatusCode::kInvalidArgument);
  }
}

TEST_P(BadElfTest, BadHeader) {
  Expect<uint8_t>(0, 0x7E, "elf header", {"bad magic"}, "magic", StatusCode::kInvalidArgument);
  Expect<uint8_t>(elf::kIdentClass, 1, "elf header", {"class 1"}, "ELFCLASS32",
                  StatusCode::kIncompatible);
  Expect<uint8_t>(elf::kIdentData, 2, "elf header", {"data encoding"}, "big-endian",
                  StatusCode::kIncompatible);
  Expect<uint8_t>(elf::kIdentVersion, 0, "elf header", {"EV_CURRENT"}, "ident version");
  Expect<uint32_t>(offsetof(elf::Ehdr, e_version), 2, "elf header", {"EV_CURRENT"}, "e_version");
  Expect<uint16_t>(offsetof(elf::Ehdr, e_type), elf::kTypeExec, "elf header", {"ET_EXEC"},
                   "e_type ET_EXEC");
  Expect<uint16_t>(offsetof(elf::Ehdr, e_type), 1, "elf header", {"e_type 1"}, "e_type ET_REL");
  Expect<uint16_t>(
      offsetof(elf::Ehdr, e_machine),
      ElfModule::HostMachine() == elf::kMachineX86_64 ? elf::kMachineAarch64 : elf::kMachineX86_64,
      "elf header", {"e_machine"}, "other machine", StatusCode::kIncompatible);
  Expect<uint16_t>(offsetof(elf::Ehdr, e_ehsize), 52, "elf header", {"e_ehsize 52"}, "e_ehsize");
  Expect<uint16_t>(offsetof(elf::Ehdr, e_phentsize), 32, "elf header", {"e_phentsize 32"},
                   "e_phentsize");
  Expect<uint16_t>(offsetof(elf::Ehdr, e_shentsize), 40, "elf header", {"e_shentsize 40"},
                   "e_shentsize");
  Expect<uint16_t>(offsetof(elf::Ehdr, e_phnum), 0, "elf header", {"e_phnum 0"}, "e_phnum 0");
  Expect<uint16_t>(offsetof(elf::Ehdr, e_phnum), 0xFFFF, "elf header", {"e_phnum 65535"},
                   "e_phnum PN_XNUM");
  Expect<uint64_t>(offsetof(elf::Ehdr, e_phoff), file_.size(), "elf header",
                   {"program header table"}, "e_phoff past the end");
  Expect<uint64_t>(offsetof(elf::Ehdr, e_phoff), ~uint64_t{0} - 8, "elf header",
                   {"program header table"}, "e_phoff wrapping");
  Expect<uint16_t>(offsetof(elf::Ehdr, e_phnum), 0xFFF0, "elf header", {"program header table"},
                   "e_phnum past the end");
  Expect<uint64_t>(offsetof(elf::Ehdr, e_shoff), 0, "elf header", {"section header table missing"},
                   "e_shoff 0");
  Expect<uint64_t>(offsetof(elf::Ehdr, e_shoff), file_.size() - 8, "elf header",
                   {"section header table"}, "e_shoff past the end");
  // FatELF containers: truncated, unknown version, no record for this host.
  std::vector<uint8_t> fat(8 + 24, 0);
  WriteAt<uint32_t>(fat, 0, elf::kFatElfMagic);
  WriteAt<uint16_t>(fat, 4, 1);
  fat[6] = 1;
  std::vector<uint8_t> truncated(fat.begin(), fat.begin() + 6);
  ExpectRejected(LoadElf(truncated), "fatelf", {"FatELF: header truncated"},
                 What("fatelf 6 bytes"));
  WriteAt<uint16_t>(fat, 4, 7);
  ExpectRejected(LoadElf(fat), "fatelf", {"FatELF: container version 7"}, What("fatelf version"));
  WriteAt<uint16_t>(fat, 4, 1);
  ExpectRejected(LoadElf(fat), "fatelf", {"FatELF"}, What("fatelf without a host record"));
}

TEST_P(BadElfTest, BadProgramHeaders) {
  for (uint16_t i = 0; i < ehdr_.e_phnum; ++i) {
    const size_t ph = ehdr_.e_phoff + i * sizeof(elf::Phdr);
    const elf::Phdr header = ReadAt<elf::Phdr>(file_, ph);
    const std::string name = "program header " + std::to_string(i);
    if (header.p_type == elf::kPtLoad && header.p_memsz != 0) {
      Expect<uint64_t>(ph + offsetof(elf::Phdr, p_offset), file_.size(), "elf program header",
                       {"extends past end of file"}, name + " p_offset");
      Expect<uint64_t>(ph + offsetof(elf::Phdr, p_filesz), header.p_memsz + 1, "elf program header",
                       {"exceeds p_memsz"}, name + " p_filesz > p_memsz");
      Expect<uint64_t>(ph + offsetof(elf::Phdr, p_memsz), uint64_t{1} << 40, "elf program header",
                       {"loader limit"}, name + " p_memsz 1 TiB", StatusCode::kResourceExhausted);
      Expect<uint64_t>(ph + offsetof(elf::Phdr, p_vaddr), ~uint64_t{0} - 16, "elf program header",
                       {"overflows"}, name + " p_vaddr wraps");
      Expect<uint32_t>(ph + offsetof(elf::Phdr, p_flags), elf::kPfR | elf::kPfW | elf::kPfX,
                       "elf program header", {"writable and executable"}, name + " RWX");
      // Moved onto another segment.
      for (const elf::Phdr& other : loads_) {
        if (other.p_vaddr == header.p_vaddr) continue;
        Expect<uint64_t>(ph + offsetof(elf::Phdr, p_vaddr), other.p_vaddr, "elf program header",
                         {"overlap", "writable and executable", "outside", "DT_", "PT_DYNAMIC"},
                         name + " overlapping");
        break;
      }
    }
    if (header.p_type == elf::kPtDynamic) {
      Expect<uint64_t>(ph + offsetof(elf::Phdr, p_vaddr), uint64_t{1} << 40, "elf program header",
                       {"PT_DYNAMIC"}, name + " PT_DYNAMIC outside");
      Expect<uint64_t>(ph + offsetof(elf::Phdr, p_memsz), header.p_memsz + 3, "elf program header",
                       {"PT_DYNAMIC"}, name + " PT_DYNAMIC misaligned");
      Expect<uint32_t>(ph + offsetof(elf::Phdr, p_type), elf::kPtNull, "elf program header",
                       {"no PT_DYNAMIC"}, name + " PT_DYNAMIC removed");
    }
    if (header.p_type != elf::kPtLoad && header.p_type != elf::kPtDynamic) {
      std::vector<uint8_t> broken = file_;
      WriteAt<uint32_t>(broken, ph + offsetof(elf::Phdr, p_type), elf::kPtTls);
      WriteAt<uint64_t>(broken, ph + offsetof(elf::Phdr, p_memsz), 64);
      ExpectRejected(LoadElf(broken), "elf program header", {"thread-local storage"},
                     What(name + " PT_TLS"), StatusCode::kUnimplemented);
    }
  }
  // Every PT_LOAD removed: nothing to load.
  std::vector<uint8_t> broken = file_;
  for (uint16_t i = 0; i < ehdr_.e_phnum; ++i) {
    const size_t ph = ehdr_.e_phoff + i * sizeof(elf::Phdr);
    if (ReadAt<uint32_t>(broken, ph) == elf::kPtLoad) WriteAt<uint32_t>(broken, ph, elf::kPtNull);
  }
  ExpectRejected(LoadElf(broken), "elf program header", {"no non-empty PT_LOAD"},
                 What("no PT_LOAD"));
}

TEST_P(BadElfTest, BadDynamicTable) {
  struct Edit {
    int64_t tag;
    uint64_t value;
    const char* expected;
    StatusCode code;
  };
  const Edit edits[] = {
      {elf::kDtHash, uint64_t{1} << 40, "DT_HASH address", StatusCode::kInvalidArgument},
      {elf::kDtSymTab, uint64_t{1} << 40, "DT_SYMTAB", StatusCode::kInvalidArgument},
      {elf::kDtStrTab, uint64_t{1} << 40, "DT_STRTAB", StatusCode::kInvalidArgument},
      {elf::kDtStrSz, 0, "DT_STRTAB", StatusCode::kInvalidArgument},
      {elf::kDtStrSz, uint64_t{1} << 40, "DT_STRTAB", StatusCode::kInvalidArgument},
      {elf::kDtSymEnt, 16, "DT_SYMENT is 16", StatusCode::kInvalidArgument},
      {elf::kDtRela, uint64_t{1} << 40, "DT_RELA table", StatusCode::kInvalidArgument},
      {elf::kDtRelaSz, 25, "DT_RELA size 25", StatusCode::kInvalidArgument},
      {elf::kDtRelaSz, uint64_t{3} << 40, "DT_RELA table", StatusCode::kInvalidArgument},
      {elf::kDtRelaEnt, 16, "DT_RELAENT is 16", StatusCode::kInvalidArgument},
      {elf::kDtInit, uint64_t{1} << 40, "DT_INIT", StatusCode::kInvalidArgument},
      {elf::kDtInitArray, uint64_t{1} << 40, "DT_INIT_ARRAY", StatusCode::kInvalidArgument},
  };
  for (const Edit& edit : edits) {
    const size_t entry = DynamicEntry(edit.tag);
    if (entry == 0) continue;  // not in this executable
    Expect<uint64_t>(entry + 8, edit.value, "elf dynamic table", {edit.expected},
                     "tag " + std::to_string(edit.tag) + " = " + std::to_string(edit.value),
                     edit.code);
  }
  // Tags changed into ones the loader refuses, or removed (turned into an ignored tag).
  const size_t hash = DynamicEntry(elf::kDtHash);
  ASSERT_NE(hash, 0u);
  Expect<int64_t>(hash, elf::kDtNeeded, "elf dynamic table", {"DT_NEEDED"}, "DT_NEEDED",
                  StatusCode::kUnimplemented);
  Expect<int64_t>(hash, elf::kDtRel, "elf dynamic table", {"DT_REL relocations"}, "DT_REL",
                  StatusCode::kUnimplemented);
  Expect<int64_t>(hash, 0x6FFFFEF5 /* DT_GNU_HASH */, "elf dynamic table", {"DT_HASH is required"},
                  "DT_HASH removed");
  Expect<int64_t>(DynamicEntry(elf::kDtSymTab), 0x6FFFFEF5, "elf dynamic table",
                  {"DT_SYMTAB, DT_STRTAB and DT_STRSZ are required"}, "DT_SYMTAB removed");
  if (const size_t rela = DynamicEntry(elf::kDtRela)) {
    Expect<int64_t>(rela, 0x6FFFFEF5, "elf dynamic table", {"DT_RELA and DT_RELASZ"},
                    "DT_RELA removed");
  }
  // Hash table sizes that run outside the image.
  const size_t hash_table = FileOffset(ReadAt<uint64_t>(file_, hash + 8));
  ASSERT_NE(hash_table, 0u);
  Expect<uint32_t>(hash_table + 4, 0x7FFFFFF0u, "elf dynamic table", {"DT_HASH table", "DT_SYMTAB"},
                   "nchain huge");
  Expect<uint32_t>(hash_table, 0x7FFFFFF0u, "elf dynamic table", {"DT_HASH table"}, "nbucket huge");
}

TEST_P(BadElfTest, BadSymbolsAndRelocations) {
  const size_t symtab_entry = DynamicEntry(elf::kDtSymTab);
  const size_t hash_entry = DynamicEntry(elf::kDtHash);
  ASSERT_NE(symtab_entry, 0u);
  const size_t symtab = FileOffset(ReadAt<uint64_t>(file_, symtab_entry + 8));
  const uint32_t nchain =
      ReadAt<uint32_t>(file_, FileOffset(ReadAt<uint64_t>(file_, hash_entry + 8)) + 4);
  ASSERT_NE(symtab, 0u);
  for (uint32_t i = 1; i < nchain; ++i) {
    const size_t sym = symtab + i * sizeof(elf::Sym);
    const std::string name = "symbol " + std::to_string(i);
    Expect<uint32_t>(sym + offsetof(elf::Sym, st_name), 0x7FFFFFF0u, "elf symbol", {"name offset"},
                     name + " st_name");
    Expect<uint16_t>(sym + offsetof(elf::Sym, st_shndx), elf::kShnUndef, "elf symbol",
                     {"is undefined"}, name + " undefined", StatusCode::kUnimplemented);
    Expect<uint16_t>(sym + offsetof(elf::Sym, st_shndx), 0xFF05, "elf symbol",
                     {"special section index"}, name + " SHN_LOPROC", StatusCode::kUnimplemented);
  }
  const size_t rela_entry = DynamicEntry(elf::kDtRela);
  const size_t relasz_entry = DynamicEntry(elf::kDtRelaSz);
  if (rela_entry == 0) GTEST_SKIP() << "no DT_RELA in " << GetParam();
  const size_t table = FileOffset(ReadAt<uint64_t>(file_, rela_entry + 8));
  const uint64_t count = ReadAt<uint64_t>(file_, relasz_entry + 8) / sizeof(elf::Rela);
  ASSERT_NE(table, 0u);
  for (uint64_t i = 0; i < count; ++i) {
    const size_t rela = table + i * sizeof(elf::Rela);
    const elf::Rela entry = ReadAt<elf::Rela>(file_, rela);
    const std::string name = "DT_RELA entry " + std::to_string(i);
    Expect<uint64_t>(rela + offsetof(elf::Rela, r_offset), uint64_t{1} << 40, "elf relocation",
                     {"outside the loaded segments"}, name + " r_offset");
    Expect<uint64_t>(rela + offsetof(elf::Rela, r_info), (entry.r_info & ~0xFFFFFFFFull) | 0xFE,
                     "elf relocation", {"relocation type 254"}, name + " type",
                     StatusCode::kUnimplemented);
    Expect<uint64_t>(rela + offsetof(elf::Rela, r_info),
                     (uint64_t{0x7FFFFFF} << 32) | (entry.r_info & 0xFFFFFFFF), "elf relocation",
                     {"uses symbol"}, name + " symbol");
  }
}

INSTANTIATE_TEST_SUITE_P(Executables, BadElfTest, ::testing::ValuesIn(kExecutables),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           name = name.substr(name.rfind('/') + 1);
                           return name.substr(0, name.find('.'));
                         });

}  // namespace
}  // namespace iree_rt::bad_modules
