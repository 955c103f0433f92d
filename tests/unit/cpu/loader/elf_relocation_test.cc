// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Relocation arithmetic for both supported machines on a synthetic image, so the AArch64
// rules are exercised on an x86-64 host too (3.13 output only uses RELATIVE).
#include "drivers/cpu/loader/elf_relocation.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "test_util.h"

namespace iree_rt::drivers::cpu {
namespace {

using base::StatusCode;
using testing::IsError;

constexpr uint64_t kMinVaddr = 0x10000;  // link-time address of the buffer's first byte
constexpr uint64_t kSymtab = kMinVaddr + 0x100;
constexpr uint64_t kRela = kMinVaddr + 0x200;
constexpr uint64_t kPlace = kMinVaddr + 0x800;
constexpr uint64_t kSymbolValue = kMinVaddr + 0x40;

class RelocationTest : public ::testing::Test {
 protected:
  RelocationTest() : buffer_(0x1000, 0) {
    image_.base = buffer_.data();
    image_.min_vaddr = kMinVaddr;
    image_.size = buffer_.size();
    image_.segments.push_back({kMinVaddr, buffer_.size(), elf::kPfR | elf::kPfW, 1});
    elf::Sym symbols[3] = {};
    symbols[1].st_info = elf::kStbGlobal << 4;
    symbols[1].st_shndx = 1;
    symbols[1].st_value = kSymbolValue;
    symbols[2].st_shndx = elf::kShnAbs;
    symbols[2].st_value = 0x1234;
    std::memcpy(Host(kSymtab), symbols, sizeof(symbols));
    symbols_ = {kSymtab, 3};
  }

  uint8_t* Host(uint64_t vaddr) { return buffer_.data() + (vaddr - kMinVaddr); }
  uint64_t Bias() const { return image_.bias(); }

  base::Status Apply(uint16_t machine, uint32_t type, uint32_t symbol, int64_t addend,
                     uint64_t place = kPlace) {
    const elf::Rela rela{place, (uint64_t{symbol} << 32) | type, addend};
    std::memcpy(Host(kRela), &rela, sizeof(rela));
    return ApplyRelaRelocations(machine, image_, symbols_, kRela, sizeof(rela), "DT_RELA");
  }
  uint64_t Word64(uint64_t vaddr = kPlace) { return elf::ReadAt<uint64_t>(Host(vaddr), 0); }
  uint32_t Word32(uint64_t vaddr = kPlace) { return elf::ReadAt<uint32_t>(Host(vaddr), 0); }

  std::vector<uint8_t> buffer_;
  ElfImage image_;
  ElfSymbolTable symbols_;
};

TEST_F(RelocationTest, X86_64Types) {
  const uint16_t m = elf::kMachineX86_64;
  ASSERT_TRUE(Apply(m, 8, 0, 0x30).ok());  // RELATIVE: B + A
  EXPECT_EQ(Word64(), Bias() + 0x30);
  ASSERT_TRUE(Apply(m, 1, 1, 5).ok());  // 64: S + A
  EXPECT_EQ(Word64(), Bias() + kSymbolValue + 5);
  ASSERT_TRUE(Apply(m, 6, 1, 99).ok());  // GLOB_DAT: S
  EXPECT_EQ(Word64(), Bias() + kSymbolValue);
  ASSERT_TRUE(Apply(m, 7, 1, 0).ok());  // JUMP_SLOT: S
  EXPECT_EQ(Word64(), Bias() + kSymbolValue);
  ASSERT_TRUE(Apply(m, 1, 2, 1).ok());  // absolute symbols are not biased
  EXPECT_EQ(Word64(), 0x1235u);
  ASSERT_TRUE(Apply(m, 10, 2, 1).ok());  // 32: S + A, fits unsigned
  EXPECT_EQ(Word32(), 0x1235u);
  ASSERT_TRUE(Apply(m, 11, 2, -0x2000).ok());  // 32S: fits signed
  EXPECT_EQ(static_cast<int32_t>(Word32()), 0x1234 - 0x2000);
  ASSERT_TRUE(Apply(m, 2, 1, -4).ok());  // PC32: S + A - P
  EXPECT_EQ(static_cast<int32_t>(Word32()), static_cast<int32_t>(kSymbolValue - 4 - kPlace));
  ASSERT_TRUE(Apply(m, 0, 0, 0).ok());  // NONE
}

TEST_F(RelocationTest, X86_64RangeChecksAndUnsupportedTypes) {
  const uint16_t m = elf::kMachineX86_64;
  EXPECT_TRUE(IsError(Apply(m, 10, 2, -0x2000), StatusCode::kInvalidArgument,
                      "does not fit its 32-bit field"));
  EXPECT_TRUE(IsError(Apply(m, 11, 2, int64_t{1} << 33), StatusCode::kInvalidArgument,
                      "does not fit"));
  EXPECT_TRUE(IsError(Apply(m, 5, 1, 0), StatusCode::kUnimplemented,
                      "relocation type 5 is not supported for e_machine 62"));  // COPY
  EXPECT_TRUE(IsError(Apply(m, 1027, 0, 0), StatusCode::kUnimplemented, "relocation type 1027"));
  EXPECT_TRUE(IsError(Apply(m, 8, 0, 0, kMinVaddr + 0xFFC), StatusCode::kInvalidArgument,
                      "outside the loaded segments"));
  EXPECT_TRUE(IsError(Apply(m, 8, 0, 0, kMinVaddr - 8), StatusCode::kInvalidArgument,
                      "outside the loaded segments"));
  EXPECT_TRUE(IsError(Apply(m, 1, 3, 0), StatusCode::kInvalidArgument, "uses symbol 3"));
}

TEST_F(RelocationTest, Aarch64Types) {
  const uint16_t m = elf::kMachineAarch64;
  ASSERT_TRUE(Apply(m, 1027, 0, 0x30).ok());  // RELATIVE: B + A
  EXPECT_EQ(Word64(), Bias() + 0x30);
  std::memset(Host(kPlace), 0xAB, 8);
  ASSERT_TRUE(Apply(m, 257, 1, 5).ok());  // ABS64: S + A, replacing (not adding to) the word
  EXPECT_EQ(Word64(), Bias() + kSymbolValue + 5);
  ASSERT_TRUE(Apply(m, 1025, 1, 2).ok());  // GLOB_DAT: S + A
  EXPECT_EQ(Word64(), Bias() + kSymbolValue + 2);
  ASSERT_TRUE(Apply(m, 1026, 1, 0).ok());  // JUMP_SLOT: S + A
  EXPECT_EQ(Word64(), Bias() + kSymbolValue);
  ASSERT_TRUE(Apply(m, 0, 0, 0).ok());
  EXPECT_TRUE(IsError(Apply(m, 8, 0, 0), StatusCode::kUnimplemented,
                      "relocation type 8 is not supported for e_machine 183"));
  EXPECT_TRUE(IsError(Apply(m, 261, 1, 0), StatusCode::kUnimplemented, "type 261"));  // PREL32
}

TEST_F(RelocationTest, TableChecks) {
  EXPECT_TRUE(ApplyRelaRelocations(elf::kMachineX86_64, image_, symbols_, kRela, 0, "DT_RELA").ok());
  EXPECT_TRUE(IsError(
      ApplyRelaRelocations(elf::kMachineX86_64, image_, symbols_, kRela, 30, "DT_JMPREL"),
      StatusCode::kInvalidArgument, "DT_JMPREL size 30 is not a multiple of 24"));
  EXPECT_TRUE(IsError(ApplyRelaRelocations(elf::kMachineX86_64, image_, symbols_,
                                           kMinVaddr + 0xFF0, 24, "DT_RELA"),
                      StatusCode::kInvalidArgument, "DT_RELA table (address 0x10ff0"));
  EXPECT_TRUE(IsError(
      ApplyRelaRelocations(elf::kMachineX86_64, image_, symbols_, ~0ull - 8, 24, "DT_RELA"),
      StatusCode::kInvalidArgument, "outside the loaded segments"));
}

}  // namespace
}  // namespace iree_rt::drivers::cpu
