// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// SystemLibrary: loads a `system-elf-<arch>` executable (a platform shared object made
// with --iree-llvmcpu-link-embedded=false) through the OS dynamic loader.
//
// The bytes are written to an anonymous memfd (or, where that is unavailable, a temporary
// file that is unlinked right after loading) and opened with dlopen(RTLD_NOW|RTLD_LOCAL).
// Unlike ElfModule this is NOT a sandbox for untrusted bytes: the platform loader runs
// the library's constructors and trusts its tables. Use it for trusted deployments and
// debugging (profilers and debuggers see a normal shared object).
#ifndef IREE_RT_DRIVERS_CPU_LOADER_SYSTEM_LIBRARY_H_
#define IREE_RT_DRIVERS_CPU_LOADER_SYSTEM_LIBRARY_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "base/status.h"

namespace iree_rt::drivers::cpu {

class SystemLibrary {
 public:
  // Loads |data|. An optional trailing 48-byte debug footer ("IREEDBG\0" magic) is
  // honoured: only its library range is loaded. |data| is only read during the call.
  // Errors: INVALID_ARGUMENT for a malformed footer or a library dlopen rejects,
  // UNAVAILABLE when no memfd or temporary file can be created.
  static base::StatusOr<std::unique_ptr<SystemLibrary>> Load(std::span<const uint8_t> data);

  ~SystemLibrary();  // dlclose
  SystemLibrary(const SystemLibrary&) = delete;
  SystemLibrary& operator=(const SystemLibrary&) = delete;

  // dlsym in this library only; nullptr if absent.
  void* LookupSymbol(std::string_view name) const;

 private:
  explicit SystemLibrary(void* handle) : handle_(handle) {}
  void* handle_;
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_LOADER_SYSTEM_LIBRARY_H_
