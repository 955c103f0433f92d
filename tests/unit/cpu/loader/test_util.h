// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Helpers for the loader tests: reading the compiled test kernels, asserting on status
// codes and messages, and patching ELF files in memory to build malformed inputs.
#ifndef IREE_RT_TESTS_UNIT_CPU_LOADER_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_CPU_LOADER_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "status_matchers.h"
#include "base/status.h"
#include "drivers/cpu/loader/elf_format.h"

namespace iree_rt::drivers::cpu::testing {

using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

// Bytes of ${RT_TEST_EXECUTABLES_DIR}/rt_exe_<name>.so (empty + test failure if missing).
std::vector<uint8_t> ReadTestExecutable(std::string_view name);

// Passes if |status| has |code| and its message contains |substring|.

// Reads and rewrites fields of an ELF64 file held in memory (no validation: the point is
// to produce bad files). Offsets are file offsets.
class ElfEditor {
 public:
  explicit ElfEditor(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}

  std::vector<uint8_t>& bytes() { return bytes_; }

  template <typename T>
  T Read(uint64_t offset) const {
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof(T));
    return value;
  }
  template <typename T>
  void Write(uint64_t offset, const T& value) {
    std::memcpy(bytes_.data() + offset, &value, sizeof(T));
  }

  elf::Ehdr header() const { return Read<elf::Ehdr>(0); }
  void set_header(const elf::Ehdr& header) { Write(0, header); }
  uint64_t PhdrOffset(int index) const;
  elf::Phdr phdr(int index) const { return Read<elf::Phdr>(PhdrOffset(index)); }
  void set_phdr(int index, const elf::Phdr& phdr) { Write(PhdrOffset(index), phdr); }
  // Index of the |n|th program header of |type|, or -1.
  int FindPhdr(uint32_t type, int n = 0) const;
  // File offset of a link-time address inside a PT_LOAD's file bytes.
  uint64_t VaddrToOffset(uint64_t vaddr) const;
  // File offset of the PT_DYNAMIC entry with |tag|, if present.
  std::optional<uint64_t> DynamicEntryOffset(int64_t tag) const;
  uint64_t DynamicValue(int64_t tag) const;
  // File offset of DT_RELA entry |index| / .dynsym entry |index|.
  uint64_t RelaOffset(int index) const;
  uint64_t DynsymOffset(int index) const;

 private:
  std::vector<uint8_t> bytes_;
};

}  // namespace iree_rt::drivers::cpu::testing

#endif  // IREE_RT_TESTS_UNIT_CPU_LOADER_TEST_UTIL_H_
