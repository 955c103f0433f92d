// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExecutableLibrary: one loaded CPU executable (the llvm-cpu library ABI, version 6) and
// the per-dispatch glue around its exports.
//
// Load() picks the loader from the format string (`embedded-elf-<arch>` → ElfModule,
// `system-elf-<arch>` → SystemLibrary, both only for this host's arch), performs the
// version handshake, validates the library tables, resolves imports and builds the
// environment every dispatch receives. DispatchProgram::PrepareDispatch() validates one
// dispatch and fills the ABI dispatch state; RunWorkgroup() calls the kernel for one workgroup.
//
// Thread-safety: immutable after Load. PrepareDispatch and RunWorkgroup may be called
// concurrently from any number of threads (workgroups of one dispatch run in parallel).
#ifndef IREE_RT_DRIVERS_CPU_LOADER_EXECUTABLE_LIBRARY_H_
#define IREE_RT_DRIVERS_CPU_LOADER_EXECUTABLE_LIBRARY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "drivers/cpu/dispatch_program.h"
#include "drivers/cpu/loader/library_abi.h"

namespace iree_rt::drivers::cpu {

class ElfModule;
class SystemLibrary;

class ExecutableLibrary final : public DispatchProgram {
 public:
  // Workgroup sizes come from the export's attrs.
  using ExportInfo = DispatchProgram::ExportInfo;

  // What an import provider returns for one import name; a null |function| means "not
  // provided". |context| is passed back to |function| on every call.
  struct ImportBinding {
    ImportFunctionV0 function = nullptr;
    void* context = nullptr;
  };
  // Called once per import during Load with the name stripped of its weak '?' prefix.
  using ImportResolver = std::function<ImportBinding(std::string_view name)>;

  // This host's architecture name in format strings ("x86_64", "arm_64"; "" if none).
  static std::string_view HostArchName();

  // True for "embedded-elf-<host arch>" and "system-elf-<host arch>".
  static bool SupportsFormat(std::string_view format);

  // Loads |data| in |format|; |data| need only live for the call, |executable_constants|
  // are copied. Errors: UNIMPLEMENTED for an unsupported format; the ElfModule /
  // SystemLibrary errors; NOT_FOUND if the query symbol or a required import is missing;
  // INCOMPATIBLE if the library does not speak version 6; UNAVAILABLE for a sanitizer or
  // feature requirement this runtime cannot meet; FAILED_PRECONDITION if the library's
  // constant count differs from |executable_constants|.size(); INVALID_ARGUMENT for
  // malformed library tables.
  static base::StatusOr<std::unique_ptr<ExecutableLibrary>> Load(
      std::string_view format, std::span<const uint8_t> data,
      std::span<const uint32_t> executable_constants, const ImportResolver& import_resolver = {});

  // Same checks for a library linked into the process (the `static` format), given its
  // query function. Library tables are trusted to be addressable.
  static base::StatusOr<std::unique_ptr<ExecutableLibrary>> LoadFromQuery(
      LibraryQueryFunctionV0 query, std::span<const uint32_t> executable_constants,
      const ImportResolver& import_resolver = {});

  ~ExecutableLibrary() override;
  ExecutableLibrary(const ExecutableLibrary&) = delete;
  ExecutableLibrary& operator=(const ExecutableLibrary&) = delete;

  // The library header name (the hal.executable symbol name).
  const std::string& name() const override { return name_; }
  uint32_t export_count() const override { return static_cast<uint32_t>(exports_.size()); }
  // Requires |ordinal| < export_count().
  const ExportInfo& export_info(uint32_t ordinal) const override { return exports_[ordinal]; }
  // Returns the ordinal of the export called |name|; NOT_FOUND naming it otherwise.
  base::StatusOr<uint32_t> LookupExport(std::string_view name) const;

  // The environment passed to every dispatch (64-byte aligned; lives as long as this).
  const EnvironmentV0& environment() const { return environment_; }

  // Runs workgroup (x, y, z) of a dispatch prepared by PrepareDispatch for |ordinal|.
  // |local_memory| is scratch private to this call of at least
  // export_info(ordinal).local_memory_size bytes. Errors: OUT_OF_RANGE for a bad ordinal
  // or a workgroup id outside the state's counts; RESOURCE_EXHAUSTED if the local memory
  // is too small; INTERNAL naming the export and workgroup if the kernel returns non-zero.
  base::Status RunWorkgroup(uint32_t ordinal, const DispatchStateV0& state, uint32_t x,
                            uint32_t y, uint32_t z, uint32_t processor_id, void* local_memory,
                            uint32_t local_memory_size) const override;

 private:
  ExecutableLibrary();

  // Handshake, header and table validation, import resolution.
  base::Status Initialize(LibraryQueryFunctionV0 query, bool embedded,
                          std::span<const uint32_t> executable_constants,
                          const ImportResolver& import_resolver);
  base::Status ValidateExports(const LibraryV0& library);
  base::Status ResolveImports(const LibraryV0& library, const ImportResolver& import_resolver);
  // For embedded images: whether library memory is inside the image (always true else).
  bool Addressable(const void* ptr, size_t size) const;
  std::optional<std::string_view> ReadString(const char* ptr) const;

  // The code must outlive everything below that points into it.
  std::unique_ptr<ElfModule> elf_;
  std::unique_ptr<SystemLibrary> system_;

  std::string name_;
  std::vector<ExportInfo> exports_;
  std::vector<DispatchFunctionV0> functions_;
  std::vector<uint32_t> constants_;
  std::vector<ImportFunctionV0> import_functions_;
  std::vector<void*> import_contexts_;
  alignas(64) EnvironmentV0 environment_;
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_LOADER_EXECUTABLE_LIBRARY_H_
