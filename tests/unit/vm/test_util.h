// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Shared helpers of the VM loader tests: compiled test modules, status matchers and in-place
// editing of a module's FlatBuffer through the generated mutable API.
#ifndef IREE_RT_TESTS_UNIT_VM_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_VM_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "status_matchers.h"
#include "base/status.h"
#include "vm/bytecode/schema/module_def_generated.h"

namespace iree_rt::vm::bytecode::testing {

using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

// The bytes of tests/testdata/vm/<name>.mlir compiled as rt_vm_<name>[_plain].vmfb.
std::vector<uint8_t> ReadModule(std::string_view name, bool plain);
std::string ModulePath(std::string_view name, bool plain);

// The 4400 bytes of the constant in big_constant.mlir and vm_features.mlir:
// element i (i32, little-endian) is i * 2654435761 mod 2^32.
std::vector<uint8_t> BigConstantBytes();


// The module root inside |bytes| (either layout), for corrupting fields in place. Fields the
// compiler omitted (equal to their default) cannot be mutated; the mutators return false.
fb::BytecodeModuleDef* MutableModule(std::vector<uint8_t>& bytes);

// A minimal valid module (plain layout) built with the generated builders: name "m", one
// function (4 bytes of bytecode, cconv "0v_v"), export "f". |edit| may change the parts
// before the module is finished.
struct SyntheticModule {
  std::string name = "m";
  bool omit_name = false;
  uint32_t requirements = 0;
  uint32_t bytecode_version = 17u << 16;
  std::vector<std::string> type_names;
  std::vector<std::string> import_names;
  std::vector<std::string> dependency_names;
  std::vector<std::string> export_names = {"f"};
  int32_t export_ordinal = 0;
  int signature_count = 1;
  std::vector<fb::FunctionDescriptor> descriptors = {
      fb::FunctionDescriptor(0, 4, fb::FeatureBits::NONE, 0, 1, 0, 0)};
  int bytecode_size = 8;
  bool with_module_state = false;
  int32_t global_bytes = 0;
  int32_t global_refs = 0;
  // Rodata segments, each with embedded data (external data is tested on compiled modules).
  std::vector<std::vector<uint8_t>> embedded_rodata;
  // Debug database: when set, location_table entries and one source map per function entry.
  bool with_debug_database = false;
  int debug_function_count = 1;
  std::vector<fb::BytecodeLocationDef> debug_locations;
  // Location table entries (LocationTypeDef union members); build them with the helpers.
  struct LocEntry {
    fb::LocationTypeDef kind = fb::LocationTypeDef::NONE;
    std::string file;
    int32_t line = 0;
    int32_t column = 0;
    int32_t first = 0;              // call site callee, name child
    int32_t second = 0;             // call site caller
    std::vector<int32_t> children;  // fused
  };
  static LocEntry NoLoc() { return {}; }
  static LocEntry FileLoc(std::string file, int32_t line, int32_t column);
  static LocEntry CallSiteLoc(int32_t callee, int32_t caller);
  static LocEntry FusedLoc(std::vector<int32_t> children);
  static LocEntry NameLoc(int32_t child);
  std::vector<LocEntry> location_table;

  std::vector<uint8_t> Build() const;
};

}  // namespace iree_rt::vm::bytecode::testing

#endif  // IREE_RT_TESTS_UNIT_VM_TEST_UTIL_H_
