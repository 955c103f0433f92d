// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ElfModule and FatELF selection on real 3.13 compiler output.
#include "drivers/cpu/loader/elf_module.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "drivers/cpu/loader/fat_elf.h"
#include "drivers/cpu/loader/library_abi.h"
#include "test_util.h"

namespace iree_rt::drivers::cpu {
namespace {

using base::StatusCode;
using testing::ElfEditor;
using testing::IsError;
using testing::ReadTestExecutable;

TEST(ElfModuleTest, LoadsEveryTestKernelAndFindsTheQuerySymbol) {
  for (const char* name : {"abs", "write_constants", "scale_and_offset", "write_workgroup_ids",
                           "multi_entrypoint", "write_dispatch_params", "trap", "workgroup_size"}) {
    SCOPED_TRACE(name);
    const std::vector<uint8_t> bytes = ReadTestExecutable(name);
    auto module = ElfModule::Load(bytes);
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    void* query = (*module)->LookupSymbol(kLibraryQuerySymbol);
    ASSERT_NE(query, nullptr);
    EXPECT_TRUE((*module)->ContainsCode(query));
    EXPECT_EQ((*module)->LookupSymbol("no_such_symbol"), nullptr);
    EXPECT_EQ((*module)->LookupSymbol(""), nullptr);
  }
}

TEST(ElfModuleTest, QueryAnswersOnlyVersionSixAndRelocationsPointIntoTheImage) {
  const std::vector<uint8_t> bytes = ReadTestExecutable("abs");
  auto module = ElfModule::Load(bytes);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  auto query = reinterpret_cast<LibraryQueryFunctionV0>((*module)->LookupSymbol(kLibraryQuerySymbol));
  EnvironmentV0 environment{};
  EXPECT_EQ(query(5, &environment), nullptr);
  EXPECT_EQ(query(7, &environment), nullptr);
  const LibraryHeaderV0* const* header = query(kLibraryVersion, &environment);
  ASSERT_NE(header, nullptr);
  // The header pointer was fixed up by an R_X86_64_RELATIVE / R_AARCH64_RELATIVE.
  EXPECT_TRUE((*module)->ContainsRange(*header, sizeof(LibraryHeaderV0)));
  EXPECT_EQ((*header)->version, kLibraryVersion);
  auto name = (*module)->ReadString((*header)->name);
  ASSERT_TRUE(name.has_value());
  EXPECT_EQ(*name, "executable");
}

// Permissions ("r-xp") of the /proc/self/maps line covering |address|.
std::string MappingPermissions(const void* address) {
  std::ifstream maps("/proc/self/maps");
  const uintptr_t target = reinterpret_cast<uintptr_t>(address);
  std::string line;
  while (std::getline(maps, line)) {
    uintptr_t begin = 0, end = 0;
    char perms[5] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %4s", &begin, &end, perms) == 3 && target >= begin &&
        target < end) {
      return perms;
    }
  }
  return "unmapped";
}

TEST(ElfModuleTest, SegmentsGetTheirProtectionsAndRelroBecomesReadOnly) {
  const std::vector<uint8_t> bytes = ReadTestExecutable("abs");
  auto module = ElfModule::Load(bytes);
  ASSERT_TRUE(module.ok());
  void* query = (*module)->LookupSymbol(kLibraryQuerySymbol);
  auto query_fn = reinterpret_cast<LibraryQueryFunctionV0>(query);
  EnvironmentV0 environment{};
  const LibraryHeaderV0* const* header = query_fn(kLibraryVersion, &environment);
  ASSERT_NE(header, nullptr);
  EXPECT_EQ(MappingPermissions(query), "r-xp");
  EXPECT_EQ(MappingPermissions((*module)->image_base()), "r--p");  // ELF header, .dynsym, ...
  // The library struct lives in .data.rel.ro: written by relocation, then PT_GNU_RELRO.
  EXPECT_EQ(MappingPermissions(header), "r--p");
  EXPECT_TRUE((*module)->ContainsRange(header, sizeof(LibraryV0)));
  EXPECT_FALSE((*module)->ContainsCode(header));
  EXPECT_FALSE((*module)->ContainsRange((*module)->image_base() + (*module)->image_size(), 1));
  EXPECT_EQ((*module)->ReadString(nullptr), std::nullopt);
  const uint8_t* base = (*module)->image_base();
  const size_t size = (*module)->image_size();
  module->reset();
  EXPECT_NE(MappingPermissions(base + size / 2), "r-xp");  // unmapped (or reused) after destroy
}

TEST(ElfModuleTest, ModulesAreIndependent) {
  const std::vector<uint8_t> bytes = ReadTestExecutable("abs");
  auto first = ElfModule::Load(bytes);
  auto second = ElfModule::Load(bytes);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE((*first)->image_base(), (*second)->image_base());
  EXPECT_NE((*first)->LookupSymbol(kLibraryQuerySymbol), (*second)->LookupSymbol(kLibraryQuerySymbol));
  first->reset();  // unmapping one leaves the other usable
  EXPECT_NE((*second)->LookupSymbol(kLibraryQuerySymbol), nullptr);
}

TEST(ElfModuleTest, OtherArchitectureIsIncompatible) {
  const std::vector<uint8_t> bytes = ReadTestExecutable("abs_other_arch");
  auto module = ElfModule::Load(bytes);
  EXPECT_TRUE(IsError(module.status(), StatusCode::kIncompatible, "does not match this host"));
}

// FatELF container: header {magic, version 1, count}, then 24-byte records.
std::vector<uint8_t> MakeFatElf(const std::vector<std::vector<uint8_t>>& elves,
                                uint16_t version = 1) {
  std::vector<uint8_t> out(8 + 24 * elves.size());
  const uint32_t magic = elf::kFatElfMagic;
  std::memcpy(out.data(), &magic, 4);
  std::memcpy(out.data() + 4, &version, 2);
  out[6] = static_cast<uint8_t>(elves.size());
  for (size_t i = 0; i < elves.size(); ++i) {
    while (out.size() % 16 != 0) out.push_back(0);
    const uint64_t offset = out.size(), size = elves[i].size();
    uint8_t* record = out.data() + 8 + 24 * i;
    const auto ehdr = elf::ReadAt<elf::Ehdr>(elves[i].data(), 0);
    std::memcpy(record, &ehdr.e_machine, 2);
    record[2] = ehdr.e_ident[7];             // osabi
    record[4] = ehdr.e_ident[elf::kIdentClass];  // word size: 2 = 64-bit
    record[5] = ehdr.e_ident[elf::kIdentData];   // byte order: 1 = little
    std::memcpy(record + 8, &offset, 8);
    std::memcpy(record + 16, &size, 8);
    out.insert(out.end(), elves[i].begin(), elves[i].end());
  }
  return out;
}

TEST(FatElfTest, SelectsTheHostRecord) {
  const std::vector<uint8_t> host = ReadTestExecutable("abs");
  const std::vector<uint8_t> other = ReadTestExecutable("abs_other_arch");
  const std::vector<uint8_t> fat = MakeFatElf({other, host});
  ASSERT_TRUE(IsFatElf(fat));
  auto slice = SelectFatElfSlice(fat, ElfModule::HostMachine());
  ASSERT_TRUE(slice.ok()) << slice.status().ToString();
  EXPECT_EQ(slice->size(), host.size());
  EXPECT_EQ(std::memcmp(slice->data(), host.data(), host.size()), 0);
  auto module = ElfModule::Load(fat);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_NE((*module)->LookupSymbol(kLibraryQuerySymbol), nullptr);
}

TEST(FatElfTest, PlainElfPassesThrough) {
  const std::vector<uint8_t> host = ReadTestExecutable("abs");
  EXPECT_FALSE(IsFatElf(host));
  auto slice = SelectFatElfSlice(host, ElfModule::HostMachine());
  ASSERT_TRUE(slice.ok());
  EXPECT_EQ(slice->data(), host.data());
}

TEST(FatElfTest, RejectsContainersWithoutAUsableRecord) {
  const std::vector<uint8_t> other = ReadTestExecutable("abs_other_arch");
  EXPECT_TRUE(IsError(ElfModule::Load(MakeFatElf({other})).status(), StatusCode::kNotFound,
                      "FatELF: none of its 1 records"));
  EXPECT_TRUE(IsError(ElfModule::Load(MakeFatElf({})).status(), StatusCode::kNotFound,
                      "none of its 0 records"));
  EXPECT_TRUE(IsError(ElfModule::Load(MakeFatElf({other}, /*version=*/2)).status(),
                      StatusCode::kUnimplemented, "FatELF: container version 2"));

  std::vector<uint8_t> truncated = MakeFatElf({ReadTestExecutable("abs")});
  truncated.resize(20);  // inside the record table
  EXPECT_TRUE(IsError(ElfModule::Load(truncated).status(), StatusCode::kInvalidArgument,
                      "1 records need 32 bytes"));
  truncated.resize(6);
  EXPECT_TRUE(IsError(ElfModule::Load(truncated).status(), StatusCode::kInvalidArgument,
                      "FatELF: header truncated"));

  std::vector<uint8_t> out_of_range = MakeFatElf({ReadTestExecutable("abs")});
  const uint64_t huge = 1ull << 40;
  std::memcpy(out_of_range.data() + 8 + 16, &huge, 8);
  EXPECT_TRUE(IsError(ElfModule::Load(out_of_range).status(), StatusCode::kInvalidArgument,
                      "lies outside the"));
}

}  // namespace
}  // namespace iree_rt::drivers::cpu
