// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/loader/fat_elf.h"

#include "drivers/cpu/loader/elf_format.h"

namespace iree_rt::drivers::cpu {

namespace {
constexpr uint8_t kWordSize64 = 2;
constexpr uint8_t kByteOrderLsb = 1;
// OS ABIs whose calling conventions match ours: SYSV/NONE, GNU/Linux and standalone.
bool IsUsableOsAbi(uint8_t osabi) { return osabi == 0 || osabi == 3 || osabi == 255; }
}  // namespace

bool IsFatElf(std::span<const uint8_t> data) {
  return data.size() >= 4 && elf::ReadAt<uint32_t>(data.data(), 0) == elf::kFatElfMagic;
}

base::StatusOr<std::span<const uint8_t>> SelectFatElfSlice(std::span<const uint8_t> data,
                                                           uint16_t machine) {
  if (!IsFatElf(data)) return data;
  if (data.size() < elf::kFatElfHeaderSize) {
    return base::InvalidArgumentError("FatELF: header truncated (", data.size(), " bytes)");
  }
  const uint8_t* bytes = data.data();
  const uint16_t version = elf::ReadAt<uint16_t>(bytes, 4);
  const uint8_t record_count = bytes[6];
  if (version != elf::kFatElfVersion) {
    return base::UnimplementedError("FatELF: container version ", version,
                                    " is not supported (only ", elf::kFatElfVersion, ")");
  }
  const uint64_t table_end = elf::kFatElfHeaderSize + record_count * elf::kFatElfRecordSize;
  if (data.size() < table_end) {
    return base::InvalidArgumentError("FatELF: ", static_cast<int>(record_count),
                                      " records need ", table_end, " bytes but the file has ",
                                      data.size());
  }
  for (uint32_t i = 0; i < record_count; ++i) {
    const uint64_t at = elf::kFatElfHeaderSize + i * elf::kFatElfRecordSize;
    if (elf::ReadAt<uint16_t>(bytes, at) != machine || !IsUsableOsAbi(bytes[at + 2]) ||
        bytes[at + 4] != kWordSize64 || bytes[at + 5] != kByteOrderLsb) {
      continue;
    }
    const uint64_t offset = elf::ReadAt<uint64_t>(bytes, at + 8);
    const uint64_t size = elf::ReadAt<uint64_t>(bytes, at + 16);
    if (offset < table_end || size == 0 || !elf::RangeFits(offset, size, data.size())) {
      return base::InvalidArgumentError("FatELF: record ", i, " range (offset ",
                                        elf::Hex{offset}, ", size ", elf::Hex{size},
                                        ") lies outside the ", data.size(), "-byte file");
    }
    return data.subspan(offset, size);
  }
  return base::NotFoundError("FatELF: none of its ", static_cast<int>(record_count),
                             " records is a 64-bit little-endian ELF for e_machine ", machine);
}

}  // namespace iree_rt::drivers::cpu
