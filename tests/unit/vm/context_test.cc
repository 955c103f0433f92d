// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/context.h"

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "object_model_test_util.h"
#include "vm/buffer.h"
#include "vm/native_module.h"
#include "vm/stack.h"

namespace iree_rt::vm {
namespace {

using base::Status;
using base::StatusCode;
using base::StatusOr;
using testing::IsError;

using Log = std::vector<std::string>;

struct FakeState : ModuleState {
  FakeState(std::string name, Log* log) : name(std::move(name)), log(log) {}
  ~FakeState() override { log->push_back("free " + name); }
  std::string name;
  Log* log;
  std::vector<ImportTarget> bound;
  int resumes_left = 0;
};

// A module whose exports, imports and dependencies are set up by each test, which records the
// lifecycle events (state creation and destruction, binds, calls) into a shared log.
class FakeModule : public Module {
 public:
  using Body = std::function<Status(FakeState&, std::span<const Value>, std::span<Value>)>;

  FakeModule(std::string name, Log* log, uint32_t version = 0)
      : name_(std::move(name)), log_(log), version_(version) {}

  FakeModule& Export(std::string name, std::string cconv, Body body = nullptr,
                     std::vector<std::pair<std::string, std::string>> attrs = {}) {
    functions_.push_back(Function{std::move(name), std::move(cconv), std::move(body), {}, {}});
    Function& function = functions_.back();
    function.attr_storage = std::move(attrs);
    for (const auto& [key, value] : function.attr_storage)
      function.attrs.push_back(Attr{key, value});
    exports_.clear();
    for (const Function& f : functions_) exports_.push_back(ExportInfo{f.name, f.cconv, f.attrs});
    return *this;
  }
  // Logs "<verb> <module>" and optionally fails.
  FakeModule& Lifecycle(bool fail_init = false, bool fail_deinit = false) {
    Export("__init", "0v_v", [this, fail_init](FakeState&, auto, auto) {
      log_->push_back("init " + name_);
      return fail_init ? base::InternalError("init of ", name_, " failed") : Status();
    });
    Export("__deinit", "0v_v", [this, fail_deinit](FakeState&, auto, auto) {
      log_->push_back("deinit " + name_);
      return fail_deinit ? base::InternalError("deinit failed") : Status();
    });
    return *this;
  }
  FakeModule& Import(std::string full_name, std::string cconv, bool optional = false) {
    strings_.push_back(std::move(full_name));
    std::string_view full = strings_.back();
    strings_.push_back(std::move(cconv));
    const size_t dot = full.find('.');
    imports_.push_back(ImportInfo{full, full.substr(0, dot),
                                  dot == std::string_view::npos ? "" : full.substr(dot + 1),
                                  strings_.back(), optional});
    return *this;
  }
  FakeModule& Depend(std::string name, uint32_t minimum_version, bool optional = false) {
    strings_.push_back(std::move(name));
    dependencies_.push_back(Dependency{strings_.back(), minimum_version, optional});
    return *this;
  }
  void FailCreateState() { fail_create_state_ = true; }

  std::string_view name() const override { return name_; }
  uint32_t version() const override { return version_; }
  std::span<const ExportInfo> exports() const override { return exports_; }
  std::span<const ImportInfo> imports() const override { return imports_; }
  std::span<const Dependency> dependencies() const override { return dependencies_; }

  StatusOr<std::unique_ptr<ModuleState>> CreateState(Instance& instance) override {
    if (fail_create_state_) return base::UnavailableError("no state for ", name_);
    log_->push_back("state " + name_);
    return std::unique_ptr<ModuleState>(new FakeState(name_, log_));
  }

  Status BindImport(ModuleState& state, uint32_t ordinal, const ImportTarget& target) override {
    auto& fake = static_cast<FakeState&>(state);
    if (fake.bound.size() <= ordinal) fake.bound.resize(ordinal + 1);
    fake.bound[ordinal] = target;
    log_->push_back(base::StrCat("bind ", name_, "#", ordinal, " -> ",
                                 target.module ? target.module->name() : "(null)"));
    return Status();
  }

  Status Call(Stack& stack, ModuleState& state, uint32_t export_ordinal,
              std::span<const Value> args, std::span<Value> results) override {
    const Function& function = functions_.at(export_ordinal);
    if (!function.body) return Status();
    Status status = function.body(static_cast<FakeState&>(state), args, results);
    if (status.code() == StatusCode::kDeferred && suspend_on_yield_) {
      stack.set_suspended(this);
      suspended_state_ = &static_cast<FakeState&>(state);
    }
    return status;
  }

  // Each resume either yields again (while resumes_left > 0) or writes i32 7.
  Status Resume(Stack& stack, std::span<Value> results) override {
    log_->push_back("resume " + name_);
    if (suspended_state_->resumes_left-- > 0) return Status(StatusCode::kDeferred, "");
    results[0] = Value::I32(7);
    return Status();
  }
  bool suspend_on_yield_ = true;

 private:
  struct Function {
    std::string name;
    std::string cconv;
    Body body;
    std::vector<std::pair<std::string, std::string>> attr_storage;
    std::vector<Attr> attrs;
  };
  std::string name_;
  Log* log_;
  uint32_t version_;
  bool fail_create_state_ = false;
  std::deque<Function> functions_;  // deque: views into it survive later additions
  std::deque<std::string> strings_;
  std::vector<ExportInfo> exports_;
  std::vector<ImportInfo> imports_;
  std::vector<Dependency> dependencies_;
  FakeState* suspended_state_ = nullptr;
};

base::Ref<FakeModule> Fake(std::string name, Log* log, uint32_t version = 0) {
  return base::MakeRef<FakeModule>(std::move(name), log, version);
}

StatusOr<base::Ref<Context>> MakeContext(std::vector<base::Ref<Module>> modules) {
  return Context::Create(Instance::Create(), modules);
}

FakeState& StateOf(Context& context, size_t index) {
  auto function = context.LookupFunction(std::string(context.module(index).name()) + ".probe");
  EXPECT_TRUE(function.ok()) << function.status().ToString();
  return static_cast<FakeState&>(*function->state);
}

TEST(ContextTest, EmptyContext) {
  auto context = MakeContext({});
  ASSERT_TRUE(context.ok());
  EXPECT_EQ((*context)->module_count(), 0u);
  EXPECT_TRUE(IsError((*context)->LookupFunction("m.f"), StatusCode::kNotFound, "no modules"));
  EXPECT_TRUE(IsError((*context)->LookupFunction(""), StatusCode::kInvalidArgument));
}

TEST(ContextTest, RejectsNullInstanceAndModules) {
  Log log;
  EXPECT_TRUE(IsError(Context::Create(nullptr, {}), StatusCode::kInvalidArgument, "instance"));
  base::Ref<FakeModule> a = Fake("a", &log);
  a->Lifecycle();
  EXPECT_TRUE(IsError(MakeContext({a, nullptr}), StatusCode::kInvalidArgument, "module 1"));
  EXPECT_EQ(log, (Log{"state a", "init a", "deinit a", "free a"}));
}

TEST(ContextTest, ResolvesImportsAgainstEarlierModules) {
  Log log;
  base::Ref<FakeModule> a = Fake("a", &log);
  a->Export("probe", "0v_v").Export("f", "0i_i").Export("g", "0r_v").Export("x.y", "0v_v");
  base::Ref<FakeModule> b = Fake("b", &log);
  b->Export("probe", "0v_v").Import("a.g", "").Import("a.f", "0i_i").Import("a.x.y", "0v_v");
  auto context = MakeContext({a, b});
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  EXPECT_EQ(log, (Log{"state a", "state b", "bind b#0 -> a", "bind b#1 -> a", "bind b#2 -> a"}));
  FakeState& b_state = StateOf(**context, 1);
  FakeState& a_state = StateOf(**context, 0);
  ASSERT_EQ(b_state.bound.size(), 3u);
  EXPECT_EQ(b_state.bound[0].module, a.get());
  EXPECT_EQ(b_state.bound[0].state, &a_state);
  EXPECT_EQ(b_state.bound[0].export_ordinal, 2u);
  EXPECT_EQ(b_state.bound[1].export_ordinal, 1u);
  EXPECT_EQ(b_state.bound[2].export_ordinal, 3u);  // split at the first '.' only
}

TEST(ContextTest, MostRecentlyRegisteredModuleWins) {
  Log log;
  base::Ref<FakeModule> old_a = Fake("a", &log);
  old_a->Export("probe", "0v_v").Export("f", "0v_v");
  base::Ref<FakeModule> new_a = Fake("a", &log);
  new_a->Export("f", "0v_v").Export("probe", "0v_v");
  base::Ref<FakeModule> b = Fake("b", &log);
  b->Export("probe", "0v_v").Import("a.f", "0v_v");
  auto context = MakeContext({old_a, new_a, b});
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  FakeState& b_state = StateOf(**context, 2);
  EXPECT_EQ(b_state.bound[0].module, new_a.get());
  EXPECT_EQ(b_state.bound[0].export_ordinal, 0u);
}

TEST(ContextTest, ImportsNeverResolveAgainstLaterModules) {
  Log log;
  base::Ref<FakeModule> a = Fake("a", &log);
  a->Export("f", "0v_v");
  base::Ref<FakeModule> b = Fake("b", &log);
  b->Import("a.f", "0v_v").Lifecycle();
  EXPECT_TRUE(IsError(MakeContext({b, a}), StatusCode::kNotFound,
                      "module 'a' required for import 'a.f' not registered with the context; "
                      "while registering module 'b'"));
  EXPECT_EQ(log, (Log{"state b", "free b"}));  // b never initialized, so no __deinit
}

TEST(ContextTest, MissingRequiredFunctionIsNotFound) {
  Log log;
  base::Ref<FakeModule> a = Fake("a", &log);
  a->Export("f", "0v_v").Lifecycle();
  base::Ref<FakeModule> b = Fake("b", &log);
  b->Import("a.missing", "0v_v");
  EXPECT_TRUE(IsError(MakeContext({a, b}), StatusCode::kNotFound,
                      "function 'missing' not exported by module 'a'; resolving import "
                      "'a.missing'"));
  EXPECT_EQ(log, (Log{"state a", "init a", "state b", "free b", "deinit a", "free a"}));
}

TEST(ContextTest, OptionalImportsBindNullWhenMissing) {
  Log log;
  base::Ref<FakeModule> a = Fake("a", &log);
  a->Export("f", "0v_v");
  base::Ref<FakeModule> b = Fake("b", &log);
  b->Export("probe", "0v_v")
      .Import("a.missing", "0v_v", /*optional=*/true)
      .Import("check.expect_true", "0i_v", /*optional=*/true)
      .Import("a.f", "0v_v");
  auto context = MakeContext({a, b});
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  EXPECT_EQ(log, (Log{"state a", "state b", "bind b#0 -> (null)", "bind b#1 -> (null)",
                      "bind b#2 -> a"}));
  FakeState& b_state = StateOf(**context, 1);
  EXPECT_EQ(b_state.bound[0].module, nullptr);
  EXPECT_EQ(b_state.bound[0].state, nullptr);
}

TEST(ContextTest, ImportSignaturesMustMatchExactly) {
  Log log;
  base::Ref<FakeModule> a = Fake("a", &log);
  a->Export("f", "0I_I");
  base::Ref<FakeModule> b = Fake("b", &log);
  b->Import("a.f", "0i_i");
  EXPECT_TRUE(IsError(MakeContext({a, b}), StatusCode::kInternal,
                      "import 'a.f' signature mismatch: expected 0i_i but got 0I_I"));
  // Optional imports are not exempt: the target exists but is incompatible.
  base::Ref<FakeModule> c = Fake("c", &log);
  c->Import("a.f", "0I_i", /*optional=*/true);
  EXPECT_TRUE(IsError(MakeContext({a, c}), StatusCode::kInternal, "signature mismatch"));
  // Equivalent spellings are still different strings.
  base::Ref<FakeModule> d = Fake("d", &log);
  d->Import("a.f", "0I_I ");
  EXPECT_TRUE(IsError(MakeContext({a, d}), StatusCode::kInternal, "signature mismatch"));
}

TEST(ContextTest, DependenciesAreChecked) {
  Log log;
  base::Ref<FakeModule> hal = Fake("hal", &log, /*version=*/5);
  base::Ref<FakeModule> missing = Fake("app", &log);
  missing->Depend("check", 0);
  EXPECT_TRUE(IsError(MakeContext({hal, missing}), StatusCode::kNotFound,
                      "module 'check' required by 'app' is not registered"));
  base::Ref<FakeModule> too_new = Fake("app", &log);
  too_new->Depend("hal", 6);
  EXPECT_TRUE(IsError(MakeContext({hal, too_new}), StatusCode::kNotFound,
                      "module 'hal' required by 'app' version mismatch; have 5 but require 6"));
  base::Ref<FakeModule> fine = Fake("app", &log);
  fine->Depend("hal", 5).Depend("check", 0, /*optional=*/true).Depend("hal", 9, /*optional=*/true);
  EXPECT_TRUE(MakeContext({hal, fine}).ok());
}

TEST(ContextTest, InitRunsInOrderAndDeinitInReverse) {
  Log log;
  base::Ref<FakeModule> a = Fake("a", &log);
  base::Ref<FakeModule> b = Fake("b", &log);
  base::Ref<FakeModule> c = Fake("c", &log);
  a->Lifecycle();
  b->Export("only_exports_this", "0v_v");
  c->Lifecycle();
  {
    auto context = MakeContext({a, b, c});
    ASSERT_TRUE(context.ok()) << context.status().ToString();
    EXPECT_EQ(log, (Log{"state a", "init a", "state b", "state c", "init c"}));
    EXPECT_EQ(a->ref_count_for_testing(), 2);
    log.clear();
  }
  EXPECT_EQ(log, (Log{"deinit c", "deinit a", "free c", "free b", "free a"}));
  EXPECT_EQ(a->ref_count_for_testing(), 1);
  EXPECT_EQ(c->ref_count_for_testing(), 1);
}

TEST(ContextTest, FailedInitTearsDownWhatWasRegistered) {
  Log log;
  base::Ref<FakeModule> a = Fake("a", &log);
  base::Ref<FakeModule> b = Fake("b", &log);
  base::Ref<FakeModule> c = Fake("c", &log);
  base::Ref<FakeModule> d = Fake("d", &log);
  a->Lifecycle();
  b->Lifecycle();
  c->Lifecycle(/*fail_init=*/true);
  d->Lifecycle();
  EXPECT_TRUE(
      IsError(MakeContext({a, b, c, d}), StatusCode::kInternal,
              "init of c failed; invoking function '__init'; while registering module 'c'"));
  EXPECT_EQ(log, (Log{"state a", "init a", "state b", "init b", "state c", "init c", "free c",
                      "deinit b", "deinit a", "free b", "free a"}));
  for (FakeModule* module : {a.get(), b.get(), c.get(), d.get()}) {
    EXPECT_EQ(module->ref_count_for_testing(), 1);
  }
}

TEST(ContextTest, FailedStateCreationTearsDown) {
  Log log;
  base::Ref<FakeModule> a = Fake("a", &log);
  a->Lifecycle();
  base::Ref<FakeModule> b = Fake("b", &log);
  b->FailCreateState();
  EXPECT_TRUE(IsError(MakeContext({a, b}), StatusCode::kUnavailable,
                      "no state for b; while registering module 'b'"));
  EXPECT_EQ(log, (Log{"state a", "init a", "deinit a", "free a"}));
}

TEST(ContextTest, DeinitErrorsAreIgnored) {
  Log log;
  base::Ref<FakeModule> a = Fake("a", &log);
  base::Ref<FakeModule> b = Fake("b", &log);
  a->Lifecycle();
  b->Lifecycle(/*fail_init=*/false, /*fail_deinit=*/true);
  { ASSERT_TRUE(MakeContext({a, b}).ok()); }
  EXPECT_EQ(log, (Log{"state a", "init a", "state b", "init b", "deinit b", "deinit a", "free b",
                      "free a"}));
}

TEST(ContextTest, InitMustTakeAndReturnNothing) {
  Log log;
  base::Ref<FakeModule> a = Fake("a", &log);
  a->Export("__init", "0i_v");
  EXPECT_TRUE(IsError(MakeContext({a}), StatusCode::kInvalidArgument,
                      "export '__init' of module 'a' must take no arguments and return nothing, "
                      "but its calling convention is '0i_v'"));
}

TEST(ContextTest, LookupFunctionByQualifiedAndBareName) {
  Log log;
  base::Ref<FakeModule> a = Fake("a", &log);
  a->Export("f", "0v_v").Export("b.c", "0v_v");
  base::Ref<FakeModule> main = Fake("main", &log);
  main->Export("run", "0v_v").Export("x.y", "0v_v").Export("a.nope", "0v_v");
  auto context_or = MakeContext({a, main});
  ASSERT_TRUE(context_or.ok());
  Context& context = **context_or;

  auto f = context.LookupFunction("a.f");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->module, a.get());
  EXPECT_EQ(f->export_ordinal, 0u);
  EXPECT_EQ(f->info->name, "f");
  EXPECT_NE(f->state, nullptr);

  auto run = context.LookupFunction("run");  // bare: the last module
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->module, main.get());
  EXPECT_EQ(run->info->cconv, "0v_v");

  auto dotted = context.LookupFunction("a.b.c");  // module prefix, dotted export name
  ASSERT_TRUE(dotted.ok());
  EXPECT_EQ(dotted->module, a.get());
  EXPECT_EQ(dotted->export_ordinal, 1u);

  auto no_module_x = context.LookupFunction("x.y");  // no module 'x': a bare dotted name
  ASSERT_TRUE(no_module_x.ok());
  EXPECT_EQ(no_module_x->module, main.get());
  EXPECT_EQ(no_module_x->export_ordinal, 1u);

  auto fallback = context.LookupFunction("a.nope");  // 'a' lacks it; main exports "a.nope"
  ASSERT_TRUE(fallback.ok());
  EXPECT_EQ(fallback->module, main.get());

  EXPECT_TRUE(IsError(context.LookupFunction("a.g"), StatusCode::kNotFound,
                      "function 'g' not exported by module 'a'"));
  EXPECT_TRUE(IsError(context.LookupFunction("f"), StatusCode::kNotFound,
                      "function 'f' not exported by module 'main'"));
  EXPECT_TRUE(IsError(context.LookupFunction("z.f"), StatusCode::kNotFound,
                      "function 'z.f' not exported by module 'main'"));
}

class InvokeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    module_ = Fake("m", &log_);
    auto echo = [](FakeState&, std::span<const Value> args, std::span<Value> results) {
      results[0] = Value::I64(args[0].i32() * int64_t{2});
      results[1] = Value::FromRef(args[1].ref());
      return Status();
    };
    auto fail = [](FakeState&, std::span<const Value>, std::span<Value> results) {
      results[0] = Value::I32(1);
      return base::FailedPreconditionError("check failed");
    };
    auto yield = [](FakeState& state, std::span<const Value> args, std::span<Value>) {
      state.resumes_left = args[0].i32();
      return Status(StatusCode::kDeferred, "");
    };
    module_->Export("echo", "0ir_Ir", echo)
        .Export("fail", "0v_i", fail,
                {{"iree.abi.declaration", "sync func @fail() -> (%output0: i32)"},
                 {"iree.abi.model", "sync"}})
        .Export("yield", "0i_i", yield);
    auto context = MakeContext({module_});
    ASSERT_TRUE(context.ok()) << context.status().ToString();
    context_ = *context;
  }

  Context::Function Lookup(std::string_view name) {
    auto function = context_->LookupFunction(name);
    EXPECT_TRUE(function.ok()) << function.status().ToString();
    return function.ok() ? *function : Context::Function{};
  }

  Log log_;
  base::Ref<FakeModule> module_;
  base::Ref<Context> context_;
};

TEST_F(InvokeTest, ReturnsResultsAndBalancesReferences) {
  auto buffer = Buffer::Allocate(4, 0);
  ASSERT_TRUE(buffer.ok());
  std::vector<Value> results = {Value::I32(123)};  // stale contents are replaced
  {
    const Value args[] = {Value::I32(21), Value::FromRef(Ref::Make(*buffer))};
    ASSERT_TRUE(context_->Invoke(Lookup("echo"), args, &results).ok());
  }
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].i64(), 42);
  EXPECT_EQ(results[1].ref().Get<Buffer>(), buffer->get());
  EXPECT_EQ((*buffer)->ref_count_for_testing(), 2);
  results.clear();
  EXPECT_EQ((*buffer)->ref_count_for_testing(), 1);
}

TEST_F(InvokeTest, ChecksArgumentsAgainstTheExport) {
  std::vector<Value> results;
  const Value wrong[] = {Value::I64(1), Value::FromRef(Ref())};
  EXPECT_TRUE(IsError(context_->Invoke(Lookup("echo"), wrong, &results),
                      StatusCode::kInvalidArgument,
                      "arguments: value 0 is i64 but the calling convention expects i32; "
                      "invoking function 'echo'"));
  EXPECT_TRUE(results.empty());
  EXPECT_TRUE(IsError(context_->Invoke(Lookup("echo"), {}, &results), StatusCode::kInvalidArgument,
                      "too few values"));
  EXPECT_TRUE(IsError(context_->Invoke(Lookup("echo"), {}, nullptr), StatusCode::kInvalidArgument));
}

TEST_F(InvokeTest, ErrorsNameTheFunctionAndItsDeclaration) {
  std::vector<Value> results;
  Status status = context_->Invoke(Lookup("fail"), {}, &results);
  EXPECT_TRUE(IsError(status, StatusCode::kFailedPrecondition,
                      "check failed; invoking function 'fail'; "
                      "`sync func @fail() -> (%output0: i32)`"));
  EXPECT_TRUE(results.empty());
}

TEST_F(InvokeTest, ResumesUntilTheCallCompletes) {
  std::vector<Value> results;
  const Value args[] = {Value::I32(2)};
  ASSERT_TRUE(context_->Invoke(Lookup("yield"), args, &results).ok());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].i32(), 7);
  EXPECT_EQ(log_, (Log{"state m", "resume m", "resume m", "resume m"}));
}

TEST_F(InvokeTest, YieldWithoutASuspendedModuleIsInternal) {
  module_->suspend_on_yield_ = false;
  std::vector<Value> results;
  const Value args[] = {Value::I32(0)};
  EXPECT_TRUE(IsError(context_->Invoke(Lookup("yield"), args, &results), StatusCode::kInternal,
                      "no module is suspended on its stack; invoking function 'yield'"));
}

TEST_F(InvokeTest, RejectsFunctionsOfOtherContexts) {
  auto other = MakeContext({module_});
  ASSERT_TRUE(other.ok());
  auto foreign = (*other)->LookupFunction("echo");
  ASSERT_TRUE(foreign.ok());
  std::vector<Value> results;
  EXPECT_TRUE(IsError(context_->Invoke(*foreign, {}, &results), StatusCode::kInvalidArgument,
                      "not looked up in this context"));
  EXPECT_TRUE(
      IsError(context_->Invoke(Context::Function{}, {}, &results), StatusCode::kInvalidArgument));
}

// A native module exporting what a fake importer needs, end to end through the context.
class MathModule : public NativeModule {
 public:
  static base::Ref<MathModule> Create() {
    std::vector<FunctionDef> functions;
    functions.push_back({"add",
                         "0ii_i",
                         [](ModuleState&, std::span<const Arg> args, std::span<Value> results) {
                           results[0] = Value::I32(args[0].i32() + args[1].i32());
                           return Status();
                         },
                         {}});
    base::Ref<MathModule> module =
        base::Ref<MathModule>::Adopt(new MathModule(std::move(functions)));
    EXPECT_TRUE(module->Validate().ok());
    return module;
  }

 private:
  explicit MathModule(std::vector<FunctionDef> functions)
      : NativeModule("math", 1, std::move(functions)) {}
};

TEST(ContextNativeTest, ImportsResolveToNativeExportsAndCallsWork) {
  Log log;
  base::Ref<MathModule> math = MathModule::Create();
  base::Ref<FakeModule> app = Fake("app", &log);
  app->Export("probe", "0v_v").Import("math.add", "0ii_i").Depend("math", 1);
  auto context = MakeContext({math, app});
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  FakeState& app_state = StateOf(**context, 1);
  ASSERT_EQ(app_state.bound.size(), 1u);
  ImportTarget target = app_state.bound[0];
  EXPECT_EQ(target.module, math.get());

  // Call through the bound target the way an importer would.
  Stack stack;
  const Value args[] = {Value::I32(5), Value::I32(6)};
  std::vector<Value> results(1);
  ASSERT_TRUE(target.module->Call(stack, *target.state, target.export_ordinal, args, results).ok());
  EXPECT_EQ(results[0].i32(), 11);

  auto add = (*context)->LookupFunction("math.add");
  ASSERT_TRUE(add.ok());
  std::vector<Value> invoked;
  ASSERT_TRUE((*context)->Invoke(*add, args, &invoked).ok());
  ASSERT_EQ(invoked.size(), 1u);
  EXPECT_EQ(invoked[0].i32(), 11);
}

}  // namespace
}  // namespace iree_rt::vm
