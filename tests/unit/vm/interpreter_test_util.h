// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Helpers shared by the interpreter tests: loading the compiled programs of
// tests/testdata/vm/programs, a small native module to import from, and call shorthands.
#ifndef IREE_RT_TESTS_UNIT_VM_INTERPRETER_TEST_UTIL_H_
#define IREE_RT_TESTS_UNIT_VM_INTERPRETER_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "status_matchers.h"
#include "base/ref_object.h"
#include "base/status.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/context.h"
#include "vm/instance.h"
#include "vm/native_module.h"
#include "vm/value.h"

namespace iree_rt::vm::bytecode::testing {

using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

// Owns a module's bytes; passed to BytecodeModule::Load as keep_alive. Counts destructions so
// tests can prove nothing keeps the bytes (and the module) alive too long or too short.
class ProgramBytes : public base::RefObject {
 public:
  explicit ProgramBytes(std::vector<uint8_t> bytes, int* destroyed = nullptr)
      : bytes_(std::move(bytes)), destroyed_(destroyed) {}
  ~ProgramBytes() override {
    if (destroyed_) ++*destroyed_;
  }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
  int* destroyed_;
};

// Bytes of rt_vm_prog_<name>.vmfb.
std::vector<uint8_t> ReadProgram(std::string_view name);

// Replaces, inside the body of export |function|, every internal call to export |stub| by a call
// to |function| itself (iree-compile 3.13 cannot compile recursion; see vm_calls.mlir).
// Returns the number of call sites patched.
int PatchCallsToSelf(std::vector<uint8_t>& bytes, std::string_view function, std::string_view stub);

base::StatusOr<base::Ref<BytecodeModule>> LoadProgram(Instance& instance, std::string_view name,
                                                      int* destroyed = nullptr,
                                                      std::function<void(std::vector<uint8_t>&)> patch = {});

// The native module "native" that vm_calls imports (cconvs exactly as the compiler records them).
base::Ref<NativeModule> CreateNativeTestModule();


// A context over |modules| and calls by export name.
class Program {
 public:
  static base::StatusOr<Program> Create(base::Ref<Instance> instance,
                                        std::vector<base::Ref<Module>> modules);
  base::StatusOr<std::vector<Value>> Call(std::string_view function, std::vector<Value> args = {});
  Context& context() { return *context_; }

 private:
  base::Ref<Context> context_;
};

// A fixture owning an instance and a Program; subclasses Link() the modules they load.
class ProgramTest : public ::testing::Test {
 protected:
  ProgramTest() : instance_(Instance::Create()) {}

  void Link(std::vector<base::Ref<Module>> modules) {
    auto program = Program::Create(instance_, std::move(modules));
    ASSERT_TRUE(program.ok()) << program.status().ToString();
    program_.emplace(std::move(program).value());
  }
  // The results of a call that must succeed (16 empty values if it failed, so indexing is safe).
  std::vector<Value> Run(std::string_view function, std::vector<Value> args) {
    auto results = program_->Call(function, std::move(args));
    EXPECT_TRUE(results.ok()) << function << ": " << results.status().ToString();
    return results.ok() ? std::move(results).value() : std::vector<Value>(16);
  }
  base::Status RunStatus(std::string_view function, std::vector<Value> args) {
    return program_->Call(function, std::move(args)).status();
  }

  base::Ref<Instance> instance_;
  std::optional<Program> program_;
};

// Value shorthands.
inline Value I32(int32_t v) { return Value::I32(v); }
inline Value I64(int64_t v) { return Value::I64(v); }
inline Value F32(float v) { return Value::F32(v); }
inline Value F64(double v) { return Value::F64(v); }

}  // namespace iree_rt::vm::bytecode::testing

#endif  // IREE_RT_TESTS_UNIT_VM_INTERPRETER_TEST_UTIL_H_
