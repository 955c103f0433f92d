// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/loader/executable_library.h"

#include <algorithm>
#include <cstring>

#include "base/sanitizer.h"
#include "drivers/cpu/loader/elf_format.h"
#include "drivers/cpu/loader/elf_module.h"
#include "drivers/cpu/loader/processor_info.h"
#include "drivers/cpu/loader/system_library.h"

namespace iree_rt::drivers::cpu {

namespace {

constexpr std::string_view kEmbeddedPrefix = "embedded-elf-";
constexpr std::string_view kSystemPrefix = "system-elf-";
// No compiler output comes close; this bounds what a corrupt table can make us allocate.
constexpr uint32_t kMaxExportCount = 1u << 16;
constexpr uint32_t kMaxImportCount = 1u << 16;

// The sanitizer this runtime was built with, which a system library may share.
SanitizerKind HostSanitizer() {
#if defined(IREE_RT_ASAN)
  return SanitizerKind::kAddress;
#elif defined(IREE_RT_TSAN)
  return SanitizerKind::kThread;
#endif
  return SanitizerKind::kNone;
}

// Generated code calls every import through this. A weak import that was not provided
// has a null function; report failure instead of jumping to null.
int ImportThunk(ImportFunctionV0 function, void* params, void* context, void* reserved) {
  if (function == nullptr) return -1;
  return function(params, context, reserved);
}

}  // namespace

std::string_view ExecutableLibrary::HostArchName() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "arm_64";
#else
  return "";
#endif
}

bool ExecutableLibrary::SupportsFormat(std::string_view format) {
  const std::string_view arch = HostArchName();
  if (arch.empty()) return false;
  for (std::string_view prefix : {kEmbeddedPrefix, kSystemPrefix}) {
    if (format.size() == prefix.size() + arch.size() && format.starts_with(prefix) &&
        format.ends_with(arch)) {
      return true;
    }
  }
  return false;
}

ExecutableLibrary::ExecutableLibrary() : environment_{} {}
ExecutableLibrary::~ExecutableLibrary() = default;

base::StatusOr<std::unique_ptr<ExecutableLibrary>> ExecutableLibrary::Load(
    std::string_view format, std::span<const uint8_t> data,
    std::span<const uint32_t> executable_constants, const ImportResolver& import_resolver) {
  if (!SupportsFormat(format)) {
    return base::UnimplementedError("executable format '", format,
                                    "' is not supported (this host loads embedded-elf-",
                                    HostArchName(), " and system-elf-", HostArchName(), ")");
  }
  std::unique_ptr<ExecutableLibrary> library(new ExecutableLibrary());
  void* query = nullptr;
  const bool embedded = format.starts_with(kEmbeddedPrefix);
  if (embedded) {
    RT_ASSIGN_OR_RETURN(library->elf_, ElfModule::Load(data));
    query = library->elf_->LookupSymbol(kLibraryQuerySymbol);
    if (query != nullptr && !library->elf_->ContainsCode(query)) {
      return base::InvalidArgumentError("executable: ", kLibraryQuerySymbol,
                                        " does not point into an executable segment");
    }
  } else {
    RT_ASSIGN_OR_RETURN(library->system_, SystemLibrary::Load(data));
    query = library->system_->LookupSymbol(kLibraryQuerySymbol);
  }
  if (query == nullptr) {
    return base::NotFoundError("executable: symbol ", kLibraryQuerySymbol, " not found");
  }
  RT_RETURN_IF_ERROR(library->Initialize(reinterpret_cast<LibraryQueryFunctionV0>(query),
                                         embedded, executable_constants, import_resolver));
  return library;
}

base::StatusOr<std::unique_ptr<ExecutableLibrary>> ExecutableLibrary::LoadFromQuery(
    LibraryQueryFunctionV0 query, std::span<const uint32_t> executable_constants,
    const ImportResolver& import_resolver) {
  if (query == nullptr) return base::InvalidArgumentError("executable: null query function");
  std::unique_ptr<ExecutableLibrary> library(new ExecutableLibrary());
  RT_RETURN_IF_ERROR(
      library->Initialize(query, /*embedded=*/false, executable_constants, import_resolver));
  return library;
}

bool ExecutableLibrary::Addressable(const void* ptr, size_t size) const {
  return elf_ == nullptr || elf_->ContainsRange(ptr, size);
}

std::optional<std::string_view> ExecutableLibrary::ReadString(const char* ptr) const {
  if (ptr == nullptr) return std::nullopt;
  if (elf_ != nullptr) return elf_->ReadString(ptr);
  return std::string_view(ptr);
}

base::Status ExecutableLibrary::Initialize(LibraryQueryFunctionV0 query, bool embedded,
                                           std::span<const uint32_t> executable_constants,
                                           const ImportResolver& import_resolver) {
  constants_.assign(executable_constants.begin(), executable_constants.end());
  environment_.constants = constants_.empty() ? nullptr : constants_.data();
  environment_.import_thunk = &ImportThunk;
  environment_.processor = HostProcessorData();

  // 3.13 libraries answer exactly version 6 and return null for anything else.
  const LibraryHeaderV0* const* header_ptr = query(kLibraryVersion, &environment_);
  if (header_ptr == nullptr) {
    return base::IncompatibleError("executable: the library does not support ABI version ",
                                   kLibraryVersion, " (its query returned null)");
  }
  if (!Addressable(header_ptr, sizeof(*header_ptr)) || *header_ptr == nullptr ||
      !Addressable(*header_ptr, sizeof(LibraryHeaderV0))) {
    return base::InvalidArgumentError("executable: the library header lies outside the image");
  }
  const LibraryHeaderV0& header = **header_ptr;
  if (header.version != kLibraryVersion) {
    return base::IncompatibleError("executable: library header version ", header.version,
                                   " is not supported (this runtime speaks ", kLibraryVersion,
                                   ")");
  }
  const std::optional<std::string_view> name = ReadString(header.name);
  if (!name) return base::InvalidArgumentError("executable: the library header has no name");
  name_ = std::string(*name);
  const auto sanitizer = static_cast<SanitizerKind>(header.sanitizer);
  if (sanitizer != SanitizerKind::kNone && (embedded || sanitizer != HostSanitizer())) {
    return base::UnavailableError("executable '", name_, "' was built with sanitizer ",
                                  header.sanitizer, embedded
                                      ? "; embedded ELF executables cannot use sanitizers"
                                      : ", which this runtime was not built with");
  }
  if (header.features != 0) {
    return base::UnavailableError("executable '", name_, "' requires library features ",
                                  elf::Hex{header.features}, " that this runtime lacks");
  }
  // The header pointer is the first field of the library struct.
  const auto* library = reinterpret_cast<const LibraryV0*>(header_ptr);
  if (!Addressable(library, sizeof(LibraryV0))) {
    return base::InvalidArgumentError("executable '", name_, "': library table lies outside the image");
  }
  if (library->constants.count != constants_.size()) {
    return base::FailedPreconditionError("executable '", name_, "' declares ",
                                         library->constants.count,
                                         " executable constants but ", constants_.size(),
                                         " were provided");
  }
  RT_RETURN_IF_ERROR(ValidateExports(*library));
  return ResolveImports(*library, import_resolver);
}

base::Status ExecutableLibrary::ValidateExports(const LibraryV0& library) {
  const ExportTableV0& table = library.exports;
  const uint32_t count = table.count;
  if (count > kMaxExportCount) {
    return base::InvalidArgumentError("executable '", name_, "' claims ", count, " exports");
  }
  if (count == 0) return base::Status::Ok();
  if (table.ptrs == nullptr || !Addressable(table.ptrs, count * sizeof(*table.ptrs))) {
    return base::InvalidArgumentError("executable '", name_, "' has no export function table");
  }
  if (table.attrs == nullptr || !Addressable(table.attrs, count * sizeof(*table.attrs))) {
    return base::InvalidArgumentError("executable '", name_,
                                      "' has no export attrs (required by this runtime)");
  }
  if (table.names == nullptr || !Addressable(table.names, count * sizeof(*table.names))) {
    return base::InvalidArgumentError("executable '", name_, "' has no export names");
  }
  exports_.reserve(count);
  functions_.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const std::optional<std::string_view> export_name = ReadString(table.names[i]);
    if (!export_name || export_name->empty()) {
      return base::InvalidArgumentError("executable '", name_, "' export ", i, " has no name");
    }
    const DispatchAttrsV0& attrs = table.attrs[i];
    if (attrs.constant_count > kMaxConstantCount || attrs.binding_count > kMaxBindingCount) {
      return base::InvalidArgumentError("executable '", name_, "' export '", *export_name,
                                        "' uses ", static_cast<int>(attrs.constant_count),
                                        " constants and ", static_cast<int>(attrs.binding_count),
                                        " bindings; the limits are ", kMaxConstantCount, " and ",
                                        kMaxBindingCount);
    }
    const DispatchFunctionV0 function = table.ptrs[i];
    if (function == nullptr ||
        (elf_ != nullptr && !elf_->ContainsCode(reinterpret_cast<const void*>(function)))) {
      return base::InvalidArgumentError("executable '", name_, "' export '", *export_name,
                                        "' has no valid function pointer");
    }
    ExportInfo info;
    info.name = std::string(*export_name);
    info.constant_count = attrs.constant_count;
    info.binding_count = attrs.binding_count;
    // Kernels read workgroup_size from the dispatch state; CPU codegen reports 1x1x1.
    info.workgroup_size[0] = std::max<uint32_t>(attrs.workgroup_size_x, 1);
    info.workgroup_size[1] = std::max<uint32_t>(attrs.workgroup_size_y, 1);
    info.workgroup_size[2] = std::max<uint32_t>(attrs.workgroup_size_z, 1);
    info.local_memory_size = uint32_t{attrs.local_memory_pages} * kLocalMemoryPageSize;
    info.flags = attrs.flags;
    exports_.push_back(std::move(info));
    functions_.push_back(function);
  }
  return base::Status::Ok();
}

base::Status ExecutableLibrary::ResolveImports(const LibraryV0& library,
                                               const ImportResolver& import_resolver) {
  const ImportTableV0& imports = library.imports;
  if (imports.count == 0) return base::Status::Ok();
  if (imports.count > kMaxImportCount || imports.symbols == nullptr ||
      !Addressable(imports.symbols, imports.count * sizeof(*imports.symbols))) {
    return base::InvalidArgumentError("executable '", name_, "' has a malformed import table (",
                                      imports.count, " entries)");
  }
  import_functions_.assign(imports.count, nullptr);
  import_contexts_.assign(imports.count, nullptr);
  for (uint32_t i = 0; i < imports.count; ++i) {
    std::optional<std::string_view> symbol = ReadString(imports.symbols[i]);
    if (!symbol || symbol->empty() || *symbol == "?") {
      return base::InvalidArgumentError("executable '", name_, "' import ", i, " has no name");
    }
    const bool weak = symbol->starts_with('?');
    if (weak) symbol->remove_prefix(1);
    ImportBinding binding;
    if (import_resolver) binding = import_resolver(*symbol);
    if (binding.function == nullptr && !weak) {
      return base::NotFoundError("executable '", name_, "' requires import '", *symbol,
                                 "' and no import provider supplies it");
    }
    import_functions_[i] = binding.function;
    import_contexts_[i] = binding.context;
  }
  environment_.import_funcs = import_functions_.data();
  environment_.import_contexts = import_contexts_.data();
  return base::Status::Ok();
}

base::StatusOr<uint32_t> ExecutableLibrary::LookupExport(std::string_view name) const {
  for (uint32_t i = 0; i < exports_.size(); ++i) {
    if (exports_[i].name == name) return i;
  }
  return base::NotFoundError("export '", name, "' not found in executable '", name_, "' (",
                             exports_.size(), " exports)");
}

base::Status ExecutableLibrary::RunWorkgroup(uint32_t ordinal, const DispatchStateV0& state,
                                             uint32_t x, uint32_t y, uint32_t z,
                                             uint32_t processor_id, void* local_memory,
                                             uint32_t local_memory_size) const {
  RT_ASSIGN_OR_RETURN(const ExportInfo* export_info,
                      CheckWorkgroup(ordinal, state, x, y, z, local_memory, local_memory_size));
  const ExportInfo& info = *export_info;
  WorkgroupStateV0 workgroup{};
  workgroup.workgroup_id_x = x;
  workgroup.workgroup_id_y = y;
  workgroup.workgroup_id_z = static_cast<uint16_t>(z);
  workgroup.processor_id = processor_id;
  workgroup.local_memory = local_memory_size != 0 ? local_memory : nullptr;
  workgroup.local_memory_size = local_memory_size;
  const int result = functions_[ordinal](&environment_, &state, &workgroup);
  if (result != 0) {
    return base::InternalError("executable '", name_, "' export '", info.name,
                               "' failed with code ", result, " in workgroup (", x, ", ", y, ", ",
                               z, ")");
  }
  return base::Status::Ok();
}

}  // namespace iree_rt::drivers::cpu
