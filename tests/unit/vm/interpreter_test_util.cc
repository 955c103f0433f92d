// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "interpreter_test_util.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "vm/buffer.h"
#include "vm/bytecode/module_image.h"

namespace iree_rt::vm::bytecode::testing {

using base::Status;
using base::StatusOr;

std::vector<uint8_t> ReadProgram(std::string_view name) {
  // The environment may point elsewhere (binaries copied to another machine for benchmarks).
  const char* dir = std::getenv("RT_TEST_VM_PROGRAMS_DIR");
  const std::string path = std::string(dir ? dir : RT_TEST_VM_PROGRAMS_DIR) + "/rt_vm_prog_" +
                           std::string(name) + ".vmfb";
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file.good()) << "cannot open " << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

int PatchCallsToSelf(std::vector<uint8_t>& bytes, std::string_view function, std::string_view stub) {
  auto image = ModuleImage::Parse(bytes, kFeatureAll);
  if (!image.ok()) {
    ADD_FAILURE() << image.status().ToString();
    return 0;
  }
  uint32_t self = UINT32_MAX, target = UINT32_MAX;
  for (const auto& exported : (*image)->exports()) {
    if (exported.name == function) self = exported.internal_ordinal;
    if (exported.name == stub) target = exported.internal_ordinal;
  }
  if (self == UINT32_MAX || target == UINT32_MAX) {
    ADD_FAILURE() << "exports " << function << "/" << stub << " not found";
    return 0;
  }
  std::span<const uint8_t> code = (*image)->functions()[self].bytecode;
  const size_t begin = static_cast<size_t>(code.data() - bytes.data());
  int patched = 0;
  for (size_t i = begin; i + 5 <= begin + code.size(); ++i) {
    uint32_t ordinal;
    std::memcpy(&ordinal, &bytes[i + 1], 4);
    if (bytes[i] == 0x58 /* call */ && ordinal == target) {
      std::memcpy(&bytes[i + 1], &self, 4);
      ++patched;
    }
  }
  return patched;
}

StatusOr<base::Ref<BytecodeModule>> LoadProgram(Instance& instance, std::string_view name, int* destroyed,
                                                std::function<void(std::vector<uint8_t>&)> patch) {
  auto holder = base::MakeRef<ProgramBytes>(ReadProgram(name), destroyed);
  if (patch) patch(holder->bytes());
  std::span<const uint8_t> span = holder->bytes();
  return BytecodeModule::Load(instance, span, std::move(holder));
}

namespace {

class NativeTestModule final : public NativeModule {
 public:
  static base::Ref<NativeModule> Create() {
    base::Ref<NativeTestModule> module = base::Ref<NativeTestModule>::Adopt(new NativeTestModule());
    Status status = module->Validate();
    EXPECT_TRUE(status.ok()) << status.ToString();
    return module;
  }

 private:
  NativeTestModule() : NativeModule("native", 1, Functions()) {}

  static std::vector<FunctionDef> Functions() {
    std::vector<FunctionDef> functions;
    functions.push_back({"add", "0iI_I", [](ModuleState&, std::span<const Arg> args, std::span<Value> results) {
                           results[0] = Value::I64(args[0].i32() + args[1].i64());
                           return Status();
                         }, {}});
    functions.push_back({"echo", "0r_r", [](ModuleState&, std::span<const Arg> args, std::span<Value> results) {
                           results[0] = Value::FromRef(args[0].ref().Retain());
                           return Status();
                         }, {}});
    // tag * 1000 + count * 10 + number of non-null vm.buffer refs.
    functions.push_back({"count_refs", "0iCrD_i",
                         [](ModuleState&, std::span<const Arg> args, std::span<Value> results) {
                           const int32_t count = args[1].i32();
                           int32_t buffers = 0;
                           for (int32_t i = 0; i < count; ++i) {
                             if (args[2 + i].ref().Get<Buffer>() != nullptr) ++buffers;
                           }
                           results[0] = Value::I32(args[0].i32() * 1000 + count * 10 + buffers);
                           return Status();
                         }, {}});
    functions.push_back({"sum_pairs", "0CiID_I",
                         [](ModuleState&, std::span<const Arg> args, std::span<Value> results) {
                           int64_t sum = 0;
                           for (int32_t i = 0; i < args[0].i32(); ++i) {
                             sum += args[1 + 2 * i].i32() * 1000000 + args[2 + 2 * i].i64();
                           }
                           results[0] = Value::I64(sum);
                           return Status();
                         }, {}});
    functions.push_back({"fail", "0i_v", [](ModuleState&, std::span<const Arg> args, std::span<Value>) {
                           return Status(static_cast<base::StatusCode>(args[0].i32()), "native failure");
                         }, {}});
    functions.push_back({"present", "0i_i", [](ModuleState&, std::span<const Arg> args, std::span<Value> results) {
                           results[0] = Value::I32(args[0].i32() * 3);
                           return Status();
                         }, {}});
    return functions;
  }
};

}  // namespace

base::Ref<NativeModule> CreateNativeTestModule() { return NativeTestModule::Create(); }

StatusOr<Program> Program::Create(base::Ref<Instance> instance, std::vector<base::Ref<Module>> modules) {
  Program program;
  RT_ASSIGN_OR_RETURN(program.context_, Context::Create(std::move(instance), modules));
  return program;
}

StatusOr<std::vector<Value>> Program::Call(std::string_view function, std::vector<Value> args) {
  RT_ASSIGN_OR_RETURN(Context::Function fn, context_->LookupFunction(function));
  std::vector<Value> results;
  RT_RETURN_IF_ERROR(context_->Invoke(fn, args, &results));
  return results;
}

}  // namespace iree_rt::vm::bytecode::testing
