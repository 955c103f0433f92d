// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Calls (vm_calls.mlir, vm_callee.mlir): internal calls at full width, recursion and the depth
// limit, native and bytecode imports, variadic and optional imports, yields and resumes, failure
// backtraces, and ref/module lifetimes.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "interpreter_test_util.h"
#include "vm/buffer.h"
#include "vm/stack.h"
#include "vm/bytecode/module_image.h"

namespace iree_rt::vm::bytecode::testing {
namespace {

using base::StatusCode;

Value BufferValue(const base::Ref<Buffer>& buffer) { return Value::FromRef(Ref::Make(buffer)); }
base::Ref<Buffer> NewBuffer(size_t length) { return std::move(Buffer::Allocate(length, 0)).value(); }

size_t CountOf(std::string_view text, std::string_view what) {
  size_t count = 0;
  for (size_t pos = text.find(what); pos != std::string_view::npos; pos = text.find(what, pos + 1)) ++count;
  return count;
}

void PatchRecursion(std::vector<uint8_t>& bytes) {
  EXPECT_EQ(PatchCallsToSelf(bytes, "fib", "fib_stub"), 2);
  EXPECT_EQ(PatchCallsToSelf(bytes, "recurse", "recurse_stub"), 1);
  EXPECT_EQ(PatchCallsToSelf(bytes, "hold_ref", "hold_ref_stub"), 1);
}

class CallTest : public ProgramTest {
 protected:
  void SetUp() override {
    auto callee = LoadProgram(*instance_, "vm_callee");
    ASSERT_TRUE(callee.ok()) << callee.status().ToString();
    auto calls = LoadProgram(*instance_, "vm_calls", nullptr, PatchRecursion);
    ASSERT_TRUE(calls.ok()) << calls.status().ToString();
    calls_ = *calls;
    Link({CreateNativeTestModule(), *callee, *calls});
  }
  Context::Function Lookup(std::string_view name) {
    auto function = program_->context().LookupFunction(name);
    EXPECT_TRUE(function.ok()) << function.status().ToString();
    return *function;
  }

  base::Ref<BytecodeModule> calls_;
};

TEST_F(CallTest, InternalCallCopiesFullWidth) {
  base::Ref<Buffer> e = NewBuffer(4);
  const int64_t b = 0x7EDCBA9876543210, g = -0x100000003;
  const double d = 1.0 / 7.0;
  auto r = Run("call_mix", {I32(40), I64(b), I32(2), F64(d), BufferValue(e), F32(1.5f), I64(g)});
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0].i64(), static_cast<int64_t>(static_cast<uint64_t>(b) + static_cast<uint64_t>(g)));
  EXPECT_EQ(r[1].i32(), 42);
  EXPECT_EQ(r[2].f64(), d + d);
  EXPECT_EQ(r[3].ref().Get<Buffer>(), e.get());
  EXPECT_EQ(r[4].f32(), 2.25f);
  EXPECT_EQ(r[5].i64(), b);
  r.clear();
  EXPECT_EQ(e->ref_count_for_testing(), 1);
}

TEST_F(CallTest, Recursion) {
  int64_t a = 0, b = 1;
  for (int i = 0; i < 20; ++i) std::tie(a, b) = std::pair(b, a + b);
  EXPECT_EQ(Run("fib", {I32(20)})[0].i64(), a);
  EXPECT_EQ(Run("recurse", {I32(500), I32(0)})[0].i32(), 500);
}

TEST_F(CallTest, RunawayRecursionIsResourceExhausted) {
  base::Status status = RunStatus("recurse", {I32(10000000), I32(0)});
  EXPECT_TRUE(IsError(status, StatusCode::kResourceExhausted, "stack overflow"));
  // Everything was unwound: the context keeps working.
  EXPECT_EQ(Run("recurse", {I32(3), I32(0)})[0].i32(), 3);
}

TEST_F(CallTest, StackDepthLimitCountsEveryFrame) {
  Context::Function chain = Lookup("chain");  // chain → chain1 → chain2 → chain3: 4 frames
  std::vector<Value> results(1);
  Stack small(3);
  EXPECT_TRUE(IsError(chain.module->Call(small, *chain.state, chain.export_ordinal, {{I32(1)}}, results),
                      StatusCode::kResourceExhausted));
  EXPECT_EQ(small.depth(), 0u);
  Stack enough(4);
  ASSERT_TRUE(chain.module->Call(enough, *chain.state, chain.export_ordinal, {{I32(1)}}, results).ok());
  EXPECT_EQ(results[0].i32(), 2);
  EXPECT_EQ(enough.depth(), 0u);
}

TEST_F(CallTest, FailureUnwindsWithBacktrace) {
  base::Ref<Buffer> held = NewBuffer(1);
  base::Status status = RunStatus("recurse", {I32(5), I32(9)});
  EXPECT_TRUE(IsError(status, StatusCode::kFailedPrecondition, "bottom of the recursion"));
  EXPECT_EQ(CountOf(status.message(), "] bytecode calls."), 6u) << status.ToString();
  EXPECT_TRUE(IsError(status, StatusCode::kFailedPrecondition, "[ 5] bytecode calls."));
  // Refs held by frames are released on the way out.
  EXPECT_EQ(Run("hold_ref", {I32(30), BufferValue(held)})[0].ref().Get<Buffer>(), held.get());
  EXPECT_EQ(held->ref_count_for_testing(), 1);
}

TEST_F(CallTest, NativeImports) {
  EXPECT_EQ(Run("import_add", {I32(-5), I64(0x100000000)})[0].i64(), 0x100000000 - 5);
  base::Ref<Buffer> a = NewBuffer(1), b = NewBuffer(2);
  {
    auto r = Run("import_echo", {BufferValue(a)});
    EXPECT_EQ(r[0].ref().Get<Buffer>(), a.get());
  }
  {
    const int32_t tag = 7, x = 3;
    const int64_t y = 0x123456789;
    auto r = Run("import_variadic", {I32(tag), BufferValue(a), BufferValue(b), I32(x), I64(y)});
    EXPECT_EQ(r[0].i32(), tag * 1000 + 3 * 10 + 3);
    EXPECT_EQ(r[1].i32(), tag * 1000);
    EXPECT_EQ(r[2].i64(), 2 * (x * 1000000 + y) + (tag * 1000000 + y));
  }
  EXPECT_EQ(a->ref_count_for_testing(), 1);
  EXPECT_EQ(b->ref_count_for_testing(), 1);
}

// Call sites decoded at load take up to 32 Args; a wider call goes the general way, alike.
TEST_F(CallTest, NativeImportWiderThanACallSite) {
  base::Ref<Buffer> a = NewBuffer(1), b = NewBuffer(2);
  EXPECT_EQ(Run("import_variadic_wide", {I32(4), BufferValue(a), BufferValue(b)})[0].i32(),
            4 * 1000 + 40 * 10 + 40);
  EXPECT_EQ(Run("import_variadic_wide", {I32(5), BufferValue(a), Value::FromRef(Ref())})[0].i32(),
            5 * 1000 + 40 * 10 + 20);
  EXPECT_EQ(a->ref_count_for_testing(), 1);
  EXPECT_EQ(b->ref_count_for_testing(), 1);
}

TEST_F(CallTest, NativeImportFailure) {
  base::Status status = RunStatus("import_fail", {I32(7)});
  EXPECT_TRUE(IsError(status, StatusCode::kPermissionDenied, "native failure"));
  EXPECT_TRUE(IsError(status, StatusCode::kPermissionDenied, "while calling import 'native.fail'"));
  EXPECT_TRUE(IsError(status, StatusCode::kPermissionDenied, "[ 0] bytecode calls."));
}

TEST_F(CallTest, OptionalImports) {
  auto r = Run("optional_resolved", {});
  EXPECT_EQ(r[0].i32(), 0);
  EXPECT_EQ(r[1].i32(), 1);
  EXPECT_EQ(Run("call_present", {I32(4)})[0].i32(), 12);
  size_t ordinal = 0;
  for (; ordinal < calls_->imports().size(); ++ordinal) {
    if (calls_->imports()[ordinal].full_name == "native.missing") break;
  }
  base::Status status = RunStatus("call_missing", {I32(1)});
  EXPECT_TRUE(IsError(status, StatusCode::kNotFound,
                      "optional import 'native.missing' (ordinal " + std::to_string(ordinal) + ") not resolved"));
}

TEST_F(CallTest, BytecodeImportsShareTheStack) {
  auto r = Run("import_twice", {I64(0x40000000000), I32(10)});
  EXPECT_EQ(r[0].i64(), 0x80000000000);
  EXPECT_EQ(r[1].i32(), 11);  // the callee's own global counts calls
  r = Run("import_twice", {I64(-3), I32(10)});
  EXPECT_EQ(r[0].i64(), -6);
  EXPECT_EQ(r[1].i32(), 12);

  base::Status status = RunStatus("import_fail_deep", {I32(13)});
  EXPECT_TRUE(IsError(status, StatusCode::kInternal, "callee failed"));
  EXPECT_TRUE(IsError(status, StatusCode::kInternal, "[ 0] bytecode callee."));
  EXPECT_TRUE(IsError(status, StatusCode::kInternal, "[ 1] bytecode calls."));
}

// Runs |name| on a fresh stack, resuming until done; returns how many times it yielded.
int RunYielding(const Context::Function& function, std::vector<Value> args, std::vector<Value>& results,
                base::Status* final_status) {
  Stack stack;
  int yields = 0;
  base::Status status = function.module->Call(stack, *function.state, function.export_ordinal, args, results);
  while (status.code() == StatusCode::kDeferred) {
    ++yields;
    EXPECT_NE(stack.suspended(), nullptr);
    status = stack.suspended()->Resume(stack, results);
  }
  EXPECT_EQ(stack.depth(), 0u);
  *final_status = status;
  return yields;
}

TEST_F(CallTest, YieldAndResume) {
  base::Ref<Buffer> b = NewBuffer(1);
  std::vector<Value> results(2);
  base::Status status;
  EXPECT_EQ(RunYielding(Lookup("yield_loop"), {I32(100), I32(4), BufferValue(b)}, results, &status), 4);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(results[0].i32(), 104);
  EXPECT_EQ(results[1].ref().Get<Buffer>(), b.get());
  results.clear();
  EXPECT_EQ(b->ref_count_for_testing(), 1);
  // The context's Invoke resumes by itself.
  EXPECT_EQ(Run("yield_loop", {I32(1), I32(3), BufferValue(b)})[0].i32(), 4);
}

TEST_F(CallTest, YieldsThroughCalls) {
  std::vector<Value> results(1);
  base::Status status;
  EXPECT_EQ(RunYielding(Lookup("call_yieldable"), {I64(0x100000000)}, results, &status), 2);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(results[0].i64(), 0x200000001);
  // Into another bytecode module's export: its frames yield to the host too.
  EXPECT_EQ(RunYielding(Lookup("import_yield"), {I32(10), I32(3)}, results, &status), 3);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(results[0].i32(), 1013);
  EXPECT_EQ(Run("import_yield", {I32(1), I32(0)})[0].i32(), 1001);
}

TEST_F(CallTest, AbandonedSuspendedStackReleasesItsRefs) {
  base::Ref<Buffer> b = NewBuffer(1);
  Context::Function function = Lookup("yield_loop");
  {
    Stack stack;
    std::vector<Value> results(2);
    base::Status status =
        function.module->Call(stack, *function.state, function.export_ordinal, {{I32(0), I32(5), BufferValue(b)}}, results);
    ASSERT_EQ(status.code(), StatusCode::kDeferred);
    ASSERT_EQ(stack.suspended()->Resume(stack, results).code(), StatusCode::kDeferred);
    EXPECT_GT(b->ref_count_for_testing(), 1);
  }
  EXPECT_EQ(b->ref_count_for_testing(), 1);
}

TEST_F(CallTest, ResumeWithNothingSuspended) {
  Stack stack;
  std::vector<Value> results;
  EXPECT_TRUE(IsError(calls_->Resume(stack, results), StatusCode::kFailedPrecondition));
}

TEST_F(CallTest, TraceAndPrintProduceNothingAndReleaseRefs) {
  base::Ref<Buffer> b = NewBuffer(1);
  EXPECT_EQ(Run("trace_print", {I32(5), BufferValue(b)})[0].i32(), 5);
  EXPECT_EQ(b->ref_count_for_testing(), 1);
}

TEST(BytecodeModuleTest, ExportsImportsAndDependencies) {
  base::Ref<Instance> instance = Instance::Create();
  auto module = LoadProgram(*instance, "vm_calls");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->name(), "calls");
  auto add = (*module)->FindExport("import_add");
  ASSERT_TRUE(add.ok());
  EXPECT_EQ((*module)->exports()[*add].cconv, "0iI_I");
  bool saw_optional = false;
  for (const auto& import : (*module)->imports()) {
    if (import.full_name == "native.missing") {
      saw_optional = true;
      EXPECT_TRUE(import.optional);
      EXPECT_EQ(import.module_name, "native");
      EXPECT_EQ(import.cconv, "0i_i");
    }
  }
  EXPECT_TRUE(saw_optional);
  EXPECT_EQ((*module)->dependencies().size(), 2u);
  // Without the native module the context cannot link.
  auto callee = LoadProgram(*instance, "vm_callee");
  ASSERT_TRUE(callee.ok());
  auto program = Program::Create(instance, {*callee, *module});
  EXPECT_TRUE(IsError(program.status(), StatusCode::kNotFound, "native"));
}

TEST(BytecodeModuleTest, RodataBuffersKeepTheModuleAliveWithoutCycles) {
  base::Ref<Instance> instance = Instance::Create();
  int destroyed = 0;
  base::Ref<Buffer> rodata;
  {
    auto module = LoadProgram(*instance, "vm_ops", &destroyed);
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    auto program = Program::Create(instance, {*module});
    ASSERT_TRUE(program.ok());
    auto r = program->Call("rodata_load", {I64(1)});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    rodata = (*r)[2].ref().GetRef<Buffer>();
  }
  // Context and module handles are gone; the buffer still reads the module's bytes.
  EXPECT_EQ(destroyed, 0);
  ASSERT_NE(rodata, nullptr);
  EXPECT_EQ(rodata->Load<int32_t>(2).value(), 30);
  rodata = nullptr;
  EXPECT_EQ(destroyed, 1);
}

TEST(BytecodeModuleTest, UnusedModuleFreesItsBytes) {
  base::Ref<Instance> instance = Instance::Create();
  int destroyed = 0;
  {
    auto module = LoadProgram(*instance, "vm_ops", &destroyed);
    ASSERT_TRUE(module.ok());
    auto program = Program::Create(instance, {*module});
    ASSERT_TRUE(program.ok());
    ASSERT_TRUE(program->Call("globals", {I32(1), I64(2), F32(3), F64(4)}).ok());
  }
  EXPECT_EQ(destroyed, 1);
}

TEST(BytecodeModuleTest, VerifierRejectsCorruptBytecode) {
  base::Ref<Instance> instance = Instance::Create();
  auto corrupt = [](std::vector<uint8_t>& bytes) {
    // Turn the first `call` in fib into an opcode that does not exist.
    EXPECT_EQ(PatchCallsToSelf(bytes, "fib", "fib_stub"), 2);
    auto image = ModuleImage::Parse(bytes, kFeatureAll);
    ASSERT_TRUE(image.ok());
    for (const auto& exported : (*image)->exports()) {
      if (exported.name != "fib") continue;
      auto code = (*image)->functions()[exported.internal_ordinal].bytecode;
      const size_t begin = static_cast<size_t>(code.data() - bytes.data());
      for (size_t i = begin; i < begin + code.size(); ++i) {
        if (bytes[i] == 0x58) {
          bytes[i] = 0xD0;
          return;
        }
      }
    }
    ADD_FAILURE() << "no call found";
  };
  auto module = LoadProgram(*instance, "vm_calls", nullptr, corrupt);
  EXPECT_TRUE(IsError(module.status(), StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace iree_rt::vm::bytecode::testing
