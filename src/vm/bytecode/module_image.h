// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ModuleImage: a validated, zero-copy view of a .vmfb bytecode module.
//
// Parse() runs every load-time check that needs only the module bytes (docs:
// vm_format_facts.md §1.6 steps 1–9): archive layout, FlatBuffer structure, feature
// requirements, names, counts, ordinals, bytecode version, function descriptor bounds and
// rodata bounds. Everything it returns afterwards is in bounds, so later stages (type
// resolution, the bytecode verifier, the interpreter) never re-check the container.
// It does not resolve type names and does not look inside function bodies.
//
// Lifetime: the image aliases the caller's bytes (strings, bytecode and rodata are views into
// them). The caller keeps the bytes alive and unchanged for as long as the image or any view
// taken from it is used (e.g. hold the base::MappedFile next to the image).
//
// Thread-safety: immutable after Parse; every const method may be called from any thread.
#ifndef IREE_RT_VM_BYTECODE_MODULE_IMAGE_H_
#define IREE_RT_VM_BYTECODE_MODULE_IMAGE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace iree_rt::vm::bytecode {

// Feature bits a module or function may require (FeatureBits in the module schema).
inline constexpr uint32_t kFeatureExtF32 = 1u << 0;  // f32 extension opcodes
inline constexpr uint32_t kFeatureExtF64 = 1u << 1;  // f64 extension opcodes
inline constexpr uint32_t kFeatureYield = 1u << 2;   // may (transitively) yield
inline constexpr uint32_t kFeatureUnwind = 1u << 3;  // may unwind with ref cleanup
inline constexpr uint32_t kFeatureAll =
    kFeatureExtF32 | kFeatureExtF64 | kFeatureYield | kFeatureUnwind;

// The bytecode version this runtime executes: modules must match the major and have a minor
// no newer than ours.
inline constexpr uint32_t kBytecodeVersionMajor = 17;
inline constexpr uint32_t kBytecodeVersionMinor = 0;
// The compiler release whose modules this runtime is built and tested against (it writes
// bytecode 17.0); named in the message that refuses another bytecode version.
inline constexpr const char* kCompilerVersion = "3.13.0";

// "EXT_F32|YIELD"; unknown bits are spelled "bit<N>"; "none" for 0.
std::string FormatFeatureBits(uint32_t bits);

// A reflection attribute. Keys and values are UTF-8 strings from the module.
struct Attr {
  std::string_view key;
  std::string_view value;
};

// One internal function (index = internal ordinal).
struct FunctionInfo {
  std::span<const uint8_t> bytecode;  // exactly bytecode_length bytes (no padding), never empty
  uint32_t requirements = 0;          // FeatureBits, a subset of the available features
  uint16_t block_count = 0;           // >= 1
  uint16_t i32_register_count = 0;    // <= 0x7FFF
  uint16_t ref_register_count = 0;    // <= 0x3FFF
  std::string_view cconv;             // calling convention, e.g. "0iIf_If"; may be empty
  std::vector<Attr> attrs;            // reflection attributes (sorted by key by the compiler)
  // The function's symbol name from the debug database; empty when stripped or unreliable
  // (iree-compile 3.13.0 records only one function map, see docs/facts_corrections.md).
  std::string_view debug_name;
};

// One imported function (index = import ordinal).
struct ImportInfo {
  std::string_view full_name;      // "module.function"
  std::string_view module_name;    // before the first '.', non-empty
  std::string_view function_name;  // after the first '.', non-empty (may contain more dots)
  std::string_view cconv;          // empty when the module did not record one
  bool optional = false;           // flags had OPTIONAL; absent flags mean REQUIRED
};

// One exported function (index = export ordinal). Several exports may alias one function.
struct ExportInfo {
  std::string_view name;
  uint32_t internal_ordinal = 0;  // < functions().size()
};

// A module this one imports from.
struct DependencyInfo {
  std::string_view name;         // non-empty
  uint32_t minimum_version = 0;  // the dependency's version() must be >= this
  bool optional = false;         // flags had OPTIONAL; absent flags mean REQUIRED
};

class ModuleImage {
 public:
  // Validates |bytes| (either .vmfb layout) and builds the view. |available_features| are the
  // feature bits this runtime provides (kFeature*). |bytes| must start 8-byte aligned in
  // memory (heap and mmap storage are); the FlatBuffer is read in place.
  //
  // Errors (all INVALID_ARGUMENT, naming the offending element): malformed archive or
  // FlatBuffer; requirements not in |available_features| (lists the missing ones); empty
  // names; signature/descriptor count mismatch; export ordinal out of range; bytecode version
  // mismatch; descriptor out of bounds, zero blocks or length, too many registers; rodata
  // outside the file.
  static base::StatusOr<std::unique_ptr<ModuleImage>> Parse(std::span<const uint8_t> bytes,
                                                            uint32_t available_features);

  ModuleImage(const ModuleImage&) = delete;
  ModuleImage& operator=(const ModuleImage&) = delete;
  ~ModuleImage();

  std::span<const uint8_t> bytes() const { return bytes_; }
  bool is_zip() const { return is_zip_; }

  std::string_view name() const { return name_; }
  uint32_t version() const { return version_; }
  uint32_t requirements() const { return requirements_; }
  uint32_t bytecode_version() const { return bytecode_version_; }  // major << 16 | minor
  const std::vector<Attr>& attrs() const { return attrs_; }
  // Type table (bytecode type ids index it), names as written by the compiler ("i32",
  // "!vm.buffer", "!hal.buffer"); unresolved.
  const std::vector<std::string_view>& type_names() const { return type_names_; }
  uint32_t global_bytes_capacity() const { return global_bytes_capacity_; }
  uint32_t global_ref_count() const { return global_ref_count_; }

  const std::vector<FunctionInfo>& functions() const { return functions_; }
  const std::vector<ImportInfo>& imports() const { return imports_; }
  const std::vector<ExportInfo>& exports() const { return exports_; }
  const std::vector<DependencyInfo>& dependencies() const { return dependencies_; }
  // Read-only data segments (index = rodata ordinal): embedded in the FlatBuffer or stored after
  // it; both alias bytes(). Alignment is not guaranteed (see docs/facts_corrections.md).
  const std::vector<std::span<const uint8_t>>& rodata() const { return rodata_; }

  // Best-effort source location of the op at |pc| in internal function |function_ordinal|:
  // "file:line:column" of the innermost file location (call sites resolve to the callee, fused
  // locations to their first file location, names to their child), or "" when |pc| is outside
  // the function or the module has no usable debug information for it. Never fails on
  // malformed debug data.
  std::string SourceLocation(uint32_t function_ordinal, uint32_t pc) const;

 private:
  ModuleImage() = default;

  base::Status Build(uint32_t available_features, std::span<const uint8_t> external_rodata);

  std::span<const uint8_t> bytes_;
  const uint8_t* flatbuffer_ = nullptr;  // size-prefixed, verified
  bool is_zip_ = false;
  bool has_function_debug_info_ = false;  // debug function maps are 1:1 with functions

  std::string_view name_;
  uint32_t version_ = 0;
  uint32_t requirements_ = 0;
  uint32_t bytecode_version_ = 0;
  uint32_t global_bytes_capacity_ = 0;
  uint32_t global_ref_count_ = 0;
  std::vector<Attr> attrs_;
  std::vector<std::string_view> type_names_;
  std::vector<FunctionInfo> functions_;
  std::vector<ImportInfo> imports_;
  std::vector<ExportInfo> exports_;
  std::vector<DependencyInfo> dependencies_;
  std::vector<std::span<const uint8_t>> rodata_;
};

}  // namespace iree_rt::vm::bytecode

#endif  // IREE_RT_VM_BYTECODE_MODULE_IMAGE_H_
