// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ElfModule on malformed input: every rejection has a specific code and message, and no
// corruption of a real compiler output makes Load crash.
#include <gtest/gtest.h>

#include <functional>

#include "drivers/cpu/loader/elf_module.h"
#include "drivers/cpu/loader/library_abi.h"
#include "test_util.h"

namespace iree_rt::drivers::cpu {
namespace {

using base::StatusCode;
using testing::ElfEditor;
using testing::IsError;
using testing::ReadTestExecutable;

class ElfMalformedTest : public ::testing::Test {
 protected:
  void SetUp() override { original_ = ReadTestExecutable("abs"); }

  // Loads a copy of the abs kernel after |edit| and returns the status.
  base::Status LoadEdited(const std::function<void(ElfEditor&)>& edit) {
    ElfEditor editor(original_);
    edit(editor);
    return ElfModule::Load(editor.bytes()).status();
  }
  base::Status LoadPrefix(size_t size) {
    return ElfModule::Load(std::span<const uint8_t>(original_.data(), size)).status();
  }

  std::vector<uint8_t> original_;
};

TEST_F(ElfMalformedTest, OriginalLoads) {
  EXPECT_TRUE(ElfModule::Load(original_).ok());
}

TEST_F(ElfMalformedTest, EmptyAndTruncated) {
  EXPECT_TRUE(IsError(ElfModule::Load({}).status(), StatusCode::kInvalidArgument,
                      "file is 0 bytes, smaller than the 64-byte ELF header"));
  EXPECT_TRUE(IsError(LoadPrefix(4), StatusCode::kInvalidArgument, "smaller than the 64-byte"));
  EXPECT_TRUE(IsError(LoadPrefix(63), StatusCode::kInvalidArgument, "file is 63 bytes"));
  EXPECT_TRUE(IsError(LoadPrefix(64), StatusCode::kInvalidArgument,
                      "program header table (offset 0x40, 7 entries) extends past end of file"));
  EXPECT_TRUE(IsError(LoadPrefix(200), StatusCode::kInvalidArgument,
                      "program header table (offset 0x40"));
  // The section header table comes last in lld's output, so any later cut hits it.
  for (size_t size : {size_t{0x200}, original_.size() / 2, original_.size() - 1}) {
    EXPECT_TRUE(IsError(LoadPrefix(size), StatusCode::kInvalidArgument,
                        "section header table (offset"))
        << size;
  }
}

TEST_F(ElfMalformedTest, HeaderIdentity) {
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) { e.bytes()[1] = 'X'; }),
                      StatusCode::kInvalidArgument, "bad magic"));
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) { e.bytes()[elf::kIdentClass] = 1; }),
                      StatusCode::kIncompatible, "class 1 is not supported"));
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) { e.bytes()[elf::kIdentData] = 2; }),
                      StatusCode::kIncompatible, "data encoding 2"));
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) { e.bytes()[elf::kIdentVersion] = 0; }),
                      StatusCode::kInvalidArgument, "is not EV_CURRENT"));
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) {
                        auto h = e.header();
                        h.e_version = 2;
                        e.set_header(h);
                      }),
                      StatusCode::kInvalidArgument, "version 2"));
}

TEST_F(ElfMalformedTest, HeaderTypeMachineAndSizes) {
  auto edit_header = [&](const std::function<void(elf::Ehdr&)>& change) {
    return LoadEdited([&](ElfEditor& e) {
      elf::Ehdr h = e.header();
      change(h);
      e.set_header(h);
    });
  };
  EXPECT_TRUE(IsError(edit_header([](elf::Ehdr& h) { h.e_type = elf::kTypeExec; }),
                      StatusCode::kInvalidArgument, "e_type 2 (ET_EXEC) is not loadable"));
  EXPECT_TRUE(IsError(edit_header([](elf::Ehdr& h) { h.e_type = 1; }),
                      StatusCode::kInvalidArgument, "only ET_DYN"));
  EXPECT_TRUE(IsError(edit_header([](elf::Ehdr& h) { h.e_machine = 40; }),
                      StatusCode::kIncompatible, "e_machine 40 (ARM) does not match this host"));
  EXPECT_TRUE(IsError(edit_header([](elf::Ehdr& h) { h.e_ehsize = 52; }),
                      StatusCode::kInvalidArgument, "e_ehsize 52"));
  EXPECT_TRUE(IsError(edit_header([](elf::Ehdr& h) { h.e_phentsize = 32; }),
                      StatusCode::kInvalidArgument, "e_phentsize 32"));
  EXPECT_TRUE(IsError(edit_header([](elf::Ehdr& h) { h.e_shentsize = 40; }),
                      StatusCode::kInvalidArgument, "e_shentsize 40"));
  EXPECT_TRUE(IsError(edit_header([](elf::Ehdr& h) { h.e_phnum = 0; }),
                      StatusCode::kInvalidArgument, "e_phnum 0"));
  EXPECT_TRUE(IsError(edit_header([](elf::Ehdr& h) { h.e_phoff = ~0ull - 8; }),
                      StatusCode::kInvalidArgument, "program header table"));
  EXPECT_TRUE(IsError(edit_header([](elf::Ehdr& h) { h.e_shnum = 0; }),
                      StatusCode::kInvalidArgument, "section header table missing"));
  EXPECT_TRUE(IsError(edit_header([](elf::Ehdr& h) { h.e_shoff = ~0ull; }),
                      StatusCode::kInvalidArgument, "section header table (offset 0xffffffffffffffff"));
}

TEST_F(ElfMalformedTest, ProgramHeaders) {
  auto edit_load = [&](int n, const std::function<void(elf::Phdr&)>& change) {
    return LoadEdited([&](ElfEditor& e) {
      const int index = e.FindPhdr(elf::kPtLoad, n);
      elf::Phdr ph = e.phdr(index);
      change(ph);
      e.set_phdr(index, ph);
    });
  };
  // lld puts PHDR first, so the first PT_LOAD is program header 1.
  EXPECT_TRUE(IsError(edit_load(0, [](elf::Phdr& ph) { ph.p_filesz = ph.p_memsz = 0x100000; }),
                      StatusCode::kInvalidArgument,
                      "ELF: program header 1 (PT_LOAD) extends past end of file (offset 0x0, "
                      "size 0x100000"));
  EXPECT_TRUE(IsError(edit_load(1, [](elf::Phdr& ph) { ph.p_offset = ~0ull - 4; }),
                      StatusCode::kInvalidArgument, "program header 2 (PT_LOAD) extends past end"));
  EXPECT_TRUE(IsError(edit_load(0, [](elf::Phdr& ph) { ph.p_filesz = ph.p_memsz + 1; }),
                      StatusCode::kInvalidArgument, "exceeds p_memsz"));
  EXPECT_TRUE(IsError(edit_load(1, [](elf::Phdr& ph) { ph.p_flags |= elf::kPfW; }),
                      StatusCode::kInvalidArgument,
                      "program header 2 (PT_LOAD) is both writable and executable"));
  EXPECT_TRUE(IsError(edit_load(2, [](elf::Phdr& ph) { ph.p_memsz = 1ull << 40; }),
                      StatusCode::kResourceExhausted, "exceeds the loader limit"));
  EXPECT_TRUE(IsError(edit_load(2, [](elf::Phdr& ph) { ph.p_vaddr = ~0ull - 0x100; }),
                      StatusCode::kInvalidArgument, "address range overflows"));
  EXPECT_TRUE(IsError(edit_load(1, [](elf::Phdr& ph) { ph.p_vaddr = 0x100; }),
                      StatusCode::kInvalidArgument, "(PT_LOAD) overlap"));
  // Moving the code next to the RW segment puts both on one page.
  EXPECT_TRUE(IsError(edit_load(1,
                                [](elf::Phdr& ph) {
                                  ph.p_vaddr = 0x2400;
                                  ph.p_paddr = 0x2400;
                                }),
                      StatusCode::kInvalidArgument, "would be writable and executable"));
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) {
                        for (int i = 0; i < e.header().e_phnum; ++i) {
                          elf::Phdr ph = e.phdr(i);
                          if (ph.p_type == elf::kPtLoad) ph.p_type = elf::kPtNull;
                          e.set_phdr(i, ph);
                        }
                      }),
                      StatusCode::kInvalidArgument, "no non-empty PT_LOAD"));
}

TEST_F(ElfMalformedTest, SpecialProgramHeaders) {
  auto retype = [&](uint32_t from, uint32_t to) {
    return LoadEdited([&](ElfEditor& e) {
      const int index = e.FindPhdr(from);
      elf::Phdr ph = e.phdr(index);
      ph.p_type = to;
      e.set_phdr(index, ph);
    });
  };
  EXPECT_TRUE(IsError(retype(elf::kPtDynamic, elf::kPtNull), StatusCode::kInvalidArgument,
                      "no PT_DYNAMIC program header"));
  EXPECT_TRUE(IsError(retype(elf::kPtGnuRelro, elf::kPtDynamic), StatusCode::kInvalidArgument,
                      "is a second PT_DYNAMIC"));
  EXPECT_TRUE(IsError(retype(elf::kPtGnuRelro, elf::kPtTls), StatusCode::kUnimplemented,
                      "thread-local storage is not supported"));
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) {
                        const int index = e.FindPhdr(elf::kPtDynamic);
                        elf::Phdr ph = e.phdr(index);
                        ph.p_vaddr = 0x900000;
                        e.set_phdr(index, ph);
                      }),
                      StatusCode::kInvalidArgument, "PT_DYNAMIC (address 0x900000"));
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) {
                        const int index = e.FindPhdr(elf::kPtGnuRelro);
                        elf::Phdr ph = e.phdr(index);
                        ph.p_memsz = 0x100000;
                        e.set_phdr(index, ph);
                      }),
                      StatusCode::kInvalidArgument, "PT_GNU_RELRO"));
}

TEST_F(ElfMalformedTest, DynamicTable) {
  auto set_tag = [&](int64_t tag, int64_t new_tag) {
    return LoadEdited([&](ElfEditor& e) {
      const uint64_t at = *e.DynamicEntryOffset(tag);
      e.Write(at, new_tag);
    });
  };
  auto set_value = [&](int64_t tag, uint64_t value) {
    return LoadEdited([&](ElfEditor& e) { e.Write(*e.DynamicEntryOffset(tag) + 8, value); });
  };
  constexpr int64_t kDtDebug = 21;  // ignored by the loader
  EXPECT_TRUE(IsError(set_tag(elf::kDtHash, kDtDebug), StatusCode::kInvalidArgument,
                      "DT_HASH is required"));
  EXPECT_TRUE(IsError(set_tag(elf::kDtSymTab, kDtDebug), StatusCode::kInvalidArgument,
                      "DT_SYMTAB, DT_STRTAB and DT_STRSZ are required"));
  EXPECT_TRUE(IsError(set_value(elf::kDtSymEnt, 16), StatusCode::kInvalidArgument,
                      "DT_SYMENT is 16; expected 24"));
  EXPECT_TRUE(IsError(set_value(elf::kDtRelaEnt, 8), StatusCode::kInvalidArgument,
                      "DT_RELAENT is 8; expected 24"));
  EXPECT_TRUE(IsError(set_tag(elf::kDtRela, elf::kDtRel), StatusCode::kUnimplemented,
                      "DT_REL relocations (tag 17) are not supported"));
  EXPECT_TRUE(IsError(set_tag(elf::kDtRelaEnt, elf::kDtNeeded), StatusCode::kUnimplemented,
                      "DT_NEEDED"));
  EXPECT_TRUE(IsError(set_tag(elf::kDtRelaSz, elf::kDtPltRel), StatusCode::kUnimplemented,
                      "DT_PLTREL is 288"));
  EXPECT_TRUE(IsError(set_tag(elf::kDtRelaSz, kDtDebug), StatusCode::kInvalidArgument,
                      "DT_RELA and DT_RELASZ must appear together"));
  EXPECT_TRUE(IsError(set_value(elf::kDtRelaSz, 25), StatusCode::kInvalidArgument,
                      "DT_RELA size 25 is not a multiple of 24"));
  EXPECT_TRUE(IsError(set_value(elf::kDtRela, 0x7000000), StatusCode::kInvalidArgument,
                      "DT_RELA table (address 0x7000000"));
  EXPECT_TRUE(IsError(set_value(elf::kDtHash, 0x7000000), StatusCode::kInvalidArgument,
                      "DT_HASH address 0x7000000"));
  EXPECT_TRUE(IsError(set_value(elf::kDtStrSz, 0x100000), StatusCode::kInvalidArgument,
                      "DT_STRTAB"));
  // The hash table's nchain (the symbol count) is bounded by the image.
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) {
                        const uint64_t hash = e.VaddrToOffset(e.DynamicValue(elf::kDtHash));
                        e.Write<uint32_t>(hash + 4, 0x40000000);
                      }),
                      StatusCode::kInvalidArgument, "1073741824 chains) extends outside"));
  // DT_INIT and DT_INIT_ARRAY must point at code.
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) {
                        e.Write(*e.DynamicEntryOffset(elf::kDtRelaEnt),
                                elf::Dyn{elf::kDtInit, 0x200});
                      }),
                      StatusCode::kInvalidArgument, "DT_INIT 0x200 is not inside an executable"));
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) {
                        e.Write(*e.DynamicEntryOffset(elf::kDtRelaEnt),
                                elf::Dyn{elf::kDtInitArraySz, 12});
                      }),
                      StatusCode::kInvalidArgument, "DT_INIT_ARRAY"));
}

TEST_F(ElfMalformedTest, Symbols) {
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) {
                        e.Write<uint16_t>(e.DynsymOffset(1) + 6, elf::kShnUndef);
                      }),
                      StatusCode::kUnimplemented,
                      "symbol 1 ('iree_hal_executable_library_query') is undefined"));
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) {
                        e.Write<uint16_t>(e.DynsymOffset(1) + 6, 0xFFF2);  // SHN_COMMON
                      }),
                      StatusCode::kUnimplemented, "special section index 0xfff2"));
  EXPECT_TRUE(IsError(LoadEdited([](ElfEditor& e) {
                        e.Write<uint32_t>(e.DynsymOffset(1), 0x10000);  // st_name
                      }),
                      StatusCode::kInvalidArgument, "symbol 1 name offset 65536 is past"));
  // A symbol whose value leaves the image loads but cannot be looked up.
  ElfEditor editor(original_);
  editor.Write<uint64_t>(editor.DynsymOffset(1) + 8, 0x7000000);
  auto module = ElfModule::Load(editor.bytes());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->LookupSymbol(kLibraryQuerySymbol), nullptr);
}

TEST_F(ElfMalformedTest, Relocations) {
  auto edit_rela = [&](int index, const std::function<void(elf::Rela&)>& change) {
    return LoadEdited([&](ElfEditor& e) {
      auto rela = e.Read<elf::Rela>(e.RelaOffset(index));
      change(rela);
      e.Write(e.RelaOffset(index), rela);
    });
  };
  EXPECT_TRUE(IsError(edit_rela(0, [](elf::Rela& r) { r.r_info = 37; }), StatusCode::kUnimplemented,
                      "DT_RELA entry 0 (offset 0x"));
  EXPECT_TRUE(IsError(edit_rela(3, [](elf::Rela& r) { r.r_info = 0x7F; }),
                      StatusCode::kUnimplemented, "relocation type 127 is not supported"));
  EXPECT_TRUE(IsError(edit_rela(1, [](elf::Rela& r) { r.r_offset = 0x7FFF0000; }),
                      StatusCode::kInvalidArgument,
                      "DT_RELA entry 1 (type 8) patches address 0x7fff0000 outside the loaded"));
  // The last 4 bytes of the RW segment are inside, but an 8-byte patch there is not.
  const elf::Phdr data = ElfEditor(original_).phdr(ElfEditor(original_).FindPhdr(elf::kPtLoad, 2));
  const uint64_t tail = data.p_vaddr + data.p_memsz - 4;
  EXPECT_TRUE(IsError(edit_rela(1, [&](elf::Rela& r) { r.r_offset = tail; }),
                      StatusCode::kInvalidArgument,
                      base::StrCat("patches address ", elf::Hex{tail}, " outside")));
  EXPECT_TRUE(IsError(edit_rela(2, [](elf::Rela& r) { r.r_info = (uint64_t{9} << 32) | 1; }),
                      StatusCode::kInvalidArgument, "uses symbol 9 but .dynsym has 2"));
}

TEST_F(ElfMalformedTest, CorruptionNeverCrashes) {
  // Every byte flipped, zeroed and saturated in turn, then every 8-byte prefix: Load must
  // return (OK or an error). A module that loads must still answer lookups safely.
  size_t loaded = 0, rejected = 0;
  auto check = [&](std::span<const uint8_t> bytes) {
    auto module = ElfModule::Load(bytes);
    if (!module.ok()) {
      EXPECT_FALSE(module.status().message().empty());
      ++rejected;
      return;
    }
    ++loaded;
    (*module)->LookupSymbol(kLibraryQuerySymbol);
  };
  std::vector<uint8_t> bytes = original_;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const uint8_t saved = bytes[i];
    for (uint8_t value : {static_cast<uint8_t>(saved ^ (1u << (i % 8))), uint8_t{0}, uint8_t{0xFF}}) {
      if (value == saved) continue;
      bytes[i] = value;
      check(bytes);
    }
    bytes[i] = saved;
  }
  for (size_t size = 0; size < original_.size(); size += 8) {
    check(std::span<const uint8_t>(original_.data(), size));
  }
  RecordProperty("loaded", static_cast<int>(loaded));
  RecordProperty("rejected", static_cast<int>(rejected));
  EXPECT_GT(loaded, 0u);
  EXPECT_GT(rejected, 0u);
}

}  // namespace
}  // namespace iree_rt::drivers::cpu
