// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Tests of the native `io_parameters` module: a program compiled with its weights outside the
// module (programs/parameters.mlir: `#stream.parameter.named` globals of scope "model" and of
// the unscoped scope) run through vm::Context on local-sync and local-task, with the parameters
// served from memory by a provider made here: stored bytes (imported or copied), zero padding,
// 4- and 8-byte splats, and the failures a user meets (no provider for a scope, a missing key,
// a parameter shorter than the global).
#include "modules/io_parameters/io_parameters_module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "base/mapped_file.h"
#include "drivers/cpu/registration.h"
#include "hal/buffer_view.h"
#include "hal/device.h"
#include "hal/device_uri.h"
#include "hal/fence.h"
#include "hal/driver_registry.h"
#include "hal/utils/memory_file.h"
#include "modules/hal/args.h"
#include "modules/hal/hal_module.h"
#include "modules/hal/ref_types.h"
#include "status_matchers.h"
#include "unit/modules/test_device.h"
#include "tooling/function_io.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/context.h"
#include "vm/instance.h"
#include "vm/list.h"

namespace iree_rt::modules::io_parameters {
namespace {

namespace rt = ::iree_rt::hal;
using base::Ref;
using base::Status;
using base::StatusCode;
using base::StatusOr;
using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

// Parameters held in one 64-byte aligned host block, as a mapped archive holds them.
class MemoryProvider final : public ParameterProvider {
 public:
  explicit MemoryProvider(std::string scope) : scope_(std::move(scope)) {}

  // Stored bytes; |length| > bytes.size() zero-pads the rest.
  void AddData(const std::string& key, const void* bytes, size_t size, uint64_t length) {
    const size_t offset = (storage_.size() + 63) / 64 * 64;
    storage_.resize(offset + size);
    std::memcpy(storage_.data() + offset, bytes, size);
    Entry entry;
    entry.length = length;
    entry.file_offset = offset;
    entry.stored_length = size;
    entries_[key] = entry;
  }
  void AddSplat(const std::string& key, const void* pattern, uint8_t pattern_length, uint64_t length) {
    Entry entry;
    entry.length = length;
    entry.splat = true;
    std::memcpy(entry.pattern, pattern, pattern_length);
    entry.pattern_length = pattern_length;
    entries_[key] = entry;
  }
  // Call after the last Add: places the bytes in aligned memory behind one file (writable when
  // |writable|, for io_parameters.scatter).
  void Seal(bool host_visible, bool writable = false) {
    block_ = static_cast<uint8_t*>(std::aligned_alloc(64, (storage_.size() + 64) / 64 * 64));
    if (!storage_.empty()) std::memcpy(block_, storage_.data(), storage_.size());
    uint8_t* block = block_;
    file_ = base::MakeRef<rt::utils::MemoryFile>(block_, storage_.size(), writable,
                                                 [block]() { std::free(block); });
    for (auto& [key, entry] : entries_) {
      if (entry.splat) continue;
      entry.file = file_;
      if (host_visible) entry.host_data = block_ + entry.file_offset;
    }
  }

  const std::string& scope() const override { return scope_; }
  StatusOr<Entry> Lookup(std::string_view key) const override {
    auto it = entries_.find(std::string(key));
    if (it == entries_.end()) {
      return base::NotFoundError("no parameter '", key, "' in scope '", scope_, "'");
    }
    return it->second;
  }
  // The stored bytes of |key| (after Seal).
  std::vector<uint8_t> Bytes(const std::string& key) const {
    const Entry& entry = entries_.at(key);
    return std::vector<uint8_t>(block_ + entry.file_offset, block_ + entry.file_offset + entry.stored_length);
  }

 private:
  std::string scope_;
  std::vector<uint8_t> storage_;
  std::map<std::string, Entry> entries_;
  uint8_t* block_ = nullptr;
  Ref<rt::File> file_;
};

using iree_rt::testing::CreateCpuDevice;

std::string ProgramPath(const char* name = "parameters_program") {
#ifdef RT_TEST_MODULES_PROGRAMS_DIR
  return std::string(RT_TEST_MODULES_PROGRAMS_DIR) + "/" + name + ".vmfb";
#else
  return std::string();
#endif
}

struct Case {
  const char* device;
  bool host_visible;  // whether the provider offers its bytes for import
};
// Test names carry the printed parameter: print the fields, not the struct's padding bytes.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.device << (c.host_visible ? " import" : " copy");
}

class IoParametersTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    if (ProgramPath().empty()) GTEST_SKIP() << "no iree-compile: parameters.mlir was not compiled";
  }

  // The standard parameters: w, b and a zero-padded i32 vector in "model"; two splats unscoped.
  std::vector<Ref<ParameterProvider>> StandardProviders(bool host_visible) {
    auto model = base::MakeRef<MemoryProvider>("model");
    const float w[4] = {1, 2, 3, 4}, b[2] = {0.5f, -0.5f};
    const int32_t padded[2] = {1, 2};
    model->AddData("w", w, sizeof(w), sizeof(w));
    model->AddData("b", b, sizeof(b), sizeof(b));
    model->AddData("padded", padded, sizeof(padded), 16);
    model->Seal(host_visible);
    auto unscoped = base::MakeRef<MemoryProvider>("");
    const float seven = 7;
    const int64_t minus_three = -3;
    unscoped->AddSplat("splat", &seven, 4, 16);
    unscoped->AddSplat("splat64", &minus_three, 8, 24);
    unscoped->Seal(host_visible);
    return {model, unscoped};
  }

  // Creates [hal, io_parameters, program]; the program's initializer loads the parameters.
  Status Open(std::vector<Ref<ParameterProvider>> providers, const std::string& program_path = ProgramPath()) {
    instance_ = vm::Instance::Create();
    RT_RETURN_IF_ERROR(hal::RegisterRefTypes(*instance_));
    RT_ASSIGN_OR_RETURN(device_, CreateCpuDevice(GetParam().device));
    RT_ASSIGN_OR_RETURN(Ref<vm::Module> hal_module, hal::CreateHalModule({device_}));
    RT_ASSIGN_OR_RETURN(Ref<vm::Module> params, CreateIoParametersModule(std::move(providers)));
    RT_ASSIGN_OR_RETURN(Ref<base::MappedFile> file, base::MappedFile::Open(program_path));
    std::span<const uint8_t> bytes = file->span();
    RT_ASSIGN_OR_RETURN(Ref<vm::Module> program,
                        vm::bytecode::BytecodeModule::Load(*instance_, bytes, std::move(file)));
    RT_ASSIGN_OR_RETURN(context_, vm::Context::Create(
                                      instance_, std::vector<Ref<vm::Module>>{hal_module, params, program}));
    return Status::Ok();
  }

  // Runs |function| on one input; returns the result as FormatValue prints it, less its type line.
  StatusOr<std::string> Run(std::string_view function, std::string input) {
    RT_ASSIGN_OR_RETURN(vm::Context::Function f, context_->LookupFunction(function));
    RT_ASSIGN_OR_RETURN(std::vector<vm::Value> args,
                        tooling::ParseInputs(std::vector<std::string>{input}, f.info->cconv,
                                             &device_->allocator()));
    std::vector<vm::Value> results;
    RT_RETURN_IF_ERROR(context_->Invoke(f, args, &results));
    if (results.size() != 1) return base::InternalError(results.size(), " results");
    RT_ASSIGN_OR_RETURN(std::string text, tooling::FormatValue(results[0], 1024));
    const size_t newline = text.find('\n');
    return newline == std::string::npos ? text : text.substr(newline + 1);
  }

  // Every function of the program, on the standard parameters' values.
  void ExpectStandardResults() {
    struct Call {
      const char* function;
      const char* input;
      const char* expected;
    };
    const Call calls[] = {
        {"main", "1x2xf32=1 1", "1x2xf32=[4.5 5.5]"},
        {"padded", "4xi32=0", "4xi32=1 2 0 0"},
        {"splat", "4xf32=0", "4xf32=7 7 7 7"},
        {"splat64", "3xi64=0", "3xi64=-3 -3 -3"},  // an 8-byte pattern (IREE's runtime refuses these)
    };
    for (const Call& call : calls) {
      StatusOr<std::string> result = Run(call.function, call.input);
      ASSERT_TRUE(IsOk(result.status())) << call.function;
      EXPECT_EQ(*result, call.expected) << call.function;
    }
  }

  // Runs the compiler's parameter encoder over |providers| to completion: its encode function
  // takes a (here empty) list of steps, a wait fence and a signal fence.
  Status Encode(std::vector<Ref<ParameterProvider>> providers) {
    RT_RETURN_IF_ERROR(Open(std::move(providers), ProgramPath("parameters_encoder")));
    RT_ASSIGN_OR_RETURN(vm::Context::Function encode, context_->LookupFunction("__encode_parameters_all"));
    RT_ASSIGN_OR_RETURN(Ref<vm::List> steps, vm::List::Create(vm::Type::Any(), 0));
    RT_ASSIGN_OR_RETURN(Ref<rt::Semaphore> done, device_->CreateSemaphore(0));
    std::vector<vm::Value> args = {vm::Value::FromRef(vm::Ref::Make(steps)), hal::RefResult(rt::Fence::Create()),
                                   hal::RefResult(rt::Fence::Create(done, 1))};
    std::vector<vm::Value> results;
    RT_RETURN_IF_ERROR(context_->Invoke(encode, args, &results));
    return done->Wait(1, rt::kInfiniteTimeout);
  }

  Ref<vm::Instance> instance_;
  Ref<rt::Device> device_;
  Ref<vm::Context> context_;
};

TEST_P(IoParametersTest, LoadsScopedUnscopedPaddedAndSplatParameters) {
  ASSERT_TRUE(IsOk(Open(StandardProviders(GetParam().host_visible))));
  ExpectStandardResults();
}

TEST_P(IoParametersTest, HostBytesAreImportedNotCopied) {
  // w (16 bytes) and b (8) are stored whole and aligned: offered as host memory, they are
  // imported and take no device allocation; the padded vector and the splats always do.
  ASSERT_TRUE(IsOk(Open(StandardProviders(GetParam().host_visible))));
  const uint64_t allocated = device_->allocator().statistics().bytes_allocated;
  ASSERT_TRUE(IsOk(Open(StandardProviders(!GetParam().host_visible))));
  const uint64_t other = device_->allocator().statistics().bytes_allocated;
  if (GetParam().host_visible) {
    EXPECT_LE(allocated + 24, other) << "imported " << allocated << " vs copied " << other;
  } else {
    EXPECT_LE(other + 24, allocated) << "copied " << allocated << " vs imported " << other;
  }
}

TEST_P(IoParametersTest, MissingScopeNamesIt) {
  auto providers = StandardProviders(GetParam().host_visible);
  providers.pop_back();  // no unscoped provider
  Status status = Open(std::move(providers));
  EXPECT_TRUE(IsError(status, StatusCode::kNotFound, "no parameters for scope ''"));
}

TEST_P(IoParametersTest, MissingKeyNamesKeyAndScope) {
  auto model = base::MakeRef<MemoryProvider>("model");
  const float w[4] = {1, 2, 3, 4};
  model->AddData("w", w, sizeof(w), sizeof(w));  // no "b"
  model->Seal(GetParam().host_visible);
  auto providers = StandardProviders(GetParam().host_visible);
  providers[0] = model;
  Status status = Open(std::move(providers));
  EXPECT_TRUE(IsError(status, StatusCode::kNotFound, "no parameter 'b' in scope 'model'"));
}

TEST_P(IoParametersTest, ParameterShorterThanTheGlobalIsRefused) {
  auto model = base::MakeRef<MemoryProvider>("model");
  const float w[4] = {1, 2, 3, 4}, b[1] = {0.5f};
  const int32_t padded[4] = {1, 2, 3, 4};
  model->AddData("w", w, sizeof(w), sizeof(w));
  model->AddData("b", b, sizeof(b), sizeof(b));  // the program reads 8 bytes
  model->AddData("padded", padded, sizeof(padded), sizeof(padded));
  model->Seal(GetParam().host_visible);
  auto providers = StandardProviders(GetParam().host_visible);
  providers[0] = model;
  Status status = Open(std::move(providers));
  EXPECT_TRUE(IsError(status, StatusCode::kOutOfRange, "parameter 'b' of scope 'model' has 4 bytes"));
}

// The encoder the compiler splits out with --iree-parameter-encoder-output-file: its "indices"
// function sizes the output parameter, its "encode" function loads every parameter and scatters
// it into that one ("encoded"::"parameter0"), and the rewritten program then runs on it alone.
TEST_P(IoParametersTest, CompilerEncoderScattersAndTheEncodedProgramRunsOnIt) {
  // indices() -> [[scope, [[type, key, metadata, length, alignment], ...]], ...]
  auto encoded = base::MakeRef<MemoryProvider>("encoded");
  {
    ASSERT_TRUE(IsOk(Open({}, ProgramPath("parameters_encoder"))));
    auto f = context_->LookupFunction("__encode_parameter_indices_all");
    ASSERT_TRUE(IsOk(f.status()));
    std::vector<vm::Value> results;
    ASSERT_TRUE(IsOk(context_->Invoke(*f, {}, &results)));
    auto list_at = [](const vm::Value& value, size_t i) -> vm::List* {
      auto element = value.ref().Get<vm::List>()->GetVariant(i);
      return element.ok() ? element->ref().Get<vm::List>() : nullptr;
    };
    vm::List* scope = list_at(results[0], 0);
    ASSERT_NE(scope, nullptr);
    EXPECT_EQ(hal::Text(*scope->GetVariant(0)->ref().Get<vm::Buffer>()), "encoded");
    vm::List* entries = scope->GetVariant(1)->ref().Get<vm::List>();
    ASSERT_EQ(entries->size(), 1u);
    vm::List* entry = entries->GetVariant(0)->ref().Get<vm::List>();
    const std::string key(hal::Text(*entry->GetVariant(1)->ref().Get<vm::Buffer>()));
    const uint64_t length = entry->GetVariant(3)->i64();
    EXPECT_EQ(key, "parameter0");
    ASSERT_GE(length, 16u + 8 + 16 + 16 + 24) << "every parameter goes into it";
    std::vector<uint8_t> poison(length, 0xEE);
    encoded->AddData(key, poison.data(), poison.size(), poison.size());
    encoded->Seal(GetParam().host_visible, /*writable=*/true);
  }
  auto providers = StandardProviders(GetParam().host_visible);
  providers.push_back(encoded);
  ASSERT_TRUE(IsOk(Encode(providers)));
  const std::vector<uint8_t> bytes = encoded->Bytes("parameter0");
  // The five parameters' 80 bytes replace the poison; alignment gaps keep it (none of the
  // parameters holds an 0xEE byte). The runs below check the bytes themselves.
  EXPECT_EQ(std::count(bytes.begin(), bytes.end(), 0xEE), static_cast<long>(bytes.size()) - 80);

  // The rewritten program reads "encoded" only: its results are those of the original parameters.
  ASSERT_TRUE(IsOk(Open({encoded}, ProgramPath("parameters_encoded_program"))));
  ExpectStandardResults();
}

// A scatter into a read-only parameter fails the call, naming the key and scope, and writes nothing.
TEST_P(IoParametersTest, EncoderScatterIntoReadOnlyParametersIsRefused) {
  auto encoded = base::MakeRef<MemoryProvider>("encoded");
  std::vector<uint8_t> zeros(4096, 0);
  encoded->AddData("parameter0", zeros.data(), zeros.size(), zeros.size());
  encoded->Seal(GetParam().host_visible, /*writable=*/false);
  auto providers = StandardProviders(GetParam().host_visible);
  providers.push_back(encoded);
  Status status = Encode(providers);
  EXPECT_TRUE(IsError(status, StatusCode::kFailedPrecondition,
                      "parameter 'parameter0' of scope 'encoded' is read-only"));
  EXPECT_EQ(encoded->Bytes("parameter0"), zeros);
}

TEST(IoParametersModule, RefusesNullAndDuplicateScopes) {
  EXPECT_TRUE(IsError(CreateIoParametersModule({nullptr}).status(), StatusCode::kInvalidArgument, "null"));
  EXPECT_TRUE(IsError(CreateIoParametersModule({base::MakeRef<MemoryProvider>("m"),
                                                base::MakeRef<MemoryProvider>("m")})
                          .status(),
                      StatusCode::kInvalidArgument, "two parameter providers for scope 'm'"));
}

INSTANTIATE_TEST_SUITE_P(Devices, IoParametersTest,
                         ::testing::Values(Case{"local-sync", true}, Case{"local-sync", false},
                                           Case{"local-task", true}, Case{"local-task", false}),
                         [](const auto& info) {
                           std::string name = info.param.device;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name + (info.param.host_visible ? "_import" : "_copy");
                         });

}  // namespace
}  // namespace iree_rt::modules::io_parameters
