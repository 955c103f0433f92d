// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExecutableCacheTest and ExecutableTest: preparing the test kernels, format negotiation and export
// reflection (IREE core/executable_cache_test, core/executable_test).
#include <algorithm>

#include "dispatch_util.h"
#include "hal/executable_cache.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::StatusCode;

class ExecutableCacheTest : public DispatchTestBase {
 protected:
  Ref<hal::ExecutableCache> CreateCache() {
    base::StatusOr<Ref<hal::ExecutableCache>> cache = device().CreateExecutableCache();
    EXPECT_TRUE(IsOk(cache));
    return cache.ok() ? std::move(cache).value() : nullptr;
  }
};

TEST_P(ExecutableCacheTest, Create) {
  Ref<hal::ExecutableCache> cache = CreateCache();
  ASSERT_TRUE(cache);
  EXPECT_FALSE(cache->SupportedFormats().empty());
}

TEST_P(ExecutableCacheTest, CanPrepareTheBackendFormat) {
  Ref<hal::ExecutableCache> cache = CreateCache();
  ASSERT_TRUE(cache);
  EXPECT_TRUE(cache->CanPrepareFormat(backend().executable_format));
  const std::vector<std::string> formats = cache->SupportedFormats();
  EXPECT_NE(std::find(formats.begin(), formats.end(), backend().executable_format), formats.end());
}

TEST_P(ExecutableCacheTest, CantPrepareUnknownFormat) {
  Ref<hal::ExecutableCache> cache = CreateCache();
  ASSERT_TRUE(cache);
  EXPECT_FALSE(cache->CanPrepareFormat("FOO?"));
  EXPECT_FALSE(cache->CanPrepareFormat(""));
  const std::vector<uint8_t> data = ExecutableData("abs");
  ASSERT_FALSE(data.empty());
  hal::ExecutableParams params;
  params.format = "FOO?";
  params.data = data;
  // INCOMPATIBLE, naming what the device does support.
  EXPECT_TRUE(IsError(cache->PrepareExecutable(params).status(), StatusCode::kIncompatible,
                      backend().executable_format));
}

TEST_P(ExecutableCacheTest, PrepareExecutable) {
  Ref<hal::ExecutableCache> cache = CreateCache();
  ASSERT_TRUE(cache);
  const std::vector<uint8_t> data = ExecutableData("abs");
  ASSERT_FALSE(data.empty());
  hal::ExecutableParams params;
  params.format = backend().executable_format;
  params.data = data;
  base::StatusOr<Ref<hal::Executable>> executable = cache->PrepareExecutable(params);
  ASSERT_TRUE(IsOk(executable));
  EXPECT_EQ((*executable)->export_count(), 1u);
}

TEST_P(ExecutableCacheTest, EmptyDataIsRejected) {
  Ref<hal::ExecutableCache> cache = CreateCache();
  ASSERT_TRUE(cache);
  hal::ExecutableParams params;
  params.format = backend().executable_format;
  EXPECT_TRUE(IsError(cache->PrepareExecutable(params).status(), StatusCode::kInvalidArgument));
}

TEST_P(ExecutableCacheTest, DataMayBeReleasedAfterPrepare) {
  Ref<hal::Executable> executable;
  {
    Ref<hal::ExecutableCache> cache = CreateCache();
    ASSERT_TRUE(cache);
    std::vector<uint8_t> data = ExecutableData("scale_and_offset");
    ASSERT_FALSE(data.empty());
    hal::ExecutableParams params;
    params.format = backend().executable_format;
    params.data = data;
    base::StatusOr<Ref<hal::Executable>> prepared = cache->PrepareExecutable(params);
    ASSERT_TRUE(IsOk(prepared));
    executable = *prepared;
    std::fill(data.begin(), data.end(), 0xCC);  // scribble over the caller's copy, then free it
  }
  Ref<hal::Buffer> input = AllocateWith<int32_t>({1, 2, 3, 4});
  Ref<hal::Buffer> output = AllocateFilled(16, 0);
  Ref<hal::CommandBuffer> command_buffer = CreateCommandBuffer();
  ASSERT_TRUE(input && output && command_buffer);
  Bindings bindings(mode());
  ASSERT_TRUE(IsOk(RecordScaleAndOffset(*command_buffer, executable, bindings.Bind(input),
                                        bindings.Bind(output), 1, 100)));
  ASSERT_TRUE(IsOk(command_buffer->Finalize()));
  ASSERT_TRUE(IsOk(SubmitAndWait(command_buffer, bindings.table())));
  EXPECT_EQ(ReadAs<int32_t>(*output), (std::vector<int32_t>{101, 102, 103, 104}));
}

TEST_P(ExecutableCacheTest, PrepareTheSameDataTwice) {
  Ref<hal::Executable> first = LoadExecutable("abs");
  Ref<hal::Executable> second = LoadExecutable("abs");
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->export_info(0).name, second->export_info(0).name);
}

TEST_P(ExecutableCacheTest, DeviceAnswersFormatQueries) {
  base::StatusOr<int64_t> supported = device().QueryI64("hal.executable.format", backend().executable_format);
  ASSERT_TRUE(IsOk(supported));
  EXPECT_EQ(*supported, 1);
  base::StatusOr<int64_t> unsupported = device().QueryI64("hal.executable.format", "FOO?");
  ASSERT_TRUE(IsOk(unsupported));
  EXPECT_EQ(*unsupported, 0);
}

INSTANTIATE_TEST_SUITE_P(Cts, ExecutableCacheTest, ::testing::ValuesIn(BackendParams()), BackendName);

// ---------------------------------------------------------------------------------------------
// ExecutableTest: reflection of every test kernel.

class ExecutableTest : public DispatchTestBase {};

struct ExpectedExport {
  const char* kernel;
  const char* name;
  uint32_t ordinal;
  uint32_t constants;
  uint32_t bindings;
};

TEST_P(ExecutableTest, ExportInfoOfEveryTestKernel) {
  const ExpectedExport expected[] = {
      {"abs", "abs", 0, 0, 2},
      {"write_constants", "write_constants", 0, 4, 1},
      {"scale_and_offset", "scale_and_offset", 0, 2, 2},
      {"write_workgroup_ids", "write_workgroup_ids", 0, 0, 1},
      {"multi_entrypoint", "negate", 0, 0, 2},
      {"multi_entrypoint", "double_it", 1, 0, 2},
      {"write_dispatch_params", "write_dispatch_params", 0, 0, 1},
  };
  for (const ExpectedExport& e : expected) {
    SCOPED_TRACE(e.name);
    Ref<hal::Executable> executable = LoadExecutable(e.kernel);
    ASSERT_TRUE(executable);
    ASSERT_LT(e.ordinal, executable->export_count());
    const hal::ExportInfo& info = executable->export_info(e.ordinal);
    EXPECT_EQ(info.name, e.name);
    EXPECT_EQ(info.constant_count, e.constants);
    EXPECT_EQ(info.binding_count, e.bindings);
    for (uint32_t size : info.workgroup_size) EXPECT_GE(size, 1u);
    base::StatusOr<uint32_t> ordinal = executable->LookupExport(e.name);
    ASSERT_TRUE(IsOk(ordinal));
    EXPECT_EQ(*ordinal, e.ordinal);
  }
}

TEST_P(ExecutableTest, ExportCount) {
  Ref<hal::Executable> single = LoadExecutable("abs");
  Ref<hal::Executable> multi = LoadExecutable("multi_entrypoint");
  ASSERT_TRUE(single && multi);
  EXPECT_EQ(single->export_count(), 1u);
  EXPECT_EQ(multi->export_count(), 2u);
}

TEST_P(ExecutableTest, LookupExportByNameNotFound) {
  Ref<hal::Executable> executable = LoadExecutable("abs");
  ASSERT_TRUE(executable);
  EXPECT_TRUE(IsError(executable->LookupExport("not_an_export").status(), StatusCode::kNotFound,
                      "not_an_export"));
  // The message lists what the executable has, so a spelling mismatch shows.
  EXPECT_TRUE(IsError(executable->LookupExport("not_an_export").status(), StatusCode::kNotFound,
                      "its 1 exports are 'abs'"));
  EXPECT_TRUE(IsError(executable->LookupExport("").status(), StatusCode::kNotFound));
  EXPECT_TRUE(IsError(executable->LookupExport("ab").status(), StatusCode::kNotFound));
}

INSTANTIATE_TEST_SUITE_P(Cts, ExecutableTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
