// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Helpers shared by the bytecode verifier and disassembler tests: the modules compiled from
// tests/testdata/vm/verifier, a test-only type resolution, and lookups by export name.
#ifndef IREE_RT_TESTS_UNIT_VM_VERIFIER_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_VM_VERIFIER_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vm/bytecode/module_image.h"
#include "vm/ref.h"
#include "vm/type.h"

namespace iree_rt::vm::bytecode::testing {

// Modules compiled by tests/testdata/vm/verifier (all but "large" have an annotated listing).
inline const char* const kVerifierModules[] = {"vm_ops", "scalar_math", "control_flow",
                                               "lists_globals", "tensor_program"};

inline std::string VerifierModulePath(std::string_view name, std::string_view suffix = ".vmfb") {
  return std::string(RT_TEST_VERIFIER_MODULES_DIR) + "/rt_vm_verifier_" + std::string(name) +
         std::string(suffix);
}

inline std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    ADD_FAILURE() << "cannot open " << path;
    return {};
  }
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

// Stands in for the instance's type registry: primitives by name, "!vm.opaque" as the any
// type, every other name as a ref type (the verifier only asks which kind a type is).
inline std::vector<vm::Type> ResolveTypesForTest(const ModuleImage& image) {
  static const RefType kTestRefType{"test.ref"};
  std::vector<vm::Type> types;
  for (std::string_view name : image.type_names()) {
    if (name == "i8")
      types.push_back(vm::Type::Value(ValueType::kI8));
    else if (name == "i16")
      types.push_back(vm::Type::Value(ValueType::kI16));
    else if (name == "i32")
      types.push_back(vm::Type::Value(ValueType::kI32));
    else if (name == "i64")
      types.push_back(vm::Type::Value(ValueType::kI64));
    else if (name == "f32")
      types.push_back(vm::Type::Value(ValueType::kF32));
    else if (name == "f64")
      types.push_back(vm::Type::Value(ValueType::kF64));
    else if (name == "!vm.opaque")
      types.push_back(vm::Type::Any());
    else
      types.push_back(vm::Type::OfRef(&kTestRefType));
  }
  return types;
}

// A module's bytes with the image parsed over them. The image views the bytes, so patching
// bytes[] in place changes the bytecode the image (and the verifier) sees.
struct LoadedModule {
  std::vector<uint8_t> bytes;
  std::unique_ptr<ModuleImage> image;
  std::vector<vm::Type> types;

  // Parses |bytes| again (after a change to the FlatBuffer outside the bytecode).
  ::testing::AssertionResult Reparse() {
    auto parsed = ModuleImage::Parse(bytes, kFeatureAll);
    if (!parsed.ok()) return ::testing::AssertionFailure() << parsed.status().ToString();
    image = std::move(parsed.value());
    types = ResolveTypesForTest(*image);
    return ::testing::AssertionSuccess();
  }

  // Internal ordinal of the function exported as |name|; fails the test if there is none.
  uint32_t Function(std::string_view name) const {
    for (const ExportInfo& exported : image->exports()) {
      if (exported.name == name) return exported.internal_ordinal;
    }
    ADD_FAILURE() << "no export named " << name;
    return 0;
  }

  // Offset in bytes[] of |pc| of function |ordinal|.
  size_t FileOffset(uint32_t ordinal, uint32_t pc) const {
    return static_cast<size_t>(image->functions()[ordinal].bytecode.data() - bytes.data()) + pc;
  }
};

inline std::unique_ptr<LoadedModule> LoadVerifierModule(std::string_view name) {
  auto module = std::make_unique<LoadedModule>();
  module->bytes = ReadBytes(VerifierModulePath(name));
  if (module->bytes.empty()) return nullptr;
  auto status = module->Reparse();
  if (!status) {
    ADD_FAILURE() << name << ": " << status.message();
    return nullptr;
  }
  return module;
}

}  // namespace iree_rt::vm::bytecode::testing

#endif  // IREE_RT_TESTS_UNIT_VM_VERIFIER_TEST_UTIL_H_
