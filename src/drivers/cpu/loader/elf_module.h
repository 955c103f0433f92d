// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ElfModule: our in-memory loader for the freestanding ELF shared objects that
// iree-compile emits for the `embedded-elf-<arch>` executable format.
//
// The bytes are untrusted: every header, table, offset and count is bounds-checked with
// overflow-safe arithmetic before it is used, and any malformed input yields a status
// naming the problem ("ELF: program header 2 (PT_LOAD) extends past end of file ...")
// rather than a crash. What is accepted: ELF64, little-endian, ET_DYN for this host's
// machine (x86-64 or AArch64), RELA relocations only, no dynamic dependencies or
// undefined symbols, no TLS, no writable+executable pages. A FatELF container is
// unwrapped to the record for this host first.
//
// Loading maps one private anonymous region, copies the PT_LOAD segments, applies
// relocations, applies segment protections and PT_GNU_RELRO, then runs DT_INIT and
// DT_INIT_ARRAY. Finalizers are never run. The object is immutable after Load and safe
// to use from any thread.
#ifndef IREE_RT_DRIVERS_CPU_LOADER_ELF_MODULE_H_
#define IREE_RT_DRIVERS_CPU_LOADER_ELF_MODULE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "base/status.h"
#include "drivers/cpu/loader/elf_image.h"
#include "drivers/cpu/loader/elf_relocation.h"

namespace iree_rt::drivers::cpu {

class ElfModule {
 public:
  // e_machine this build can load (x86-64: 62, AArch64: 183; 0 if neither).
  static uint16_t HostMachine();

  // Loads |data| (an ELF or FatELF). |data| is only read during the call.
  // Errors: INVALID_ARGUMENT for malformed input, INCOMPATIBLE for another class, byte
  // order or machine, UNIMPLEMENTED for valid but unsupported features (DT_REL, DT_NEEDED,
  // TLS, unknown relocation types), RESOURCE_EXHAUSTED when the image cannot be mapped.
  static base::StatusOr<std::unique_ptr<ElfModule>> Load(std::span<const uint8_t> data);

  // Load without running DT_INIT/DT_INIT_ARRAY (validated all the same): for validating
  // untrusted images (the fuzzer, tools) whose code must not run. Symbols resolve as usual.
  static base::StatusOr<std::unique_ptr<ElfModule>> LoadWithoutInitializers(
      std::span<const uint8_t> data);

  ~ElfModule();  // unmaps the image; no finalizers run
  ElfModule(const ElfModule&) = delete;
  ElfModule& operator=(const ElfModule&) = delete;

  // Returns the address of the GLOBAL or WEAK defined .dynsym symbol |name|, or nullptr.
  void* LookupSymbol(std::string_view name) const;

  // True if [ptr, ptr + size) lies inside one loaded segment (all are readable).
  bool ContainsRange(const void* ptr, size_t size) const;
  // Returns the NUL-terminated string at |ptr| if it (terminator included) lies inside one
  // loaded segment; nullopt otherwise.
  std::optional<std::string_view> ReadString(const char* ptr) const;
  // True if |ptr| lies inside a loaded executable segment.
  bool ContainsCode(const void* ptr) const;

  // The host address range of the mapping.
  const uint8_t* image_base() const { return image_.base; }
  size_t image_size() const { return image_.size; }

 private:
  ElfModule() = default;
  static base::StatusOr<std::unique_ptr<ElfModule>> LoadImpl(std::span<const uint8_t> data,
                                                             bool run_initializers);

  ElfImage image_;
  ElfSymbolTable symbols_;
  uint64_t strtab_vaddr_ = 0;
  uint64_t strtab_size_ = 0;
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_LOADER_ELF_MODULE_H_
