// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Our declarations of the CPU executable library ABI (v0 structures, library version 6)
// that llvm-cpu kernels compiled by iree-compile are built against.
//
// Every struct here is shared byte-for-byte with generated code, so layouts are pinned
// with static_asserts (LP64: x86-64 SysV and aarch64 AAPCS64). The generated dispatch
// functions mark their three arguments 16-byte aligned, which is why the per-dispatch
// structs carry alignas(16); that changes no size or offset.
#ifndef IREE_RT_DRIVERS_CPU_LOADER_LIBRARY_ABI_H_
#define IREE_RT_DRIVERS_CPU_LOADER_LIBRARY_ABI_H_

#include <cstddef>
#include <cstdint>

namespace iree_rt::drivers::cpu {

// The only library version the 3.13 compiler emits; its query function returns null for
// any other requested version.
inline constexpr uint32_t kLibraryVersion = 6;
// Name of the symbol every embedded/system library exports.
inline constexpr const char kLibraryQuerySymbol[] = "iree_hal_executable_library_query";

inline constexpr uint32_t kMaxConstantCount = 64;
inline constexpr uint32_t kMaxBindingCount = 64;
inline constexpr uint32_t kLocalMemoryPageSize = 4096;
inline constexpr size_t kProcessorDataCapacity = 8;

// LibraryHeaderV0::sanitizer.
enum class SanitizerKind : int32_t {
  kNone = 0,
  kAddress = 1,
  kMemory = 2,
  kThread = 3,
  kUndefined = 4,
};

// DispatchAttrsV0::flags bits.
inline constexpr uint64_t kDispatchFlagSequential = 1ull << 0;
inline constexpr uint64_t kDispatchFlagWorkgroupSizeDynamic = 1ull << 1;

struct LibraryHeaderV0 {
  uint32_t version;  // kLibraryVersion
  const char* name;  // the hal.executable name
  uint32_t features;
  int32_t sanitizer;  // SanitizerKind
};

// Called by generated code for each import: returns 0 on success.
using ImportFunctionV0 = int (*)(void* params, void* context, void* reserved);
// Installed by the host; generated code calls thunk(fn, params, context, nullptr).
using ImportThunkV0 = int (*)(ImportFunctionV0 fn, void* params, void* context, void* reserved);

struct ImportTableV0 {
  uint32_t count;
  const char* const* symbols;  // sorted by strcmp; a leading '?' marks a weak import
};

struct ProcessorV0 {
  uint64_t data[kProcessorDataCapacity];  // architecture feature bits; 0 = unknown
};

struct alignas(16) EnvironmentV0 {
  const uint32_t* constants;  // executable-level constants
  ImportThunkV0 import_thunk;
  const ImportFunctionV0* import_funcs;  // indexed by import ordinal
  void* const* import_contexts;          // indexed by import ordinal
  ProcessorV0 processor;
};

struct alignas(16) DispatchStateV0 {
  uint32_t workgroup_size_x;
  uint32_t workgroup_size_y;
  uint16_t workgroup_size_z;
  uint16_t constant_count;
  uint32_t workgroup_count_x;
  uint32_t workgroup_count_y;
  uint16_t workgroup_count_z;
  uint8_t max_concurrency;
  uint8_t binding_count;
  const uint32_t* constants;
  void* const* binding_ptrs;
  const size_t* binding_lengths;
};

struct alignas(16) WorkgroupStateV0 {
  uint32_t workgroup_id_x;
  uint32_t workgroup_id_y;
  uint16_t workgroup_id_z;
  uint16_t reserved;
  uint32_t processor_id;
  void* local_memory;
  uint32_t local_memory_size;
};

// Returns 0 on success; anything else fails the dispatch.
using DispatchFunctionV0 = int (*)(const EnvironmentV0* environment,
                                   const DispatchStateV0* dispatch_state,
                                   const WorkgroupStateV0* workgroup_state);

struct DispatchAttrsV0 {
  uint64_t flags;
  uint16_t local_memory_pages;  // in kLocalMemoryPageSize units
  uint8_t constant_count;
  uint8_t binding_count;
  uint32_t workgroup_size_x;
  uint32_t workgroup_size_y;
  uint16_t workgroup_size_z;
  uint16_t parameter_count;
  uint64_t reserved_1[5];
};

// Only for exports with a custom (non-HAL) ABI.
struct DispatchParameterV0 {
  uint8_t type;  // 0 constant, 1 binding, 2 buffer pointer
  uint8_t size;
  uint16_t flags;
  uint16_t name;  // index into parameter_names or 0xFFFF
  uint16_t offset;
};

struct OccupancyV0 {
  int reserved;
};

struct SourceLocationV0 {
  uint32_t line;
  uint32_t path_length;
  const char* path;
};

struct StageLocationTableV0 {
  uint32_t count;
  const char* const* names;
  const SourceLocationV0* locations;
};

// Struct-of-arrays: every array is indexed by export ordinal; optional arrays may be null.
struct ExportTableV0 {
  uint32_t count;
  const DispatchFunctionV0* ptrs;
  const DispatchAttrsV0* attrs;
  const DispatchParameterV0* const* params;
  const OccupancyV0* occupancy;
  const char* const* names;
  const char* const* tags;
  const char* const* parameter_names;
  const SourceLocationV0* source_locations;
  const StageLocationTableV0* stage_locations;
};

struct ConstantTableV0 {
  uint32_t count;
};

struct SourceFileV0 {
  uint32_t path_length;
  const char* path;
  uint32_t content_length;
  const uint8_t* content;
};

struct SourceFileTableV0 {
  uint32_t count;
  const SourceFileV0* files;
};

struct LibraryV0 {
  const LibraryHeaderV0* header;
  ImportTableV0 imports;
  ExportTableV0 exports;
  ConstantTableV0 constants;
  SourceFileTableV0 sources;
};

// Returns a pointer to the library's header pointer (i.e. to LibraryV0::header), or null
// when |max_version| is not supported.
using LibraryQueryFunctionV0 = const LibraryHeaderV0* const* (*)(uint32_t max_version,
                                                                 const EnvironmentV0* environment);

// Layout pins (LP64). The ILP32 layouts differ and are not supported.
static_assert(sizeof(void*) == 8, "only LP64 hosts are supported");
static_assert(sizeof(LibraryHeaderV0) == 24 && alignof(LibraryHeaderV0) == 8);
static_assert(offsetof(LibraryHeaderV0, version) == 0 && offsetof(LibraryHeaderV0, name) == 8 &&
              offsetof(LibraryHeaderV0, features) == 16 &&
              offsetof(LibraryHeaderV0, sanitizer) == 20);
static_assert(sizeof(ImportTableV0) == 16 && offsetof(ImportTableV0, symbols) == 8);
static_assert(sizeof(ProcessorV0) == 64 && offsetof(ProcessorV0, data) == 0);
static_assert(sizeof(EnvironmentV0) == 96);
static_assert(offsetof(EnvironmentV0, constants) == 0 &&
              offsetof(EnvironmentV0, import_thunk) == 8 &&
              offsetof(EnvironmentV0, import_funcs) == 16 &&
              offsetof(EnvironmentV0, import_contexts) == 24 &&
              offsetof(EnvironmentV0, processor) == 32);
static_assert(sizeof(DispatchStateV0) == 48);
static_assert(offsetof(DispatchStateV0, workgroup_size_x) == 0 &&
              offsetof(DispatchStateV0, workgroup_size_y) == 4 &&
              offsetof(DispatchStateV0, workgroup_size_z) == 8 &&
              offsetof(DispatchStateV0, constant_count) == 10 &&
              offsetof(DispatchStateV0, workgroup_count_x) == 12 &&
              offsetof(DispatchStateV0, workgroup_count_y) == 16 &&
              offsetof(DispatchStateV0, workgroup_count_z) == 20 &&
              offsetof(DispatchStateV0, max_concurrency) == 22 &&
              offsetof(DispatchStateV0, binding_count) == 23 &&
              offsetof(DispatchStateV0, constants) == 24 &&
              offsetof(DispatchStateV0, binding_ptrs) == 32 &&
              offsetof(DispatchStateV0, binding_lengths) == 40);
static_assert(sizeof(WorkgroupStateV0) == 32);
static_assert(offsetof(WorkgroupStateV0, workgroup_id_x) == 0 &&
              offsetof(WorkgroupStateV0, workgroup_id_y) == 4 &&
              offsetof(WorkgroupStateV0, workgroup_id_z) == 8 &&
              offsetof(WorkgroupStateV0, reserved) == 10 &&
              offsetof(WorkgroupStateV0, processor_id) == 12 &&
              offsetof(WorkgroupStateV0, local_memory) == 16 &&
              offsetof(WorkgroupStateV0, local_memory_size) == 24);
static_assert(sizeof(DispatchAttrsV0) == 64 && alignof(DispatchAttrsV0) == 8);
static_assert(offsetof(DispatchAttrsV0, flags) == 0 &&
              offsetof(DispatchAttrsV0, local_memory_pages) == 8 &&
              offsetof(DispatchAttrsV0, constant_count) == 10 &&
              offsetof(DispatchAttrsV0, binding_count) == 11 &&
              offsetof(DispatchAttrsV0, workgroup_size_x) == 12 &&
              offsetof(DispatchAttrsV0, workgroup_size_y) == 16 &&
              offsetof(DispatchAttrsV0, workgroup_size_z) == 20 &&
              offsetof(DispatchAttrsV0, parameter_count) == 22 &&
              offsetof(DispatchAttrsV0, reserved_1) == 24);
static_assert(sizeof(DispatchParameterV0) == 8 && alignof(DispatchParameterV0) == 2);
static_assert(offsetof(DispatchParameterV0, size) == 1 &&
              offsetof(DispatchParameterV0, flags) == 2 &&
              offsetof(DispatchParameterV0, name) == 4 &&
              offsetof(DispatchParameterV0, offset) == 6);
static_assert(sizeof(SourceLocationV0) == 16 && offsetof(SourceLocationV0, path_length) == 4 &&
              offsetof(SourceLocationV0, path) == 8);
static_assert(sizeof(StageLocationTableV0) == 24 &&
              offsetof(StageLocationTableV0, names) == 8 &&
              offsetof(StageLocationTableV0, locations) == 16);
static_assert(sizeof(ExportTableV0) == 80);
static_assert(offsetof(ExportTableV0, ptrs) == 8 && offsetof(ExportTableV0, attrs) == 16 &&
              offsetof(ExportTableV0, params) == 24 && offsetof(ExportTableV0, occupancy) == 32 &&
              offsetof(ExportTableV0, names) == 40 && offsetof(ExportTableV0, tags) == 48 &&
              offsetof(ExportTableV0, parameter_names) == 56 &&
              offsetof(ExportTableV0, source_locations) == 64 &&
              offsetof(ExportTableV0, stage_locations) == 72);
static_assert(sizeof(ConstantTableV0) == 4 && alignof(ConstantTableV0) == 4);
static_assert(sizeof(SourceFileV0) == 32 && offsetof(SourceFileV0, path) == 8 &&
              offsetof(SourceFileV0, content_length) == 16 &&
              offsetof(SourceFileV0, content) == 24);
static_assert(sizeof(LibraryV0) == 128);
static_assert(offsetof(LibraryV0, header) == 0 && offsetof(LibraryV0, imports) == 8 &&
              offsetof(LibraryV0, exports) == 24 && offsetof(LibraryV0, constants) == 104 &&
              offsetof(LibraryV0, sources) == 112);

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_LOADER_LIBRARY_ABI_H_
