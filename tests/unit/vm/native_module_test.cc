// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/native_module.h"

#include <gtest/gtest.h>

#include <vector>

#include "object_model_test_util.h"
#include "vm/buffer.h"
#include "vm/instance.h"
#include "vm/list.h"
#include "vm/stack.h"

namespace iree_rt::vm {
namespace {

using base::Status;
using base::StatusCode;
using base::StatusOr;
using testing::IsError;

// Counts calls per context, to show handlers receive the calling context's state.
struct CounterState : ModuleState {
  int calls = 0;
};

class TestModule : public NativeModule {
 public:
  static StatusOr<base::Ref<TestModule>> Create(std::string name,
                                                std::vector<FunctionDef> functions,
                                                bool validate = true) {
    base::Ref<TestModule> module =
        base::Ref<TestModule>::Adopt(new TestModule(std::move(name), std::move(functions)));
    if (validate) RT_RETURN_IF_ERROR(module->Validate());
    return module;
  }

  StatusOr<std::unique_ptr<ModuleState>> CreateState(Instance& instance) override {
    return std::unique_ptr<ModuleState>(new CounterState());
  }

 private:
  TestModule(std::string name, std::vector<FunctionDef> functions)
      : NativeModule(std::move(name), 3, std::move(functions)) {}
};

std::vector<NativeModule::FunctionDef> StandardFunctions() {
  std::vector<NativeModule::FunctionDef> functions;
  functions.push_back(
      {"add",
       "0ii_i",
       [](ModuleState& state, std::span<const Arg> args, std::span<Value> results) {
         ++static_cast<CounterState&>(state).calls;
         results[0] = Value::I32(args[0].i32() + args[1].i32());
         return Status();
       },
       {{"z.key", "last"}, {"a.key", "first"}}});
  functions.push_back({"mix",
                       "0IfF_FfI",
                       [](ModuleState&, std::span<const Arg> args, std::span<Value> results) {
                         results[0] = Value::F64(args[2].f64() * 2);
                         results[1] = Value::F32(args[1].f32() + 1);
                         results[2] = Value::I64(args[0].i64() - 1);
                         return Status();
                       },
                       {}});
  functions.push_back({"identity",
                       "0r_r",
                       [](ModuleState&, std::span<const Arg> args, std::span<Value> results) {
                         results[0] = Value::FromRef(args[0].ref().Retain());
                         return Status();
                       },
                       {}});
  // Counts the non-null refs in a variadic span.
  functions.push_back({"count",
                       "0CrD_i",
                       [](ModuleState&, std::span<const Arg> args, std::span<Value> results) {
                         int32_t non_null = 0;
                         for (int32_t i = 0; i < args[0].i32(); ++i)
                           non_null += !args[1 + i].ref().is_null();
                         results[0] = Value::I32(non_null);
                         return Status();
                       },
                       {}});
  functions.push_back({"fail",
                       "0r_r",
                       [](ModuleState&, std::span<const Arg> args, std::span<Value> results) {
                         results[0] = Value::FromRef(args[0].ref().Retain());  // must not leak on error
                         return base::OutOfRangeError("boom");
                       },
                       {}});
  functions.push_back(
      {"untouched",
       "0v_iIr",
       [](ModuleState&, std::span<const Arg>, std::span<Value>) { return Status(); },
       {}});
  functions.push_back({"wrong_result",
                       "0v_I",
                       [](ModuleState&, std::span<const Arg>, std::span<Value> results) {
                         results[0] = Value::I32(1);
                         return Status();
                       },
                       {}});
  functions.push_back({"yields",
                       "0v_v",
                       [](ModuleState&, std::span<const Arg>, std::span<Value>) {
                         return Status(StatusCode::kDeferred, "");
                       },
                       {}});
  return functions;
}

class NativeModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto module = TestModule::Create("test", StandardFunctions());
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    module_ = *module;
    auto state = module_->CreateState(*instance_);
    ASSERT_TRUE(state.ok());
    state_ = std::move(state).value();
  }

  Status CallByName(std::string_view name, std::span<const Value> args, std::span<Value> results) {
    auto ordinal = module_->FindExport(name);
    if (!ordinal.ok()) return ordinal.status();
    Stack stack;
    Status status = module_->Call(stack, *state_, *ordinal, args, results);
    EXPECT_EQ(stack.depth(), 0u);
    return status;
  }

  base::Ref<Instance> instance_ = Instance::Create();
  base::Ref<TestModule> module_;
  std::unique_ptr<ModuleState> state_;
};

TEST_F(NativeModuleTest, ExportsListFunctionsWithSortedAttrs) {
  EXPECT_EQ(module_->name(), "test");
  EXPECT_EQ(module_->version(), 3u);
  EXPECT_TRUE(module_->imports().empty());
  EXPECT_TRUE(module_->dependencies().empty());
  std::span<const ExportInfo> exports = module_->exports();
  ASSERT_EQ(exports.size(), 8u);
  EXPECT_EQ(exports[0].name, "add");
  EXPECT_EQ(exports[0].cconv, "0ii_i");
  ASSERT_EQ(exports[0].attrs.size(), 2u);
  EXPECT_EQ(exports[0].attrs[0].key, "a.key");
  EXPECT_EQ(exports[0].attrs[0].value, "first");
  EXPECT_EQ(exports[0].attrs[1].key, "z.key");
  EXPECT_EQ(exports[3].name, "count");
  EXPECT_EQ(exports[3].cconv, "0CrD_i");
  EXPECT_EQ(module_->FindExport("identity").value(), 2u);
  EXPECT_TRUE(IsError(module_->FindExport("nope"), StatusCode::kNotFound,
                      "function 'nope' not exported by module 'test'"));
}

TEST_F(NativeModuleTest, CallsHandlersWithState) {
  const Value args[] = {Value::I32(40), Value::I32(2)};
  std::vector<Value> results(1);
  ASSERT_TRUE(CallByName("add", args, results).ok());
  EXPECT_EQ(results[0].type(), ValueType::kI32);
  EXPECT_EQ(results[0].i32(), 42);
  EXPECT_EQ(static_cast<CounterState&>(*state_).calls, 1);

  const Value mix_args[] = {Value::I64(10), Value::F32(0.5f), Value::F64(1.25)};
  std::vector<Value> mix_results(3);
  ASSERT_TRUE(CallByName("mix", mix_args, mix_results).ok());
  EXPECT_EQ(mix_results[0].f64(), 2.5);
  EXPECT_EQ(mix_results[1].f32(), 1.5f);
  EXPECT_EQ(mix_results[2].i64(), 9);
}

TEST_F(NativeModuleTest, RefsAreBorrowedAndResultsOwned) {
  auto buffer = Buffer::Allocate(8, 0);
  ASSERT_TRUE(buffer.ok());
  {
    const Value args[] = {Value::FromRef(Ref::Make(*buffer))};
    EXPECT_EQ((*buffer)->ref_count_for_testing(), 2);
    std::vector<Value> results(1);
    ASSERT_TRUE(CallByName("identity", args, results).ok());
    EXPECT_EQ(results[0].ref().Get<Buffer>(), buffer->get());
    EXPECT_EQ((*buffer)->ref_count_for_testing(), 3);
  }
  EXPECT_EQ((*buffer)->ref_count_for_testing(), 1);
  const Value null_arg[] = {Value::FromRef(Ref())};
  std::vector<Value> results(1);
  ASSERT_TRUE(CallByName("identity", null_arg, results).ok());
  EXPECT_TRUE(results[0].is_ref());
  EXPECT_TRUE(results[0].ref().is_null());
}

TEST_F(NativeModuleTest, VariadicArguments) {
  auto list = List::Create(Type::Any(), 0);
  ASSERT_TRUE(list.ok());
  const Value args[] = {Value::I32(3), Value::FromRef(Ref::Make(*list)), Value::FromRef(Ref()),
                        Value::FromRef(Ref::Make(*list))};
  std::vector<Value> results(1);
  ASSERT_TRUE(CallByName("count", args, results).ok());
  EXPECT_EQ(results[0].i32(), 2);
  const Value empty[] = {Value::I32(0)};
  ASSERT_TRUE(CallByName("count", empty, results).ok());
  EXPECT_EQ(results[0].i32(), 0);
  const Value short_span[] = {Value::I32(2), Value::FromRef(Ref())};
  EXPECT_TRUE(IsError(CallByName("count", short_span, results), StatusCode::kInvalidArgument,
                      "while invoking native function test.count"));
}

TEST_F(NativeModuleTest, ArgumentsAndResultsAreChecked) {
  std::vector<Value> results(1);
  const Value wrong_type[] = {Value::I32(1), Value::I64(2)};
  Status status = CallByName("add", wrong_type, results);
  EXPECT_TRUE(IsError(status, StatusCode::kInvalidArgument,
                      "arguments: value 1 is i64 but the calling convention expects i32; "
                      "while invoking native function test.add"));
  EXPECT_EQ(static_cast<CounterState&>(*state_).calls, 0);
  const Value one[] = {Value::I32(1)};
  EXPECT_TRUE(IsError(CallByName("add", one, results), StatusCode::kInvalidArgument, "too few"));
  const Value args[] = {Value::I32(1), Value::I32(2)};
  std::vector<Value> two_results(2);
  EXPECT_TRUE(IsError(CallByName("add", args, two_results), StatusCode::kInvalidArgument,
                      "results: expected 1 values but got 2"));
}

TEST_F(NativeModuleTest, ExportOrdinalIsBoundsChecked) {
  Stack stack;
  EXPECT_TRUE(IsError(module_->Call(stack, *state_, 8, {}, {}), StatusCode::kOutOfRange,
                      "export ordinal 8 out of range (module test has 8 exports)"));
}

TEST_F(NativeModuleTest, HandlerErrorsAreAnnotatedAndResultsReleased) {
  auto buffer = Buffer::Allocate(8, 0);
  ASSERT_TRUE(buffer.ok());
  const Value args[] = {Value::FromRef(Ref::Make(*buffer))};
  std::vector<Value> results(1);
  EXPECT_TRUE(IsError(CallByName("fail", args, results), StatusCode::kOutOfRange,
                      "boom; while invoking native function test.fail"));
  EXPECT_TRUE(results[0].is_none());
  EXPECT_EQ((*buffer)->ref_count_for_testing(), 2);  // only |args| holds it now
}

TEST_F(NativeModuleTest, UntouchedResultsAreTypedZeros) {
  std::vector<Value> results(3, Value::I32(99));
  ASSERT_TRUE(CallByName("untouched", {}, results).ok());
  EXPECT_EQ(results[0].type(), ValueType::kI32);
  EXPECT_EQ(results[0].i32(), 0);
  EXPECT_EQ(results[1].type(), ValueType::kI64);
  EXPECT_EQ(results[1].i64(), 0);
  EXPECT_TRUE(results[2].is_ref());
  EXPECT_TRUE(results[2].ref().is_null());
}

TEST_F(NativeModuleTest, ResultTypesAreCheckedInDebugBuildsOnly) {
  std::vector<Value> results(1);
  Status status = CallByName("wrong_result", {}, results);
#ifdef NDEBUG
  EXPECT_TRUE(status.ok()) << status.ToString();
#else
  EXPECT_TRUE(IsError(status, StatusCode::kInternal,
                      "value 0 is i32 but the calling convention expects i64"));
#endif
}

TEST_F(NativeModuleTest, DeferredFromANativeHandlerIsAnError) {
  EXPECT_TRUE(IsError(CallByName("yields", {}, {}), StatusCode::kInternal,
                      "native functions must run to completion; while invoking native function "
                      "test.yields"));
}

TEST_F(NativeModuleTest, StackDepthIsEnforced) {
  Stack stack(/*max_depth=*/0);
  const Value args[] = {Value::I32(1), Value::I32(2)};
  std::vector<Value> results(1);
  EXPECT_TRUE(IsError(module_->Call(stack, *state_, 0, args, results),
                      StatusCode::kResourceExhausted, "while invoking native function test.add"));
  EXPECT_EQ(stack.depth(), 0u);
}

TEST_F(NativeModuleTest, DefaultImportAndResumeEntryPointsRefuse) {
  EXPECT_TRUE(IsError(module_->BindImport(*state_, 0, ImportTarget{}), StatusCode::kInternal,
                      "module test has no imports"));
  Stack stack;
  EXPECT_TRUE(IsError(module_->Resume(stack, {}), StatusCode::kFailedPrecondition, "test"));
  auto plain_state = module_->NativeModule::CreateState(*instance_);
  ASSERT_TRUE(plain_state.ok());
  EXPECT_NE(plain_state->get(), nullptr);
}

TEST(NativeModuleValidateTest, RejectsMalformedDefinitions) {
  auto noop = [](ModuleState&, std::span<const Arg>, std::span<Value>) { return Status(); };
  EXPECT_TRUE(IsError(TestModule::Create("m", {{"f", "0x_v", noop, {}}}),
                      StatusCode::kInvalidArgument, "in native function m.f"));
  EXPECT_TRUE(IsError(TestModule::Create("m", {{"f", "0v_v", noop, {}}, {"f", "0i_v", noop, {}}}),
                      StatusCode::kInvalidArgument, "defines function 'f' twice"));
  EXPECT_TRUE(IsError(TestModule::Create("m", {{"f", "0v_v", nullptr, {}}}),
                      StatusCode::kInvalidArgument, "m.f has no handler"));
  EXPECT_TRUE(IsError(TestModule::Create("m", {{"", "0v_v", noop, {}}}),
                      StatusCode::kInvalidArgument, "has no name"));
  EXPECT_TRUE(IsError(TestModule::Create("", {}), StatusCode::kInvalidArgument, "name is empty"));
  EXPECT_TRUE(TestModule::Create("m", {}).ok());
}

TEST(NativeModuleValidateTest, CallBeforeValidateIsRefused) {
  auto noop = [](ModuleState&, std::span<const Arg>, std::span<Value>) { return Status(); };
  auto module = TestModule::Create("m", {{"f", "0v_v", noop, {}}}, /*validate=*/false);
  ASSERT_TRUE(module.ok());
  base::Ref<Instance> instance = Instance::Create();
  auto state = (*module)->CreateState(*instance);
  ASSERT_TRUE(state.ok());
  Stack stack;
  EXPECT_TRUE(IsError((*module)->Call(stack, **state, 0, {}, {}), StatusCode::kFailedPrecondition,
                      "before Validate()"));
}

}  // namespace
}  // namespace iree_rt::vm
