// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CPU executable loader fuzzer: any bytes → ElfModule (FatELF unwrapping, header, program
// headers, dynamic table, symbol/hash/string tables, relocations, initializer checks, page
// protections). Initializers are validated but not run: a mutated image's code is not ours to
// execute. On success the symbol lookup and range queries that ExecutableLibrary relies on are
// exercised.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "drivers/cpu/loader/elf_module.h"
#include "drivers/cpu/loader/library_abi.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace iree_rt::drivers::cpu;
  auto module = ElfModule::LoadWithoutInitializers(std::span<const uint8_t>(data, size));
  if (!module.ok()) return 0;
  const ElfModule& elf = *module.value();
  volatile uintptr_t sink = 0;
  void* query = elf.LookupSymbol(kLibraryQuerySymbol);
  sink = reinterpret_cast<uintptr_t>(query);
  if (query != nullptr) sink = elf.ContainsCode(query);
  sink = reinterpret_cast<uintptr_t>(elf.LookupSymbol("no_such_symbol"));
  // Bytes inside a segment must be readable (gaps between segments are PROT_NONE). The first
  // 64 KiB suffice: p_memsz may map far more than the input holds.
  const uint8_t* base = elf.image_base();
  const size_t scanned = std::min<size_t>(elf.image_size(), 64 * 1024);
  for (size_t offset = 0; offset < scanned; offset += 64) {
    if (elf.ContainsRange(base + offset, 1)) sink = sink + base[offset];
    if (auto text = elf.ReadString(reinterpret_cast<const char*>(base + offset))) {
      sink = sink + text->size();
    }
  }
  return 0;
}
