// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "test_util.h"

#include <fstream>
#include <iterator>

namespace iree_rt::drivers::cpu::testing {

std::vector<uint8_t> ReadTestExecutable(std::string_view name) {
  const std::string path = std::string(RT_TEST_EXECUTABLES_DIR) + "/rt_exe_" + std::string(name) + ".so";
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    ADD_FAILURE() << "cannot open " << path;
    return {};
  }
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

uint64_t ElfEditor::PhdrOffset(int index) const {
  return header().e_phoff + static_cast<uint64_t>(index) * sizeof(elf::Phdr);
}

int ElfEditor::FindPhdr(uint32_t type, int n) const {
  for (int i = 0; i < header().e_phnum; ++i) {
    if (phdr(i).p_type == type && n-- == 0) return i;
  }
  return -1;
}

uint64_t ElfEditor::VaddrToOffset(uint64_t vaddr) const {
  for (int i = 0; i < header().e_phnum; ++i) {
    const elf::Phdr ph = phdr(i);
    if (ph.p_type == elf::kPtLoad && vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
      return ph.p_offset + (vaddr - ph.p_vaddr);
    }
  }
  ADD_FAILURE() << "address " << elf::Hex{vaddr} << " is not file-backed";
  return 0;
}

std::optional<uint64_t> ElfEditor::DynamicEntryOffset(int64_t tag) const {
  const elf::Phdr dynamic = phdr(FindPhdr(elf::kPtDynamic));
  for (uint64_t at = dynamic.p_offset; at + sizeof(elf::Dyn) <= dynamic.p_offset + dynamic.p_filesz;
       at += sizeof(elf::Dyn)) {
    const auto entry = Read<elf::Dyn>(at);
    if (entry.d_tag == tag) return at;
    if (entry.d_tag == elf::kDtNull) break;
  }
  return std::nullopt;
}

uint64_t ElfEditor::DynamicValue(int64_t tag) const {
  const std::optional<uint64_t> at = DynamicEntryOffset(tag);
  if (!at) {
    ADD_FAILURE() << "no dynamic tag " << tag;
    return 0;
  }
  return Read<elf::Dyn>(*at).d_val;
}

uint64_t ElfEditor::RelaOffset(int index) const {
  return VaddrToOffset(DynamicValue(elf::kDtRela)) + index * sizeof(elf::Rela);
}

uint64_t ElfEditor::DynsymOffset(int index) const {
  return VaddrToOffset(DynamicValue(elf::kDtSymTab)) + index * sizeof(elf::Sym);
}

}  // namespace iree_rt::drivers::cpu::testing
