// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Tests of the native `hal` module: compiled programs (programs/hal_programs.mlir, built by the
// pinned iree-compile for llvm-cpu) run through vm::Context on local-sync and local-task, plus
// direct calls of exports whose edge cases programs do not reach.
#include "modules/hal/hal_module.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "base/mapped_file.h"
#include "drivers/cpu/registration.h"
#include "hal/buffer_view.h"
#include "hal/device.h"
#include "hal/device_uri.h"
#include "hal/driver_registry.h"
#include "hal/fence.h"
#include "modules/hal/ref_types.h"
#include "status_matchers.h"
#include "unit/modules/test_device.h"
#include "tooling/function_io.h"
#include "vm/buffer.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/context.h"
#include "vm/instance.h"
#include "vm/stack.h"

namespace iree_rt::modules::hal {
namespace {

namespace rt = ::iree_rt::hal;
using base::Ref;
using base::Status;
using base::StatusCode;
using base::StatusOr;
using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

using iree_rt::testing::CreateCpuDevice;

std::string ProgramPath(const char* name) {
#ifdef RT_TEST_MODULES_PROGRAMS_DIR
  return std::string(RT_TEST_MODULES_PROGRAMS_DIR) + "/" + name + ".vmfb";
#else
  return std::string();
#endif
}

// A context of [hal, program] on one device.
class ProgramRunner {
 public:
  Status Open(std::string_view device_uri, const char* program) {
    instance_ = vm::Instance::Create();
    RT_RETURN_IF_ERROR(RegisterRefTypes(*instance_));
    RT_ASSIGN_OR_RETURN(device_, CreateCpuDevice(device_uri));
    RT_ASSIGN_OR_RETURN(Ref<vm::Module> hal_module, CreateHalModule({device_}));
    RT_ASSIGN_OR_RETURN(Ref<base::MappedFile> file, base::MappedFile::Open(ProgramPath(program)));
    std::span<const uint8_t> bytes = file->span();
    RT_ASSIGN_OR_RETURN(Ref<vm::Module> module,
                        vm::bytecode::BytecodeModule::Load(*instance_, bytes, std::move(file)));
    RT_ASSIGN_OR_RETURN(context_, vm::Context::Create(instance_, std::vector<Ref<vm::Module>>{hal_module, module}));
    return Status::Ok();
  }

  // Runs |function| on iree-run-module-style inputs; returns each result's text.
  StatusOr<std::vector<std::string>> Run(std::string_view function,
                                         std::vector<std::string> inputs) {
    RT_ASSIGN_OR_RETURN(vm::Context::Function f, context_->LookupFunction(function));
    RT_ASSIGN_OR_RETURN(std::vector<vm::Value> args,
                        tooling::ParseInputs(inputs, f.info->cconv, &device_->allocator()));
    return RunValues(function, std::move(args));
  }

  StatusOr<std::vector<std::string>> RunValues(std::string_view function,
                                               std::vector<vm::Value> args) {
    RT_ASSIGN_OR_RETURN(vm::Context::Function f, context_->LookupFunction(function));
    std::vector<vm::Value> results;
    RT_RETURN_IF_ERROR(context_->Invoke(f, args, &results));
    results_ = results;
    std::vector<std::string> texts;
    for (const vm::Value& value : results) {
      RT_ASSIGN_OR_RETURN(std::string text, tooling::FormatValue(value, 1024));
      texts.push_back(std::move(text));
    }
    return texts;
  }

  rt::Device& device() { return *device_; }
  const std::vector<vm::Value>& last_results() const { return results_; }

 private:
  Ref<vm::Instance> instance_;
  Ref<rt::Device> device_;
  Ref<vm::Context> context_;
  std::vector<vm::Value> results_;
};

// Result text as FormatValue prints a buffer view: the type line, then the contents.
std::string View(const std::string& contents) { return "hal.buffer_view\n" + contents; }

class HalProgramTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (ProgramPath("hal_programs").empty()) GTEST_SKIP() << "iree-compile was not available";
    ASSERT_TRUE(IsOk(runner_.Open(GetParam(), "hal_programs")));
  }
  ProgramRunner runner_;
};

TEST_P(HalProgramTest, Add) {
  auto results = runner_.Run("add", {"4xf32=1 2 3 4", "4xf32=2 2 2 2"});
  ASSERT_TRUE(IsOk(results.status()));
  EXPECT_EQ(*results, std::vector<std::string>{View("4xf32=3 4 5 6")});
}

TEST_P(HalProgramTest, AddRepeatedlyReusesTheMemoizedCommandBuffer) {
  for (int i = 0; i < 50; ++i) {
    auto results = runner_.Run("add", {"4xf32=1 2 3 4", "4xf32=" + std::to_string(i) + " 0 0 0"});
    ASSERT_TRUE(IsOk(results.status()));
    EXPECT_EQ(*results, std::vector<std::string>{View("4xf32=" + std::to_string(i + 1) + " 2 3 4")});
  }
}

TEST_P(HalProgramTest, DynamicShapes) {
  auto results = runner_.Run("scale_dynamic", {"2x3xf32=[1 2 3][4 5 6]", "0.5"});
  ASSERT_TRUE(IsOk(results.status()));
  EXPECT_EQ(*results, std::vector<std::string>{View("2x3xf32=[0.5 1 1.5][2 2.5 3]")});
  results = runner_.Run("scale_dynamic", {"1x1xf32=8", "-2"});
  ASSERT_TRUE(IsOk(results.status()));
  EXPECT_EQ(*results, std::vector<std::string>{View("1x1xf32=[-16]")});
}

TEST_P(HalProgramTest, MatmulAndSplat) {
  auto results = runner_.Run("matmul_and_splat", {"2x3xi32=[1 2 3][4 5 6]", "3x2xi32=[1 0][0 1][1 1]"});
  ASSERT_TRUE(IsOk(results.status()));
  EXPECT_EQ(*results, (std::vector<std::string>{View("2x2xi32=[4 5][10 11]"),
                                                View("8xi32=7 7 7 7 7 7 7 7")}));
}

TEST_P(HalProgramTest, GlobalStateAccumulatesAcrossCalls) {
  for (int i = 1; i <= 3; ++i) {
    auto results = runner_.Run("accumulate", {"4xf32=1 10 100 -1"});
    ASSERT_TRUE(IsOk(results.status()));
    EXPECT_EQ(*results, std::vector<std::string>{View(
                            "4xf32=" + std::to_string(i) + " " + std::to_string(10 * i) + " " +
                            std::to_string(100 * i) + " " + std::to_string(-i))});
  }
}

TEST_P(HalProgramTest, Identity) {
  auto results = runner_.Run("identity", {"3xi8=-1 0 127"});
  ASSERT_TRUE(IsOk(results.status()));
  EXPECT_EQ(*results, std::vector<std::string>{View("3xi8=-1 0 127")});
}

TEST_P(HalProgramTest, WrongShapeIsRejectedNamingTheInput) {
  auto results = runner_.Run("add", {"3xf32=1 2 3", "4xf32=2 2 2 2"});
  EXPECT_TRUE(IsError(results.status(), StatusCode::kInvalidArgument, "input0"));
  EXPECT_NE(std::string(results.status().message()).find("shape mismatch"), std::string::npos);
  EXPECT_NE(std::string(results.status().message()).find("expected 4xf32 but got 3xf32"), std::string::npos);
}

TEST_P(HalProgramTest, WrongElementTypeIsRejected) {
  auto results = runner_.Run("add", {"4xf32=1 2 3 4", "4xi32=2 2 2 2"});
  EXPECT_TRUE(IsError(results.status(), StatusCode::kInvalidArgument, "input1"));
  EXPECT_NE(std::string(results.status().message()).find("element type mismatch"), std::string::npos);
}

TEST_P(HalProgramTest, WrongRankIsRejected) {
  auto results = runner_.Run("scale_dynamic", {"6xf32=1 2 3 4 5 6", "1"});
  EXPECT_TRUE(IsError(results.status(), StatusCode::kInvalidArgument, "input0: rank mismatch"));
}

TEST_P(HalProgramTest, NullInputIsRejected) {
  auto results = runner_.Run("add", {"(null)", "4xf32=2 2 2 2"});
  EXPECT_TRUE(IsError(results.status(), StatusCode::kInvalidArgument, "null"));
}

INSTANTIATE_TEST_SUITE_P(Cpu, HalProgramTest, ::testing::Values("local-sync", "local-task"),
                         [](const auto& info) {
                           return std::string(info.param) == "local-sync" ? "LocalSync" : "LocalTask";
                         });

//===------------------------------------------------------------------------------------------===//
// The coarse-fences calling model (--iree-execution-model=async-external)
//===------------------------------------------------------------------------------------------===//

class HalAsyncProgramTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (ProgramPath("hal_programs_async").empty()) GTEST_SKIP() << "iree-compile was not available";
    ASSERT_TRUE(IsOk(runner_.Open(GetParam(), "hal_programs_async")));
  }

  // A fence on a new semaphore of the device, reached at 1.
  Ref<rt::Fence> NewFence() {
    StatusOr<Ref<rt::Semaphore>> semaphore = runner_.device().CreateSemaphore(0);
    EXPECT_TRUE(IsOk(semaphore.status()));
    Ref<rt::Fence> fence = rt::Fence::Create();
    EXPECT_TRUE(IsOk(fence->Insert(*semaphore, 1)));
    return fence;
  }

  StatusOr<std::vector<vm::Value>> Inputs(std::vector<std::string> specs) {
    // The cconv of the two tensor arguments; the fences are appended by the test.
    return tooling::ParseInputs(specs, "0rr_r", &runner_.device().allocator());
  }

  ProgramRunner runner_;
};

TEST_P(HalAsyncProgramTest, WaitsForTheWaitFenceAndSignalsTheSignalFence) {
  Ref<rt::Fence> wait = NewFence();
  Ref<rt::Fence> signal = NewFence();
  auto args = Inputs({"4xf32=1 2 3 4", "4xf32=10 20 30 40"});
  ASSERT_TRUE(IsOk(args.status()));
  args->push_back(vm::Value::FromRef(vm::Ref::Make(wait)));
  args->push_back(vm::Value::FromRef(vm::Ref::Make(signal)));
  // The call returns at once: nothing may run before |wait| is reached.
  auto call = runner_.RunValues("add", std::move(args).value());
  ASSERT_TRUE(IsOk(call.status()));
  EXPECT_TRUE(IsError(signal->Query(), StatusCode::kDeferred));
  ASSERT_TRUE(IsOk(wait->Signal()));
  ASSERT_TRUE(IsOk(signal->Wait(rt::WaitMode::kAll, rt::kInfiniteTimeout)));
  ASSERT_EQ(runner_.last_results().size(), 1u);
  auto text = tooling::FormatValue(runner_.last_results()[0], 1024);
  ASSERT_TRUE(IsOk(text.status()));
  EXPECT_EQ(*text, View("4xf32=11 22 33 44"));
}

TEST_P(HalAsyncProgramTest, FailedWaitFenceFailsTheSignalFence) {
  Ref<rt::Fence> wait = NewFence();
  Ref<rt::Fence> signal = NewFence();
  auto args = Inputs({"4xf32=1 2 3 4", "4xf32=1 1 1 1"});
  ASSERT_TRUE(IsOk(args.status()));
  args->push_back(vm::Value::FromRef(vm::Ref::Make(wait)));
  args->push_back(vm::Value::FromRef(vm::Ref::Make(signal)));
  ASSERT_TRUE(IsOk(runner_.RunValues("add", std::move(args).value()).status()));
  wait->Fail(base::MakeStatus(StatusCode::kAborted, "upstream work failed"));
  EXPECT_TRUE(IsError(signal->Wait(rt::WaitMode::kAll, rt::kInfiniteTimeout), StatusCode::kAborted, "upstream work failed"));
}

INSTANTIATE_TEST_SUITE_P(Cpu, HalAsyncProgramTest, ::testing::Values("local-sync", "local-task"),
                         [](const auto& info) {
                           return std::string(info.param) == "local-sync" ? "LocalSync" : "LocalTask";
                         });

TEST(HalModuleTest, ProgramForAnotherArchitectureFindsNoDevice) {
  if (ProgramPath("hal_programs_arm64").empty()) GTEST_SKIP() << "iree-compile was not available";
  ProgramRunner runner;
  Status status = runner.Open("local-sync", "hal_programs_arm64");
  // The program's own device selection fails, naming the target it looked for.
  EXPECT_TRUE(IsError(status, StatusCode::kIncompatible, "not found or unavailable"));
  EXPECT_NE(status.message().find("embedded-elf-arm_64"), std::string_view::npos);
}

//===------------------------------------------------------------------------------------------===//
// Direct calls of exports
//===------------------------------------------------------------------------------------------===//

class HalExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    instance_ = vm::Instance::Create();
    ASSERT_TRUE(IsOk(RegisterRefTypes(*instance_)));
    auto device = CreateCpuDevice("local-sync");
    ASSERT_TRUE(IsOk(device.status()));
    device_ = *device;
    auto module = CreateHalModule({device_});
    ASSERT_TRUE(IsOk(module.status()));
    module_ = *module;
    auto state = module_->CreateState(*instance_);
    ASSERT_TRUE(IsOk(state.status()));
    state_ = std::move(state).value();
  }

  StatusOr<std::vector<vm::Value>> Call(std::string_view name, std::vector<vm::Value> args,
                                        size_t result_count) {
    RT_ASSIGN_OR_RETURN(uint32_t ordinal, module_->FindExport(name));
    std::vector<vm::Value> results(result_count);
    vm::Stack stack;
    RT_RETURN_IF_ERROR(module_->Call(stack, *state_, ordinal, args, results));
    return results;
  }

  static vm::Value I32(int32_t v) { return vm::Value::I32(v); }
  static vm::Value I64(int64_t v) { return vm::Value::I64(v); }
  template <typename T>
  static vm::Value R(Ref<T> object) { return vm::Value::FromRef(vm::Ref::Make(std::move(object))); }
  static vm::Value Null() { return vm::Value::FromRef(vm::Ref()); }
  static vm::Value String(std::string_view text) {
    auto buffer = vm::Buffer::Allocate(text.size(), 0);
    EXPECT_TRUE(IsOk(buffer.status()));
    auto bytes = (*buffer)->WriteRange(0, text.size());
    EXPECT_TRUE(IsOk(bytes.status()));
    if (!text.empty()) std::memcpy(bytes->data(), text.data(), text.size());
    return R(*buffer);
  }

  Ref<rt::Buffer> Allocate(uint64_t size) {
    rt::BufferParams params;
    params.type = rt::MemoryType::kHostLocal | rt::MemoryType::kDeviceVisible;
    params.usage = rt::BufferUsage::kDefault | rt::BufferUsage::kMapping;
    auto buffer = device_->allocator().AllocateBuffer(params, size);
    EXPECT_TRUE(IsOk(buffer.status()));
    return *buffer;
  }

  Ref<vm::Instance> instance_;
  Ref<rt::Device> device_;
  Ref<vm::Module> module_;
  std::unique_ptr<vm::ModuleState> state_;
};

TEST_F(HalExportTest, ExportsAreSortedAndVersioned) {
  EXPECT_EQ(module_->name(), "hal");
  EXPECT_EQ(module_->version(), 7u);
  auto exports = module_->exports();
  EXPECT_EQ(exports.size(), 58u);
  for (size_t i = 1; i < exports.size(); ++i) EXPECT_LT(exports[i - 1].name, exports[i].name);
}

TEST_F(HalExportTest, CreateRejectsNoDevices) {
  EXPECT_TRUE(IsError(CreateHalModule({}).status(), StatusCode::kInvalidArgument, "at least one"));
  EXPECT_TRUE(IsError(CreateHalModule({nullptr}).status(), StatusCode::kInvalidArgument, "null"));
}

TEST_F(HalExportTest, DeviceQueries) {
  auto results = Call("device.query.i64", {R(device_), String("hal.device.id"), String("local*")}, 2);
  ASSERT_TRUE(IsOk(results.status()));
  EXPECT_EQ((*results)[0].i32(), 1);
  EXPECT_EQ((*results)[1].i64(), 1);
  results = Call("device.query.i64", {R(device_), String("hal.device.id"), String("cuda")}, 2);
  ASSERT_TRUE(IsOk(results.status()));
  EXPECT_EQ((*results)[0].i32(), 1);
  EXPECT_EQ((*results)[1].i64(), 0);
  // Unknown keys answer "no value" without trapping.
  results = Call("device.query.i64", {R(device_), String("no.such"), String("key")}, 2);
  ASSERT_TRUE(IsOk(results.status()));
  EXPECT_EQ((*results)[0].i32(), 0);
  EXPECT_EQ((*results)[1].i64(), 0);
  EXPECT_TRUE(IsError(Call("device.query.i64", {Null(), String("a"), String("b")}, 2).status(), StatusCode::kInvalidArgument, "device is null"));
}

#if defined(__x86_64__)
// CPU feature queries agree with the kernel's view of the CPU (/proc/cpuinfo flags).
TEST_F(HalExportTest, CpuFeatureQueriesMatchTheKernel) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  std::string flags;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) == 0) {
      flags = " " + line.substr(line.find(':') + 1) + " ";
      break;
    }
  }
  if (flags.empty()) GTEST_SKIP() << "/proc/cpuinfo has no flags line";
  // LLVM name -> kernel flag name.
  const std::pair<const char*, const char*> kFeatures[] = {
      {"ssse3", "ssse3"}, {"sse4.2", "sse4_2"}, {"avx", "avx"}, {"avx2", "avx2"},
      {"fma", "fma"}, {"avx512f", "avx512f"}, {"avx512bw", "avx512bw"}};
  for (const auto& [llvm_name, kernel_name] : kFeatures) {
    auto results = Call("device.query.i64", {R(device_), String("hal.cpu"), String(llvm_name)}, 2);
    ASSERT_TRUE(IsOk(results));
    EXPECT_EQ((*results)[0].i32(), 1) << llvm_name;
    const bool kernel_has = flags.find(std::string(" ") + kernel_name + " ") != std::string::npos;
    EXPECT_EQ((*results)[1].i64(), kernel_has ? 1 : 0) << llvm_name;
  }
  // An AArch64 feature is not a feature of this architecture: no value.
  auto results = Call("device.query.i64", {R(device_), String("hal.cpu"), String("sve")}, 2);
  ASSERT_TRUE(IsOk(results));
  EXPECT_EQ((*results)[0].i32(), 0);
}
#endif

TEST_F(HalExportTest, DevicesEnumeration) {
  auto count = Call("devices.count", {}, 1);
  ASSERT_TRUE(IsOk(count.status()));
  EXPECT_EQ((*count)[0].i32(), 1);
  auto device = Call("devices.get", {I32(0)}, 1);
  ASSERT_TRUE(IsOk(device.status()));
  EXPECT_EQ((*device)[0].ref().Get<rt::Device>(), device_.get());
  for (int32_t index : {1, -1, 1000}) {
    device = Call("devices.get", {I32(index)}, 1);
    ASSERT_TRUE(IsOk(device.status()));
    EXPECT_TRUE((*device)[0].ref().is_null()) << index;
  }
}

TEST_F(HalExportTest, BufferLoadStoreAndSubspan) {
  Ref<rt::Buffer> buffer = Allocate(16);
  ASSERT_TRUE(IsOk(Call("buffer.store", {I32(0x11223344), R(buffer), I64(4), I32(4)}, 0).status()));
  ASSERT_TRUE(IsOk(Call("buffer.store", {I32(-1), R(buffer), I64(9), I32(1)}, 0).status()));
  auto load = Call("buffer.load", {R(buffer), I64(4), I32(2)}, 1);
  ASSERT_TRUE(IsOk(load.status()));
  EXPECT_EQ((*load)[0].i32(), 0x3344);
  load = Call("buffer.load", {R(buffer), I64(9), I32(1)}, 1);
  ASSERT_TRUE(IsOk(load.status()));
  EXPECT_EQ((*load)[0].i32(), 0xFF);
  EXPECT_TRUE(IsError(Call("buffer.load", {R(buffer), I64(0), I32(8)}, 1).status(), StatusCode::kInvalidArgument, "1 to 4"));
  EXPECT_TRUE(IsError(Call("buffer.store", {I32(0), R(buffer), I64(14), I32(4)}, 0).status(), StatusCode::kOutOfRange));

  auto subspan = Call("buffer.subspan", {R(buffer), I64(4), I64(8)}, 1);
  ASSERT_TRUE(IsOk(subspan.status()));
  auto length = Call("buffer.length", {(*subspan)[0]}, 1);
  ASSERT_TRUE(IsOk(length.status()));
  EXPECT_EQ((*length)[0].i64(), 8);
  load = Call("buffer.load", {(*subspan)[0], I64(0), I32(4)}, 1);
  ASSERT_TRUE(IsOk(load.status()));
  EXPECT_EQ((*load)[0].i32(), 0x11223344);
  EXPECT_TRUE(IsError(Call("buffer.subspan", {R(buffer), I64(12), I64(8)}, 1).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Call("buffer.subspan", {R(buffer), I64(-4), I64(8)}, 1).status(), StatusCode::kOutOfRange, "negative"));
}

TEST_F(HalExportTest, AllocationPreserveCountIsSharedBySubspans) {
  Ref<rt::Buffer> buffer = Allocate(16);
  auto subspan = Call("buffer.subspan", {R(buffer), I64(0), I64(8)}, 1);
  ASSERT_TRUE(IsOk(subspan.status()));
  auto terminal = Call("buffer.allocation.is_terminal", {(*subspan)[0]}, 1);
  ASSERT_TRUE(IsOk(terminal.status()));
  EXPECT_EQ((*terminal)[0].i32(), 1);
  ASSERT_TRUE(IsOk(Call("buffer.allocation.preserve", {R(buffer)}, 0).status()));
  terminal = Call("buffer.allocation.is_terminal", {(*subspan)[0]}, 1);
  EXPECT_EQ((*terminal)[0].i32(), 0);
  auto discard = Call("buffer.allocation.discard", {(*subspan)[0]}, 1);
  ASSERT_TRUE(IsOk(discard.status()));
  EXPECT_EQ((*discard)[0].i32(), 0);  // 2 -> 1
  discard = Call("buffer.allocation.discard", {R(buffer)}, 1);
  EXPECT_EQ((*discard)[0].i32(), 1);  // 1 -> 0: the last owner
  discard = Call("buffer.allocation.discard", {R(buffer)}, 1);
  EXPECT_EQ((*discard)[0].i32(), 0);  // stays at 0
}

TEST_F(HalExportTest, BufferAssert) {
  Ref<rt::Buffer> buffer = Allocate(16);
  auto allocator = vm::Value::FromRef(vm::Ref::Retain(&device_->allocator(), &kAllocatorType));
  const int32_t usage = static_cast<int32_t>(rt::BufferUsage::kDefault);
  const int32_t visible = static_cast<int32_t>(rt::MemoryType::kDeviceVisible);
  EXPECT_TRUE(IsOk(Call("buffer.assert", {R(buffer), String("arg"), allocator, I64(16), I32(visible), I32(usage)}, 0)
                  .status()));
  EXPECT_TRUE(IsError(Call("buffer.assert", {R(buffer), String("arg"), allocator, I64(17), I32(visible), I32(usage)}, 0)
                  .status(), StatusCode::kInvalidArgument, "arg: buffer has 16 bytes but at least 17"));
  EXPECT_TRUE(IsError(Call("buffer.assert", {R(buffer), String("arg"), allocator, I64(0),
                                     I32(static_cast<int32_t>(rt::MemoryType::kDeviceLocal)), I32(usage)},
                   0)
                  .status(), StatusCode::kPermissionDenied, "memory type"));
  EXPECT_TRUE(IsError(Call("buffer.assert", {R(buffer), String("arg"), allocator, I64(0), I32(visible),
                                     I32(static_cast<int32_t>(rt::BufferUsage::kSharingImmutable))},
                   0)
                  .status(), StatusCode::kPermissionDenied, "usage"));
}

TEST_F(HalExportTest, BufferViewCreateAndQueries) {
  Ref<rt::Buffer> buffer = Allocate(64);
  const int32_t f32 = static_cast<int32_t>(rt::ElementTypes::kFloat32);
  // A 2x3 f32 view of bytes [8, 32).
  auto view = Call("buffer_view.create", {R(buffer), I64(8), I64(24), I32(f32), I32(1), I32(2), I64(2), I64(3)}, 1);
  ASSERT_TRUE(IsOk(view.status()));
  auto* object = (*view)[0].ref().Get<rt::BufferView>();
  ASSERT_NE(object, nullptr);
  EXPECT_EQ(object->buffer()->byte_offset(), 8u);
  EXPECT_EQ(object->buffer()->byte_length(), 24u);
  auto rank = Call("buffer_view.rank", {(*view)[0]}, 1);
  EXPECT_EQ((*rank)[0].i32(), 2);
  auto dim = Call("buffer_view.dim", {(*view)[0], I32(1)}, 1);
  EXPECT_EQ((*dim)[0].i64(), 3);
  // Outside the rank reads as 0, so the program's own rank check reports the mismatch.
  for (int32_t index : {2, -1, 100}) {
    dim = Call("buffer_view.dim", {(*view)[0], I32(index)}, 1);
    ASSERT_TRUE(IsOk(dim));
    EXPECT_EQ((*dim)[0].i64(), 0) << index;
  }
  auto type = Call("buffer_view.element_type", {(*view)[0]}, 1);
  EXPECT_EQ((*type)[0].i32(), f32);
  auto encoding = Call("buffer_view.encoding_type", {(*view)[0]}, 1);
  EXPECT_EQ((*encoding)[0].i32(), 1);
  // The shape must fit the range.
  EXPECT_FALSE(Call("buffer_view.create", {R(buffer), I64(8), I64(24), I32(f32), I32(1), I32(2), I64(4), I64(3)}, 1)
                   .ok());
  // Signedness of integers is not checked; widths are.
  const int32_t si32 = static_cast<int32_t>(rt::ElementTypes::kSint32);
  const int32_t i32 = static_cast<int32_t>(rt::ElementTypes::kInt32);
  auto int_view = Call("buffer_view.create", {R(buffer), I64(0), I64(-1), I32(si32), I32(1), I32(1), I64(16)}, 1);
  ASSERT_TRUE(IsOk(int_view.status()));
  EXPECT_TRUE(IsOk(Call("buffer_view.assert", {(*int_view)[0], String("x"), I32(i32), I32(1), I32(1), I64(16)}, 0).status()));
  EXPECT_TRUE(IsError(Call("buffer_view.assert", {(*int_view)[0], String("x"), I32(f32), I32(1), I32(1), I64(16)}, 0).status(), StatusCode::kInvalidArgument, "x: element type mismatch"));
}

TEST_F(HalExportTest, AllocatorImportOfReadOnlyMemory) {
  auto allocator = vm::Value::FromRef(vm::Ref::Retain(&device_->allocator(), &kAllocatorType));
  alignas(64) static const uint8_t kData[72] = {1, 2, 3, 4, 5, 6, 7, 8};
  vm::Value source = R(vm::Buffer::WrapReadOnly(kData, nullptr));
  const int32_t type = static_cast<int32_t>(rt::MemoryType::kHostLocal | rt::MemoryType::kDeviceVisible);
  const int32_t usage = static_cast<int32_t>(rt::BufferUsage::kDefault | rt::BufferUsage::kMapping);
  const int32_t immutable = usage | static_cast<int32_t>(rt::BufferUsage::kSharingImmutable);
  // Read-only memory needs the immutable usage bit.
  EXPECT_TRUE(IsError(Call("allocator.import", {allocator, I32(0), I64(-1), I32(type), I32(usage), source, I64(0), I64(-1)}, 1)
                  .status(), StatusCode::kPermissionDenied, "SHARING_IMMUTABLE"));
  // With |try|, failure is a null result instead.
  auto tried = Call("allocator.import", {allocator, I32(1), I64(-1), I32(type), I32(usage), source, I64(0), I64(-1)}, 1);
  ASSERT_TRUE(IsOk(tried.status()));
  EXPECT_TRUE((*tried)[0].ref().is_null());
  auto imported = Call("allocator.import", {allocator, I32(0), I64(-1), I32(type), I32(immutable), source, I64(0), I64(4)}, 1);
  ASSERT_TRUE(IsOk(imported.status()));
  auto load = Call("buffer.load", {(*imported)[0], I64(0), I32(4)}, 1);
  ASSERT_TRUE(IsOk(load.status()));
  EXPECT_EQ((*load)[0].i32(), 0x04030201);
  // Dispatches assume 64-byte aligned bindings: a misaligned import is refused (with |try|, a
  // null result, so the program copies into an aligned buffer), never handed to a kernel.
  EXPECT_TRUE(IsError(Call("allocator.import", {allocator, I32(0), I64(-1), I32(type), I32(immutable), source, I64(2), I64(4)}, 1)
                  .status(), StatusCode::kInvalidArgument, "not 64-byte aligned"));
  auto misaligned = Call("allocator.import", {allocator, I32(1), I64(-1), I32(type), I32(immutable), source, I64(2), I64(4)}, 1);
  ASSERT_TRUE(IsOk(misaligned.status()));
  EXPECT_TRUE((*misaligned)[0].ref().is_null());
  auto at_64 = Call("allocator.import", {allocator, I32(0), I64(-1), I32(type), I32(immutable), source, I64(64), I64(4)}, 1);
  EXPECT_TRUE(IsOk(at_64.status()));
  EXPECT_FALSE((Call("buffer.store", {I32(0), (*imported)[0], I64(0), I32(1)}, 0).status()).ok());
  EXPECT_TRUE(IsError(Call("allocator.import", {allocator, I32(0), I64(-1), I32(type), I32(immutable), source, I64(70), I64(4)}, 1)
                  .status(), StatusCode::kInvalidArgument, "outside"));
}

TEST_F(HalExportTest, FencesSignalFailJoinAndAwait) {
  auto a = Call("fence.create", {R(device_), I64(0)}, 1);
  auto b = Call("fence.create", {R(device_), I64(0)}, 1);
  ASSERT_TRUE(IsOk(a.status()));
  ASSERT_TRUE(IsOk(b.status()));
  auto query = Call("fence.query", {(*a)[0]}, 1);
  EXPECT_EQ((*query)[0].i32(), 17);  // DEFERRED
  // A timeout is a result, not an error.
  auto awaited = Call("fence.await", {I32(1), I64(0), I32(2), (*a)[0], (*b)[0]}, 1);
  ASSERT_TRUE(IsOk(awaited.status()));
  EXPECT_EQ((*awaited)[0].i32(), 4);

  auto joined = Call("fence.join", {I64(0), I32(3), (*a)[0], Null(), (*b)[0]}, 1);
  ASSERT_TRUE(IsOk(joined.status()));
  ASSERT_FALSE((*joined)[0].ref().is_null());
  ASSERT_TRUE(IsOk(Call("fence.signal", {(*a)[0]}, 0).status()));
  query = Call("fence.query", {(*joined)[0]}, 1);
  EXPECT_EQ((*query)[0].i32(), 17);
  ASSERT_TRUE(IsOk(Call("fence.signal", {(*b)[0]}, 0).status()));
  awaited = Call("fence.await", {I32(-1), I64(0), I32(1), (*joined)[0]}, 1);
  ASSERT_TRUE(IsOk(awaited.status()));
  EXPECT_EQ((*awaited)[0].i32(), 0);

  // Nothing to join is null (already reached).
  auto empty = Call("fence.join", {I64(0), I32(2), Null(), Null()}, 1);
  ASSERT_TRUE(IsOk(empty.status()));
  EXPECT_TRUE((*empty)[0].ref().is_null());

  // A failed fence makes await an error carrying the code.
  auto c = Call("fence.create", {R(device_), I64(0)}, 1);
  ASSERT_TRUE(IsOk(Call("fence.fail", {(*c)[0], I32(10)}, 0).status()));
  query = Call("fence.query", {(*c)[0]}, 1);
  EXPECT_EQ((*query)[0].i32(), 10);
  EXPECT_TRUE(IsError(Call("fence.await", {I32(-1), I64(0), I32(1), (*c)[0]}, 1).status(), StatusCode::kAborted));
}

TEST_F(HalExportTest, ExecutableCreateRejectsBadData) {
  EXPECT_FALSE((Call("executable.create", {R(device_), I64(-1), String("embedded-elf-x86_64"),
                                         String("not an elf"), Null()},
                   1)
                  .status()).ok());
  EXPECT_TRUE(IsError(Call("executable.create", {R(device_), I64(-1), String("cuda-nvptx-fb"), String("x"), Null()}, 1)
                  .status(), StatusCode::kIncompatible, "cuda-nvptx-fb"));
  EXPECT_TRUE(IsError(Call("executable.create", {R(device_), I64(-1), String("embedded-elf-x86_64"), String("x"),
                                         String("abc")},
                   1)
                  .status(), StatusCode::kInvalidArgument, "32-bit words"));
}

// hal.channel.*: a default channel needs a rank and count from somewhere; with them (device
// parameters, here a channel of one rank) it answers rank_and_count, and a collective's packed op
// is checked field by field.
TEST_F(HalExportTest, ChannelExports) {
  EXPECT_TRUE(IsError(Call("channel.create", {R(device_), I64(-1), I64(0), Null(), Null(), I32(-1), I32(-1)}, 1).status(),
                      StatusCode::kFailedPrecondition, "rank= and ranks="));
  EXPECT_TRUE(IsError(Call("channel.create", {R(device_), I64(-1), I64(0), Null(), Null(), I32(2), I32(2)}, 1).status(),
                      StatusCode::kInvalidArgument, "rank 2 is not within 2"));
  auto channel = Call("channel.create", {R(device_), I64(-1), I64(0), Null(), Null(), I32(0), I32(1)}, 1);
  ASSERT_TRUE(IsOk(channel.status()));
  auto rank_count = Call("channel.rank_and_count", {(*channel)[0]}, 2);
  ASSERT_TRUE(IsOk(rank_count.status()));
  EXPECT_EQ((*rank_count)[0].i32(), 0);
  EXPECT_EQ((*rank_count)[1].i32(), 1);
  auto cb = Call("command_buffer.create", {R(device_), I32(1), I32(3), I64(-1), I32(0)}, 1);
  ASSERT_TRUE(IsOk(cb.status()));
  Ref<rt::Buffer> buffer = Allocate(16);
  auto collective = [&](int32_t op, int64_t count) {
    return Call("command_buffer.collective", {(*cb)[0], (*channel)[0], I32(op), I32(0), I32(0), I32(0), R(buffer),
                                              R(buffer), I64(0), I64(16), I64(0), I64(16), I64(count)},
                0)
        .status();
  };
  EXPECT_TRUE(IsError(collective(0x0009000B, 4), StatusCode::kInvalidArgument, "unknown kind 11"));
  EXPECT_TRUE(IsError(collective(0x00090001, 4), StatusCode::kInvalidArgument, "a reduction needs an operator"));
  EXPECT_TRUE(IsError(collective(0x00090100, 4), StatusCode::kInvalidArgument, "only reductions take an operator"));
  EXPECT_TRUE(IsError(collective(0x000C0101, 4), StatusCode::kInvalidArgument, "unknown element type 12"));
  EXPECT_TRUE(IsError(collective(0x01090101, 4), StatusCode::kInvalidArgument, "reserved byte"));
  EXPECT_TRUE(IsError(collective(0x00090101, 8), StatusCode::kInvalidArgument, "needs 32 send bytes; the range has 16"));
  EXPECT_TRUE(IsOk(collective(0x00090101, 4)));  // all_reduce sum f32 of 4
}

TEST_F(HalExportTest, CommandBufferMisuse) {
  EXPECT_TRUE(IsError(Call("command_buffer.create", {R(device_), I32(0x10), I32(3), I64(-1), I32(0)}, 1).status(), StatusCode::kInvalidArgument, "ONE_SHOT"));
  auto cb = Call("command_buffer.create", {R(device_), I32(1), I32(1), I64(-1), I32(0)}, 1);
  ASSERT_TRUE(IsOk(cb.status()));
  Ref<rt::Buffer> buffer = Allocate(16);
  EXPECT_TRUE(IsError(Call("command_buffer.fill_buffer", {(*cb)[0], R(buffer), I64(0), I64(16), I32(0), I64(0), I32(3), I64(0)}, 0)
                  .status(), StatusCode::kInvalidArgument, "pattern length 3"));
  EXPECT_TRUE(IsError(Call("command_buffer.fill_buffer", {(*cb)[0], R(buffer), I64(8), I64(16), I32(0), I64(0), I32(4), I64(0)}, 0)
                  .status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Call("command_buffer.collective", {(*cb)[0], Null(), I32(0), I32(0), I32(0), I32(0), Null(), Null(),
                                                 I64(0), I64(0), I64(0), I64(0), I64(0)},
                   0)
                  .status(), StatusCode::kInvalidArgument, "channel is null"));
  // A fill and a finalize record fine; a second finalize does not.
  ASSERT_TRUE(IsOk(Call("command_buffer.fill_buffer", {(*cb)[0], R(buffer), I64(0), I64(16), I32(0), I64(0x01020304), I32(4), I64(0)}, 0)
                  .status()));
  ASSERT_TRUE(IsOk(Call("command_buffer.finalize", {(*cb)[0]}, 0).status()));
  EXPECT_FALSE(Call("command_buffer.finalize", {(*cb)[0]}, 0).ok());
  auto fence = Call("fence.create", {R(device_), I64(0)}, 1);
  ASSERT_TRUE(IsOk(Call("device.queue.execute", {R(device_), I64(-1), Null(), (*fence)[0], (*cb)[0], I64(0)}, 0).status()));
  auto awaited = Call("fence.await", {I32(-1), I64(0), I32(1), (*fence)[0]}, 1);
  ASSERT_TRUE(IsOk(awaited.status()));
  auto load = Call("buffer.load", {R(buffer), I64(12), I32(4)}, 1);
  EXPECT_EQ((*load)[0].i32(), 0x01020304);
}

TEST_F(HalExportTest, QueueUpdateCapturesSourceAtCallTime) {
  Ref<rt::Buffer> buffer = Allocate(8);
  auto wait = Call("fence.create", {R(device_), I64(0)}, 1);
  auto signal = Call("fence.create", {R(device_), I64(0)}, 1);
  vm::Value source = String("abcdefgh");
  ASSERT_TRUE(IsOk(Call("device.queue.update", {R(device_), I64(-1), (*wait)[0], (*signal)[0], source, I64(0), R(buffer),
                                           I64(0), I64(8), I64(0)},
                   0)
                  .status()));
  // Overwrite the source before the queue may run; the update must see the old bytes.
  auto bytes = source.ref().Get<vm::Buffer>()->WriteRange(0, 8);
  ASSERT_TRUE(IsOk(bytes.status()));
  std::memcpy(bytes->data(), "XXXXXXXX", 8);
  ASSERT_TRUE(IsOk(Call("fence.signal", {(*wait)[0]}, 0).status()));
  ASSERT_TRUE(IsOk(Call("fence.await", {I32(-1), I64(0), I32(1), (*signal)[0]}, 1).status()));
  char out[8];
  ASSERT_TRUE(IsOk(buffer->Read(0, out, 8)));
  EXPECT_EQ(std::string(out, 8), "abcdefgh");
  EXPECT_TRUE(IsError(Call("device.queue.alloca", {R(device_), I64(-1), Null(), Null(), I64(3), I32(0x30), I32(0xC03),
                                           I64(16), I64(0)},
                   1)
                  .status(), StatusCode::kUnimplemented, "pool 3"));
}

TEST_F(HalExportTest, WrongRefTypeIsNamed) {
  EXPECT_TRUE(IsError(Call("buffer.length", {String("not a buffer")}, 1).status(), StatusCode::kInvalidArgument, "expected a hal.buffer, got a vm.buffer"));
}

}  // namespace
}  // namespace iree_rt::modules::hal
