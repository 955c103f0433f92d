// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// C ABI tests of parameter sets and the io_parameters module, running
// tests/unit/modules/programs/parameters.mlir: main(x) = x * w + b and padded() read scope
// "model", splat() and splat64() the unscoped scope. The parameters come from the archives
// tests/tools/parameters/gen_archives.py writes (in each mode, and from memory), from the
// caller's memory and from splats; expected results are computed from the same values.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <tuple>

#include "vm_test_util.h"

namespace iree_rt_test {
namespace {

// The values gen_archives.py stores in scope "model" (and the unscoped splats: 7.0f over 16
// bytes, int32 -1 over 24 bytes).
constexpr float kW[2][2] = {{1, 2}, {3, 4}};
constexpr float kB[2] = {0.5f, -0.5f};
constexpr int32_t kPadded[4] = {1, 2, 3, 4};

std::string ArchivePath(const char* name) {
  return std::string(IREE_RT_TEST_PARAMETER_ARCHIVES_DIR) + "/" + name;
}

// x * w + b for a 1x2 x.
std::vector<float> Affine(const float x[2], const float w[2][2], const float b[2]) {
  return {x[0] * w[0][0] + x[1] * w[1][0] + b[0], x[0] * w[0][1] + x[1] * w[1][1] + b[1]};
}

// Counts release callbacks.
void CountRelease(void* user_data) { ++*static_cast<int*>(user_data); }

// Caller memory aligned as CPU devices need to use it in place.
struct AlignedFree {
  void operator()(void* p) const { std::free(p); }
};
using AlignedBytes = std::unique_ptr<uint8_t[], AlignedFree>;
AlignedBytes AlignedCopy(const void* data, size_t size, size_t alignment = 64) {
  AlignedBytes bytes(static_cast<uint8_t*>(
      std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment)));
  std::memcpy(bytes.get(), data, size);
  return bytes;
}

class ParametersApiTest : public VmApiTest {
 protected:
  // A new set for |scope| (NULL: unscoped), released at the end of the test.
  iree_rt_parameters_t Set(const char* scope) {
    iree_rt_parameters_t set = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_parameters_create(instance_, scope, &set)));
    return Keep(set, iree_rt_parameters_release);
  }
  // The unscoped splats the program reads, from the caller (not from an archive).
  iree_rt_parameters_t Splats() {
    iree_rt_parameters_t set = Set(nullptr);
    const float seven = 7;
    const int64_t minus_one = -1;
    EXPECT_TRUE(IsOk(iree_rt_parameters_add_splat(set, "splat", &seven, 4, 16)));
    EXPECT_TRUE(IsOk(iree_rt_parameters_add_splat(set, "splat64", &minus_one, 8, 24)));
    return set;
  }
  // Links [hal, io_parameters over |sets|, the program at |program_path|]. The module and context
  // are kept.
  iree_rt_status_t Open(std::vector<iree_rt_parameters_t> sets, iree_rt_context_t* out_context,
                        const std::string& program_path = ProgramPath("parameters")) {
    iree_rt_module_t hal = nullptr, params = nullptr, program = nullptr;
    iree_rt_status_t status = iree_rt_module_create_hal(instance_, &device_, 1, &hal);
    if (!status) status = iree_rt_module_create_io_parameters(instance_, sets.data(), sets.size(), &params);
    if (!status) status = iree_rt_module_load_file(instance_, program_path.c_str(), &program);
    const iree_rt_module_t modules[] = {hal, params, program};
    if (!status) status = iree_rt_context_create(instance_, modules, 3, out_context);
    if (!status) Keep(*out_context, iree_rt_context_release);
    iree_rt_module_release(hal);
    iree_rt_module_release(params);
    iree_rt_module_release(program);
    return status;
  }
  iree_rt_context_t OpenOk(std::vector<iree_rt_parameters_t> sets,
                           const std::string& program_path = ProgramPath("parameters")) {
    iree_rt_context_t context = nullptr;
    EXPECT_TRUE(IsOk(Open(std::move(sets), &context, program_path)));
    return context;
  }

  // Calls |function| of |context| with one tensor argument and returns its one tensor result.
  template <typename T>
  std::vector<T> Call(iree_rt_context_t context, const char* function, std::vector<T> input,
                      std::vector<int64_t> shape, iree_rt_element_type_t type) {
    const uint64_t bytes = input.size() * sizeof(T);
    iree_rt_buffer_t buffer = Allocate(device_, bytes);
    EXPECT_TRUE(IsOk(iree_rt_buffer_write(buffer, 0, input.data(), bytes)));
    iree_rt_buffer_view_t view = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_buffer_view_create(buffer, shape.data(), shape.size(), type,
                                                IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view)));
    Keep(view, iree_rt_buffer_view_release);
    iree_rt_value_list_t args = List(), results = List();
    EXPECT_TRUE(IsOk(iree_rt_value_list_push_buffer_view(args, view)));
    std::vector<T> out(input.size());
    if (!context) return out;
    iree_rt_function_t f = Lookup(context, function);
    EXPECT_TRUE(IsOk(iree_rt_function_call(f, args, results)));
    iree_rt_buffer_view_t result = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_value_list_get_buffer_view(results, 0, &result)));
    if (!result) return out;
    Keep(result, iree_rt_buffer_view_release);
    iree_rt_buffer_t result_buffer = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_buffer_view_buffer(result, &result_buffer)));
    EXPECT_TRUE(IsOk(iree_rt_buffer_read(result_buffer, 0, out.data(), bytes)));
    return out;
  }
  std::vector<float> Main(iree_rt_context_t context, const float x[2]) {
    return Call<float>(context, "main", {x[0], x[1]}, {1, 2}, IREE_RT_ELEMENT_TYPE_FLOAT_32);
  }
  std::vector<int32_t> Padded(iree_rt_context_t context) {
    return Call<int32_t>(context, "padded", {0, 0, 0, 0}, {4}, IREE_RT_ELEMENT_TYPE_INT_32);
  }
  // Checks every function of the program against the model values and the unscoped splats.
  void ExpectModelAndSplats(iree_rt_context_t context, const float (&w)[2][2] = kW,
                            const float (&b)[2] = kB, const int32_t (&padded)[4] = kPadded) {
    const float x[2] = {2, -1};
    EXPECT_EQ(Main(context, x), Affine(x, w, b));
    EXPECT_EQ(Padded(context), std::vector<int32_t>(padded, padded + 4));
    EXPECT_EQ(Call<float>(context, "splat", {0, 0, 0, 0}, {4}, IREE_RT_ELEMENT_TYPE_FLOAT_32),
              std::vector<float>(4, 7.0f));
    EXPECT_EQ(Call<int64_t>(context, "splat64", {0, 0, 0}, {3}, IREE_RT_ELEMENT_TYPE_INT_64),
              std::vector<int64_t>(3, -1));
  }
  // The model's entries, as (key, length) pairs in the set's order.
  std::vector<std::pair<std::string, uint64_t>> Entries(iree_rt_parameters_t set) {
    size_t count = 0;
    EXPECT_TRUE(IsOk(iree_rt_parameters_count(set, &count)));
    std::vector<std::pair<std::string, uint64_t>> entries;
    for (size_t i = 0; i < count; ++i) {
      const char* key = nullptr;
      uint64_t length = 0;
      EXPECT_TRUE(IsOk(iree_rt_parameters_entry(set, i, &key, &length)));
      entries.emplace_back(key, length);
    }
    return entries;
  }
};

TEST_F(ParametersApiTest, ArchiveFilesInEveryMode) {
  const std::vector<std::vector<const char*>> archives = {
      {"model.irpa"}, {"model.safetensors"}, {"model.gguf"}, {"model_w.irpa", "model_rest.irpa"}};
  for (iree_rt_parameter_mode_t mode :
       {IREE_RT_PARAMETER_MODE_MMAP, IREE_RT_PARAMETER_MODE_PRELOAD, IREE_RT_PARAMETER_MODE_FILE}) {
    for (const auto& files : archives) {
      SCOPED_TRACE(std::string(files[0]) + " mode " + std::to_string(mode));
      iree_rt_parameters_t model = Set("model");
      for (const char* file : files) {
        ASSERT_TRUE(IsOk(iree_rt_parameters_add_file(model, ArchivePath(file).c_str(), mode)));
      }
      iree_rt_parameters_t unscoped = Set("");
      ASSERT_TRUE(IsOk(iree_rt_parameters_add_file(unscoped, ArchivePath("unscoped.irpa").c_str(), mode)));
      auto entries = Entries(model);
      std::sort(entries.begin(), entries.end());
      EXPECT_EQ(entries, (std::vector<std::pair<std::string, uint64_t>>{
                             {"b", sizeof(kB)}, {"padded", sizeof(kPadded)}, {"w", sizeof(kW)}}));
      ExpectModelAndSplats(OpenOk({model, unscoped}));
    }
  }
}

TEST_F(ParametersApiTest, ScopeAndEntriesInInsertionOrder) {
  iree_rt_parameters_t model = Set("model");
  const char* scope = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_parameters_scope(model, &scope)));
  EXPECT_STREQ(scope, "model");
  ASSERT_TRUE(IsOk(iree_rt_parameters_scope(Set(nullptr), &scope)));
  EXPECT_STREQ(scope, "");
  const uint8_t byte = 1;
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_splat(model, "z", &byte, 1, 5)));
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_file(model, ArchivePath("model_w.irpa").c_str(),
                                               IREE_RT_PARAMETER_MODE_MMAP)));
  const char* first_key = nullptr;
  uint64_t length = 0;
  ASSERT_TRUE(IsOk(iree_rt_parameters_entry(model, 0, &first_key, &length)));
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_memory(model, "a", kB, sizeof(kB),
                                                 IREE_RT_PARAMETERS_FLAG_COPY, nullptr, nullptr)));
  EXPECT_EQ(Entries(model), (std::vector<std::pair<std::string, uint64_t>>{
                                {"z", 5}, {"w", sizeof(kW)}, {"a", sizeof(kB)}}));
  EXPECT_STREQ(first_key, "z");  // borrowed keys survive later additions
  EXPECT_TRUE(HasCode(iree_rt_parameters_entry(model, 3, &first_key, &length),
                      IREE_RT_STATUS_OUT_OF_RANGE));
}

TEST_F(ParametersApiTest, CallerMemoryIsUsedInPlaceAndReleasedLast) {
  AlignedBytes w = AlignedCopy(kW, sizeof(kW)), b = AlignedCopy(kB, sizeof(kB));
  AlignedBytes padded = AlignedCopy(kPadded, sizeof(kPadded));
  int released = 0;
  iree_rt_parameters_t model = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_parameters_create(instance_, "model", &model)));
  for (auto [key, data, size] : {std::tuple{"w", w.get(), sizeof(kW)}, std::tuple{"b", b.get(), sizeof(kB)},
                                 std::tuple{"padded", padded.get(), sizeof(kPadded)}}) {
    ASSERT_TRUE(IsOk(iree_rt_parameters_add_memory(model, key, data, size, IREE_RT_PARAMETERS_FLAG_NONE,
                                                   CountRelease, &released)));
  }
  iree_rt_context_t context = nullptr;
  ASSERT_TRUE(IsOk(Open({model, Splats()}, &context)));
  iree_rt_context_retain(context);  // outlives the test's Keep
  const float x[2] = {1, 1};
  EXPECT_EQ(Main(context, x), Affine(x, kW, kB));
  EXPECT_EQ(Padded(context), std::vector<int32_t>(kPadded, kPadded + 4));
  // A CPU device reads aligned caller memory in place: the program sees a change to it.
  float changed[2][2] = {{1, 2}, {3, 14}};
  std::memcpy(w.get(), changed, sizeof(changed));
  EXPECT_EQ(Main(context, x), Affine(x, changed, kB));

  iree_rt_parameters_release(model);
  EXPECT_EQ(released, 0);  // the module holds the set, the context the module
  iree_rt_context_release(context);
  EXPECT_EQ(released, 0);  // the test still holds the context
  TearDown();
  EXPECT_EQ(released, 3);
}

TEST_F(ParametersApiTest, CopiedMemoryIsReleasedAtOnce) {
  AlignedBytes w = AlignedCopy(kW, sizeof(kW));
  int released = 0;
  iree_rt_parameters_t model = Set("model");
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_memory(model, "w", w.get(), sizeof(kW),
                                                 IREE_RT_PARAMETERS_FLAG_COPY, CountRelease, &released)));
  EXPECT_EQ(released, 1);
  std::memset(w.get(), 0xFF, sizeof(kW));  // the caller's bytes are no longer used
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_memory(model, "b", kB, sizeof(kB),
                                                 IREE_RT_PARAMETERS_FLAG_COPY, nullptr, nullptr)));
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_memory(model, "padded", kPadded, sizeof(kPadded),
                                                 IREE_RT_PARAMETERS_FLAG_COPY, CountRelease, &released)));
  EXPECT_EQ(released, 2);
  ExpectModelAndSplats(OpenOk({model, Splats()}));
  TearDown();
  EXPECT_EQ(released, 2);
}

class ArchiveMemoryTest : public ParametersApiTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(ArchiveMemoryTest, UsedInPlaceAndReleasedLast) {
  const char* format = GetParam();
  const std::vector<char> file = ReadFile(ArchivePath((std::string("model.") + format).c_str()));
  ASSERT_FALSE(file.empty());
  // Page-aligned, as a mapped file is, so the archive's own alignment holds in memory.
  AlignedBytes archive = AlignedCopy(file.data(), file.size(), 4096);
  int released = 0;
  iree_rt_parameters_t model = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_parameters_create(instance_, "model", &model)));
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_archive_memory(model, format, archive.get(), file.size(),
                                                         IREE_RT_PARAMETERS_FLAG_NONE, CountRelease,
                                                         &released)));
  iree_rt_context_t context = nullptr;
  ASSERT_TRUE(IsOk(Open({model, Splats()}, &context)));
  iree_rt_parameters_release(model);
  ExpectModelAndSplats(context);
  EXPECT_EQ(released, 0);
  TearDown();  // releases the context, the last holder of the module
  EXPECT_EQ(released, 1);
}

INSTANTIATE_TEST_SUITE_P(Formats, ArchiveMemoryTest, ::testing::Values("irpa", "safetensors", "gguf"),
                         [](const auto& info) { return std::string(info.param); });

TEST_F(ParametersApiTest, CopiedArchiveInMemory) {
  std::vector<char> file = ReadFile(ArchivePath("model.irpa"));
  int released = 0;
  iree_rt_parameters_t model = Set("model");
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_archive_memory(
      model, "irpa", file.data(), file.size(), IREE_RT_PARAMETERS_FLAG_COPY, CountRelease, &released)));
  EXPECT_EQ(released, 1);
  std::fill(file.begin(), file.end(), 0);
  ExpectModelAndSplats(OpenOk({model, Splats()}));
  EXPECT_EQ(released, 1);
}

TEST_F(ParametersApiTest, SplatsFromTheCaller) {
  iree_rt_parameters_t model = Set("model");
  const float w = 0.25f, b = -2;
  const int32_t padded = 9;
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_splat(model, "w", &w, sizeof(w), sizeof(kW))));
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_splat(model, "b", &b, sizeof(b), sizeof(kB))));
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_splat(model, "padded", &padded, sizeof(padded), 16)));
  iree_rt_context_t context = OpenOk({model, Splats()});
  const float ws[2][2] = {{w, w}, {w, w}}, bs[2] = {b, b};
  const int32_t nines[4] = {padded, padded, padded, padded};
  ExpectModelAndSplats(context, ws, bs, nines);
}

// The compiler's parameter encoder (tests/unit/modules: parameters.mlir compiled with
// --iree-parameter-encoder-output-file) scatters all five parameters into "encoded"::"parameter0";
// given the caller's writable memory for it, the rewritten program then runs on that memory alone.
TEST_F(ParametersApiTest, WritableMemoryTakesTheCompilerEncodersScatters) {
  const std::string dir = IREE_RT_TEST_ENCODER_DIR;
  std::vector<uint8_t> poison(4096, 0xEE);
  AlignedBytes out = AlignedCopy(poison.data(), poison.size());
  iree_rt_parameters_t model = Set("model");
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_file(model, ArchivePath("model.irpa").c_str(), IREE_RT_PARAMETER_MODE_MMAP)));
  iree_rt_parameters_t encoded = Set("encoded");
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_memory(encoded, "parameter0", out.get(), poison.size(),
                                                    IREE_RT_PARAMETERS_FLAG_WRITABLE | IREE_RT_PARAMETERS_FLAG_COPY,
                                                    nullptr, nullptr),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "cannot be combined"));
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_memory(encoded, "parameter0", out.get(), poison.size(),
                                                 IREE_RT_PARAMETERS_FLAG_WRITABLE, nullptr, nullptr)));
  iree_rt_context_t encoder = OpenOk({model, Splats(), encoded}, dir + "/parameters_encoder.vmfb");
  ASSERT_NE(encoder, nullptr);
  iree_rt_semaphore_t semaphore = nullptr;
  iree_rt_fence_t wait = nullptr, signal = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_semaphore_create(device_, 0, &semaphore)));
  Keep(semaphore, iree_rt_semaphore_release);
  ASSERT_TRUE(IsOk(iree_rt_fence_create(&wait)));
  Keep(wait, iree_rt_fence_release);
  ASSERT_TRUE(IsOk(iree_rt_fence_create(&signal)));
  Keep(signal, iree_rt_fence_release);
  ASSERT_TRUE(IsOk(iree_rt_fence_insert(signal, semaphore, 1)));
  iree_rt_value_list_t args = List();
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_list(args, List())));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_fence(args, wait)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_push_fence(args, signal)));
  ASSERT_TRUE(IsOk(iree_rt_function_call(Lookup(encoder, "__encode_parameters_all"), args, nullptr)));
  ASSERT_TRUE(IsOk(iree_rt_fence_wait(signal, INT64_MAX)));
  EXPECT_NE(std::vector<uint8_t>(out.get(), out.get() + poison.size()), poison) << "nothing was scattered";

  iree_rt_parameters_t reread = Set("encoded");
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_memory(reread, "parameter0", out.get(), poison.size(),
                                                 IREE_RT_PARAMETERS_FLAG_NONE, nullptr, nullptr)));
  ExpectModelAndSplats(OpenOk({reread}, dir + "/parameters_encoded_program.vmfb"));
}

TEST_F(ParametersApiTest, KeyAddedTwiceIsRefused) {
  iree_rt_parameters_t model = Set("model");
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_file(model, ArchivePath("model.irpa").c_str(),
                                               IREE_RT_PARAMETER_MODE_MMAP)));
  int released = 0;
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_memory(model, "w", kW, sizeof(kW),
                                                    IREE_RT_PARAMETERS_FLAG_NONE, CountRelease, &released),
                      IREE_RT_STATUS_ALREADY_EXISTS,
                      "parameter 'w' of scope 'model' is in both " + ArchivePath("model.irpa") +
                          " and caller memory"));
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_file(model, ArchivePath("model_rest.irpa").c_str(),
                                                  IREE_RT_PARAMETER_MODE_FILE),
                      IREE_RT_STATUS_ALREADY_EXISTS, "parameter 'b' of scope 'model'"));
  const uint8_t zero = 0;
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_splat(model, "padded", &zero, 1, 16),
                      IREE_RT_STATUS_ALREADY_EXISTS, "parameter 'padded'"));
  EXPECT_EQ(released, 0);  // a refused add leaves the memory with the caller
  EXPECT_EQ(Entries(model).size(), 3u);
  ExpectModelAndSplats(OpenOk({model, Splats()}));
}

TEST_F(ParametersApiTest, TwoSetsOfOneScopeAreRefused) {
  iree_rt_parameters_t a = Set("model"), b = Set("model");
  iree_rt_module_t module = nullptr;
  const iree_rt_parameters_t sets[] = {a, b};
  EXPECT_TRUE(HasCode(iree_rt_module_create_io_parameters(instance_, sets, 2, &module),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "scope 'model'"));
  EXPECT_EQ(module, nullptr);
  // Nothing was frozen by the failed call.
  EXPECT_TRUE(IsOk(iree_rt_parameters_add_memory(a, "w", kW, sizeof(kW), IREE_RT_PARAMETERS_FLAG_COPY,
                                                 nullptr, nullptr)));
}

TEST_F(ParametersApiTest, SetsGivenToAModuleAreFrozen) {
  iree_rt_parameters_t model = Set("model");
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_file(model, ArchivePath("model_w.irpa").c_str(),
                                               IREE_RT_PARAMETER_MODE_MMAP)));
  iree_rt_module_t module = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_module_create_io_parameters(instance_, &model, 1, &module)));
  Keep(module, iree_rt_module_release);
  const std::string frozen = "the parameters of scope 'model' are in use by a module";
  int released = 0;
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_file(model, ArchivePath("model_rest.irpa").c_str(),
                                                  IREE_RT_PARAMETER_MODE_PRELOAD),
                      IREE_RT_STATUS_FAILED_PRECONDITION, frozen));
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_memory(model, "b", kB, sizeof(kB), IREE_RT_PARAMETERS_FLAG_NONE,
                                                    CountRelease, &released),
                      IREE_RT_STATUS_FAILED_PRECONDITION, frozen));
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_memory(model, "b", kB, sizeof(kB), IREE_RT_PARAMETERS_FLAG_COPY,
                                                    CountRelease, &released),
                      IREE_RT_STATUS_FAILED_PRECONDITION, frozen));
  const std::vector<char> file = ReadFile(ArchivePath("model_rest.irpa"));
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_archive_memory(model, "irpa", file.data(), file.size(),
                                                            IREE_RT_PARAMETERS_FLAG_NONE, CountRelease,
                                                            &released),
                      IREE_RT_STATUS_FAILED_PRECONDITION, frozen));
  const uint8_t zero = 0;
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_splat(model, "c", &zero, 1, 4),
                      IREE_RT_STATUS_FAILED_PRECONDITION, frozen));
  EXPECT_EQ(released, 0);
  EXPECT_EQ(Entries(model).size(), 1u);
}

TEST_F(ParametersApiTest, BadArchivesNameTheSourceAndProblem) {
  iree_rt_parameters_t model = Set("model");
  const std::vector<char> irpa = ReadFile(ArchivePath("model.irpa"));
  const std::vector<char> safetensors = ReadFile(ArchivePath("model.safetensors"));
  int released = 0;
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_archive_memory(model, "zip", irpa.data(), irpa.size(),
                                                            IREE_RT_PARAMETERS_FLAG_NONE, CountRelease,
                                                            &released),
                      IREE_RT_STATUS_INVALID_ARGUMENT,
                      "unknown parameter archive format 'zip' (irpa, safetensors or gguf)"));
  // Truncated: the header promises more than the bytes hold.
  iree_rt_status_t status = iree_rt_parameters_add_archive_memory(
      model, "irpa", irpa.data(), 40, IREE_RT_PARAMETERS_FLAG_NONE, CountRelease, &released);
  ASSERT_NE(status, nullptr);
  EXPECT_NE(iree_rt_status_code(status), IREE_RT_STATUS_OK);
  EXPECT_NE(std::string(iree_rt_status_message(status)).find("memory archive 1 (irpa): "),
            std::string::npos) << iree_rt_status_message(status);
  iree_rt_status_free(status);
  status = iree_rt_parameters_add_archive_memory(model, "safetensors", safetensors.data(),
                                                 safetensors.size() - 4, IREE_RT_PARAMETERS_FLAG_COPY,
                                                 CountRelease, &released);
  ASSERT_NE(status, nullptr);
  EXPECT_NE(std::string(iree_rt_status_message(status)).find("memory archive 2 (safetensors): "),
            std::string::npos) << iree_rt_status_message(status);
  iree_rt_status_free(status);
  EXPECT_EQ(released, 0);
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_file(model, ArchivePath("nothere.irpa").c_str(),
                                                  IREE_RT_PARAMETER_MODE_MMAP),
                      IREE_RT_STATUS_NOT_FOUND, "nothere.irpa"));
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_file(model, ProgramPath("parameters").c_str(),
                                                  IREE_RT_PARAMETER_MODE_MMAP),
                      IREE_RT_STATUS_UNIMPLEMENTED, "not a parameter archive"));
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_file(model, ArchivePath("model.irpa").c_str(),
                                                  static_cast<iree_rt_parameter_mode_t>(7)),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "unknown parameter mode 7"));
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_memory(model, "w", kW, sizeof(kW), 0x4, nullptr, nullptr),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "unknown parameters flags 0x4"));
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_archive_memory(model, "irpa", kW, sizeof(kW),
                                                            IREE_RT_PARAMETERS_FLAG_WRITABLE, nullptr, nullptr),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "unknown parameters flags 0x2"));
  const uint8_t pattern[3] = {};
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_splat(model, "s", pattern, 3, 9),
                      IREE_RT_STATUS_INVALID_ARGUMENT,
                      "parameter 's': splat pattern length 3 is not 1, 2, 4, 8 or 16"));
  EXPECT_TRUE(HasCode(iree_rt_parameters_add_splat(model, "s", pattern, 2, 9),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "splat length 9 is not a multiple"));
  EXPECT_EQ(Entries(model).size(), 0u);
}

TEST_F(ParametersApiTest, MissingKeyAndScopeFailTheContextNamingThem) {
  iree_rt_parameters_t model = Set("model");
  ASSERT_TRUE(IsOk(iree_rt_parameters_add_file(model, ArchivePath("model_w.irpa").c_str(),
                                               IREE_RT_PARAMETER_MODE_MMAP)));
  iree_rt_context_t context = nullptr;
  EXPECT_TRUE(HasCode(Open({model, Splats()}, &context), IREE_RT_STATUS_NOT_FOUND,
                      "no parameter 'b' in scope 'model'"));
  EXPECT_TRUE(HasCode(Open({Splats()}, &context), IREE_RT_STATUS_NOT_FOUND,
                      "no parameters for scope 'model'"));
  EXPECT_EQ(context, nullptr);
}

TEST_F(ParametersApiTest, HandlesAreChecked) {
  iree_rt_parameters_t set = nullptr;
  EXPECT_TRUE(IsInvalidArgument(iree_rt_parameters_create(nullptr, "m", &set), "instance"));
  EXPECT_TRUE(IsInvalidArgument(iree_rt_parameters_create(instance_, "m", nullptr), "out_parameters"));
  auto not_a_set = reinterpret_cast<iree_rt_parameters_t>(device_);
  const char* scope = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_parameters_scope(not_a_set, &scope), IREE_RT_STATUS_INVALID_ARGUMENT,
                      "parameter 'parameters' is an iree_rt_device_t, expected an iree_rt_parameters_t"));
  const iree_rt_parameters_t sets[] = {Set("a"), not_a_set};
  iree_rt_module_t module = nullptr;
  EXPECT_TRUE(IsInvalidArgument(iree_rt_module_create_io_parameters(instance_, sets, 2, &module),
                                "parameters[1]"));
  // No sets is a valid (if useless) module; a NULL array with a count is not.
  ASSERT_TRUE(IsOk(iree_rt_module_create_io_parameters(instance_, nullptr, 0, &module)));
  iree_rt_module_release(module);
  EXPECT_TRUE(IsInvalidArgument(iree_rt_module_create_io_parameters(instance_, nullptr, 1, &module),
                                "parameters"));
  iree_rt_parameters_retain(nullptr);
  iree_rt_parameters_release(nullptr);
}

}  // namespace
}  // namespace iree_rt_test
