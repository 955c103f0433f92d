// Tests of the native `io_parameters` module: a program compiled with its weights outside the
// module (programs/parameters.mlir: `#stream.parameter.named` globals of scope "model" and of
// the unscoped scope) run through vm::Context on local-sync and local-task, with the parameters
// served from memory by a provider made here: stored bytes (imported or copied), zero padding,
// 4- and 8-byte splats, and the failures a user meets (no provider for a scope, a missing key,
// a parameter shorter than the global).
#include "modules/io_parameters/io_parameters_module.h"

#include <gtest/gtest.h>

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
#include "hal/driver_registry.h"
#include "hal/utils/memory_file.h"
#include "modules/hal/hal_module.h"
#include "modules/hal/ref_types.h"
#include "status_matchers.h"
#include "unit/modules/test_device.h"
#include "tooling/function_io.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/context.h"
#include "vm/instance.h"

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
  // Call after the last Add: places the bytes in aligned memory behind one file.
  void Seal(bool host_visible) {
    block_ = static_cast<uint8_t*>(std::aligned_alloc(64, (storage_.size() + 64) / 64 * 64));
    if (!storage_.empty()) std::memcpy(block_, storage_.data(), storage_.size());
    uint8_t* block = block_;
    file_ = base::MakeRef<rt::utils::MemoryFile>(block_, storage_.size(), false,
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

 private:
  std::string scope_;
  std::vector<uint8_t> storage_;
  std::map<std::string, Entry> entries_;
  uint8_t* block_ = nullptr;
  Ref<rt::File> file_;
};

using iree_rt::testing::CreateCpuDevice;

std::string ProgramPath() {
#ifdef RT_TEST_MODULES_PROGRAMS_DIR
  return std::string(RT_TEST_MODULES_PROGRAMS_DIR) + "/parameters_program.vmfb";
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
  Status Open(std::vector<Ref<ParameterProvider>> providers) {
    instance_ = vm::Instance::Create();
    RT_RETURN_IF_ERROR(hal::RegisterRefTypes(*instance_));
    RT_ASSIGN_OR_RETURN(device_, CreateCpuDevice(GetParam().device));
    RT_ASSIGN_OR_RETURN(Ref<vm::Module> hal_module, hal::CreateHalModule({device_}));
    RT_ASSIGN_OR_RETURN(Ref<vm::Module> params, CreateIoParametersModule(std::move(providers)));
    RT_ASSIGN_OR_RETURN(Ref<base::MappedFile> file, base::MappedFile::Open(ProgramPath()));
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

  Ref<vm::Instance> instance_;
  Ref<rt::Device> device_;
  Ref<vm::Context> context_;
};

TEST_P(IoParametersTest, LoadsScopedUnscopedPaddedAndSplatParameters) {
  ASSERT_TRUE(IsOk(Open(StandardProviders(GetParam().host_visible))));
  auto main = Run("main", "1x2xf32=1 1");
  ASSERT_TRUE(IsOk(main.status()));
  EXPECT_EQ(*main, "1x2xf32=[4.5 5.5]");
  auto padded = Run("padded", "4xi32=0");
  ASSERT_TRUE(IsOk(padded.status()));
  EXPECT_EQ(*padded, "4xi32=1 2 0 0");
  auto splat = Run("splat", "4xf32=0");
  ASSERT_TRUE(IsOk(splat.status()));
  EXPECT_EQ(*splat, "4xf32=7 7 7 7");
  auto splat64 = Run("splat64", "3xi64=0");  // an 8-byte pattern (IREE's runtime refuses these)
  ASSERT_TRUE(IsOk(splat64.status()));
  EXPECT_EQ(*splat64, "3xi64=-3 -3 -3");
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
