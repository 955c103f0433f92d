// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cts_test.h"

#include <cctype>
#include <iostream>
#include <sstream>

#include "hal/executable_cache.h"

namespace iree_rt::cts {

using base::Ref;
using base::Status;
using base::StatusCode;

std::vector<CtsParam> BackendParams() {
  std::vector<CtsParam> params;
  for (const Backend* backend : Registry::Get().SelectedBackends()) {
    params.push_back({backend, RecordingMode::kDirect});
  }
  return params;
}

std::vector<CtsParam> BackendAndModeParams() {
  std::vector<CtsParam> params;
  for (const Backend* backend : Registry::Get().SelectedBackends()) {
    params.push_back({backend, RecordingMode::kDirect});
    params.push_back({backend, RecordingMode::kIndirect});
  }
  return params;
}

void PrintTo(const CtsParam& param, std::ostream* os) {
  *os << param.backend->name << (param.mode == RecordingMode::kIndirect ? " (indirect)" : " (direct)");
}

std::string BackendName(const ::testing::TestParamInfo<CtsParam>& info) {
  std::string name = info.param.backend->name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

std::string BackendModeName(const ::testing::TestParamInfo<CtsParam>& info) {
  return BackendName(info) + (info.param.mode == RecordingMode::kIndirect ? "_indirect" : "_direct");
}

hal::BufferRef Bindings::Bind(const Ref<hal::Buffer>& buffer, uint64_t offset, uint64_t length) {
  if (mode_ == RecordingMode::kDirect) return hal::BufferRef{buffer, 0, offset, length};
  const uint32_t slot = static_cast<uint32_t>(table_.size());
  table_.push_back(hal::BufferBinding{buffer, offset, length});
  return hal::BufferRef{nullptr, slot, 0, length};
}

CtsTest::CtsTest() = default;
CtsTest::~CtsTest() = default;

std::string CtsTest::CurrentTestName() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string_view suite = info->test_suite_name();  // "Cts/SemaphoreTest"
  std::string_view name = info->name();              // "NoOp/local_sync"
  if (size_t slash = suite.rfind('/'); slash != std::string_view::npos) suite.remove_prefix(slash + 1);
  if (size_t slash = name.find('/'); slash != std::string_view::npos) name = name.substr(0, slash);
  return std::string(suite) + "." + std::string(name);
}

void CtsTest::SetUp() {
  const std::string test_name = CurrentTestName();
  if (const Expectation* unsupported = FindExpectation(backend().unsupported, test_name)) {
    GTEST_SKIP() << "unsupported on " << backend().name << ": " << unsupported->reason;
  }
  base::StatusOr<Ref<hal::Device>> device = backend().create_device();
  if (device.status().code() == StatusCode::kUnavailable) {
    GTEST_SKIP() << "backend " << backend().name << " unavailable: " << device.status().ToString();
  }
  ASSERT_TRUE(IsOk(device)) << "creating a " << backend().name << " device";
  device_ = std::move(device).value();
  ASSERT_TRUE(device_);
  xfail_ = FindExpectation(backend().xfail, test_name);
  if (xfail_) {
    xfail_results_ = std::make_unique<::testing::TestPartResultArray>();
    xfail_reporter_ = std::make_unique<::testing::ScopedFakeTestPartResultReporter>(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ALL_THREADS, xfail_results_.get());
  }
}

void CtsTest::TearDown() {
  if (!xfail_) return;
  xfail_reporter_.reset();  // report normally from here on
  std::string first_failure, skip_message;
  for (int i = 0; i < xfail_results_->size(); ++i) {
    const ::testing::TestPartResult& result = xfail_results_->GetTestPartResult(i);
    if (result.failed() && first_failure.empty()) {
      std::ostringstream text;
      text << (result.file_name() ? result.file_name() : "?") << ":" << result.line_number() << ": "
           << result.summary();
      first_failure = text.str();
    } else if (result.skipped() && skip_message.empty()) {
      skip_message = result.message();
    }
  }
  if (!first_failure.empty()) {
    GTEST_SKIP() << "expected failure on " << backend().name << " (" << xfail_->reason
                 << "); it failed with: " << first_failure;
  }
  if (!skip_message.empty()) GTEST_SKIP() << skip_message;
  if (VerifyXfails()) {
    ADD_FAILURE() << "stale xfail: '" << xfail_->pattern << "' (" << xfail_->reason
                  << ") passed on " << backend().name << "; remove it from the xfail list";
  } else {
    std::cout << "note: xfail '" << xfail_->pattern << "' passed on " << backend().name
              << " (set RT_CTS_VERIFY_XFAILS=1 to fail stale xfails)\n";
  }
}

hal::BufferParams CtsTest::DefaultBufferParams() {
  hal::BufferParams params;
  params.type = hal::MemoryType::kDeviceLocal | hal::MemoryType::kHostVisible;
  params.usage = hal::BufferUsage::kTransfer | hal::BufferUsage::kMappingScoped |
                 hal::BufferUsage::kDispatchStorage | hal::BufferUsage::kDispatchIndirectParameters;
  params.access = hal::MemoryAccess::kAll;
  return params;
}

Ref<hal::Buffer> CtsTest::AllocateBuffer(uint64_t size, const hal::BufferParams& params) {
  base::StatusOr<Ref<hal::Buffer>> buffer = device_->allocator().AllocateBuffer(params, size);
  if (!buffer.ok()) {
    ADD_FAILURE() << "allocating " << size << " bytes: " << buffer.status().ToString();
    return nullptr;
  }
  return std::move(buffer).value();
}

Ref<hal::Buffer> CtsTest::AllocateFilled(uint64_t size, uint8_t value) {
  Ref<hal::Buffer> buffer = AllocateBuffer(size);
  if (buffer && size) {
    Status status = buffer->Fill(0, size, value, 1);
    if (!status.ok()) ADD_FAILURE() << "filling a new buffer: " << status.ToString();
  }
  return buffer;
}

std::vector<uint8_t> CtsTest::ReadBytes(hal::Buffer& buffer, uint64_t offset, uint64_t length) {
  base::StatusOr<uint64_t> resolved = buffer.ResolveRange(offset, length);
  if (!resolved.ok()) {
    ADD_FAILURE() << "reading back: " << resolved.status().ToString();
    return {};
  }
  std::vector<uint8_t> bytes(*resolved);
  Status status = buffer.Read(offset, bytes.data(), bytes.size());
  if (!status.ok()) {
    ADD_FAILURE() << "reading back: " << status.ToString();
    return {};
  }
  return bytes;
}

Ref<hal::Semaphore> CtsTest::CreateSemaphore(uint64_t initial_value) {
  base::StatusOr<Ref<hal::Semaphore>> semaphore = device_->CreateSemaphore(initial_value);
  if (!semaphore.ok()) {
    ADD_FAILURE() << "creating a semaphore: " << semaphore.status().ToString();
    return nullptr;
  }
  return std::move(semaphore).value();
}

Status CtsTest::WaitFor(hal::Semaphore& semaphore, uint64_t value) {
  return semaphore.Wait(value, kWaitTimeoutNs);
}

uint64_t CtsTest::ValueOf(hal::Semaphore& semaphore) {
  base::StatusOr<uint64_t> value = semaphore.Query();
  if (!value.ok()) {
    ADD_FAILURE() << "semaphore failed: " << value.status().ToString();
    return UINT64_MAX;
  }
  return *value;
}

Ref<hal::CommandBuffer> CtsTest::CreateCommandBuffer(hal::CommandBufferModeBits mode,
                                                     hal::CommandCategoryBits categories) {
  return CreateCommandBufferWithCapacity(mode, categories, indirect() ? kBindingCapacity : 0);
}

Ref<hal::CommandBuffer> CtsTest::CreateCommandBufferWithCapacity(hal::CommandBufferModeBits mode,
                                                                 hal::CommandCategoryBits categories,
                                                                 uint32_t binding_capacity) {
  base::StatusOr<Ref<hal::CommandBuffer>> command_buffer =
      device_->CreateCommandBuffer(mode, categories, hal::kQueueAffinityAny, binding_capacity);
  if (!command_buffer.ok()) {
    ADD_FAILURE() << "creating a command buffer: " << command_buffer.status().ToString();
    return nullptr;
  }
  return std::move(command_buffer).value();
}

Status CtsTest::SubmitAndWait(const Ref<hal::CommandBuffer>& command_buffer,
                              std::span<const hal::BufferBinding> binding_table) {
  Ref<hal::Semaphore> done = CreateSemaphore(0);
  if (!done) return base::InternalError("no semaphore");
  hal::SemaphorePoint signal{done.get(), 1};
  RT_RETURN_IF_ERROR(device_->QueueExecute(hal::kQueueAffinityAny, {}, {&signal, 1}, command_buffer,
                                           binding_table));
  return WaitFor(*done, 1);
}

bool CtsTest::HasTestExecutables() const {
  if (!backend().executable_data) return false;
  return backend().executable_data("abs").status().code() != StatusCode::kUnavailable;
}

std::vector<uint8_t> CtsTest::ExecutableData(std::string_view name) {
  base::StatusOr<std::vector<uint8_t>> data = backend().executable_data(name);
  if (!data.ok()) {
    ADD_FAILURE() << "test kernel '" << name << "': " << data.status().ToString();
    return {};
  }
  return std::move(data).value();
}

Ref<hal::Executable> CtsTest::LoadExecutable(std::string_view name) {
  std::vector<uint8_t> data = ExecutableData(name);
  if (data.empty()) return nullptr;
  base::StatusOr<Ref<hal::ExecutableCache>> cache = device_->CreateExecutableCache();
  if (!cache.ok()) {
    ADD_FAILURE() << "creating an executable cache: " << cache.status().ToString();
    return nullptr;
  }
  hal::ExecutableParams params;
  params.format = backend().executable_format;
  params.data = data;
  base::StatusOr<Ref<hal::Executable>> executable = (*cache)->PrepareExecutable(params);
  if (!executable.ok()) {
    ADD_FAILURE() << "preparing '" << name << "': " << executable.status().ToString();
    return nullptr;
  }
  return std::move(executable).value();
}

}  // namespace iree_rt::cts
