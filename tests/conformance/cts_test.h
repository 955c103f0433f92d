// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The fixture every conformance suite derives from, and the helpers the suites share.
//
// A case is parameterized by backend (and, for command-buffer suites, by recording mode). SetUp
// applies the backend's unsupported/xfail lists and creates a fresh device; helpers allocate,
// read back, submit and wait with bounded timeouts, so a broken driver fails a case instead of
// hanging the run. Helpers that cannot do their job record a test failure and return null/empty;
// callers ASSERT on the result before using it.
#ifndef IREE_RT_TESTS_CONFORMANCE_CTS_TEST_H_
#define IREE_RT_TESTS_CONFORMANCE_CTS_TEST_H_

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "status_matchers.h"
#include "base/ref_object.h"
#include "base/status.h"
#include "hal/buffer.h"
#include "hal/command_buffer.h"
#include "hal/device.h"
#include "hal/executable.h"
#include "hal/semaphore.h"
#include "registry.h"

namespace iree_rt::cts {

using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

// Every wait in the suite is bounded: a lost signal fails the case instead of hanging ctest.
inline constexpr int64_t kWaitTimeoutNs = 60'000'000'000;  // 60 s (TSan on 2 cores is slow)
// Binding-table capacity of command buffers recorded in indirect mode.
inline constexpr uint32_t kBindingCapacity = 16;

// How command buffers reference buffers: directly, or through binding-table slots.
enum class RecordingMode { kDirect, kIndirect };

struct CtsParam {
  const Backend* backend = nullptr;
  RecordingMode mode = RecordingMode::kDirect;
};

// Prints "local-task-w4 (indirect)": ctest shows it in test names, so it must be stable.
void PrintTo(const CtsParam& param, std::ostream* os);

// One parameter per backend of this binary's driver.
std::vector<CtsParam> BackendParams();
// Every backend in both recording modes.
std::vector<CtsParam> BackendAndModeParams();
// Parameter names: "local_task_w4" (backend, non-alphanumerics → '_') for BackendParams suites,
// "local_task_w4_indirect" (backend + mode) for BackendAndModeParams suites.
std::string BackendName(const ::testing::TestParamInfo<CtsParam>& info);
std::string BackendModeName(const ::testing::TestParamInfo<CtsParam>& info);


// Buffer refs in the fixture's recording mode. Direct: {buffer, offset, length}. Indirect: a new
// slot whose table entry carries (buffer, offset, length) and a ref {slot, 0, length}, so the
// binding-table offset path is exercised too.
class Bindings {
 public:
  explicit Bindings(RecordingMode mode) : mode_(mode) {}
  hal::BufferRef Bind(const base::Ref<hal::Buffer>& buffer, uint64_t offset = 0,
                      uint64_t length = hal::kWholeBuffer);
  std::span<const hal::BufferBinding> table() const { return table_; }

 private:
  RecordingMode mode_;
  std::vector<hal::BufferBinding> table_;
};

class CtsTest : public ::testing::TestWithParam<CtsParam> {
 protected:
  CtsTest();
  ~CtsTest() override;
  // Derived fixtures that override these must call the base versions first (SetUp) / last
  // (TearDown), and return early from SetUp when IsSkipped() or HasFatalFailure().
  void SetUp() override;
  void TearDown() override;

  const Backend& backend() const { return *GetParam().backend; }
  RecordingMode mode() const { return GetParam().mode; }
  bool indirect() const { return mode() == RecordingMode::kIndirect; }
  hal::Device& device() { return *device_; }
  const base::Ref<hal::Device>& device_ref() const { return device_; }
  // Drops the fixture's device reference (cases checking device destruction).
  void ReleaseDevice() { device_ = nullptr; }

  // Host-visible, mappable, transfer + dispatch storage: what every suite reads back from.
  static hal::BufferParams DefaultBufferParams();
  base::Ref<hal::Buffer> AllocateBuffer(uint64_t size,
                                        const hal::BufferParams& params = DefaultBufferParams());
  // A buffer of |size| bytes, every byte |value|.
  base::Ref<hal::Buffer> AllocateFilled(uint64_t size, uint8_t value);
  template <typename T>
  base::Ref<hal::Buffer> AllocateWith(const std::vector<T>& values) {
    base::Ref<hal::Buffer> buffer = AllocateBuffer(values.size() * sizeof(T));
    if (buffer && !values.empty()) {
      base::Status status = buffer->Write(0, values.data(), values.size() * sizeof(T));
      if (!status.ok()) ADD_FAILURE() << "writing initial contents: " << status.ToString();
    }
    return buffer;
  }
  std::vector<uint8_t> ReadBytes(hal::Buffer& buffer, uint64_t offset = 0,
                                 uint64_t length = hal::kWholeBuffer);
  template <typename T>
  std::vector<T> ReadAs(hal::Buffer& buffer, uint64_t offset = 0, uint64_t length = hal::kWholeBuffer) {
    std::vector<uint8_t> bytes = ReadBytes(buffer, offset, length);
    std::vector<T> values(bytes.size() / sizeof(T));
    if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
    return values;
  }

  base::Ref<hal::Semaphore> CreateSemaphore(uint64_t initial_value = 0);
  // Bounded wait for |semaphore| >= |value|.
  static base::Status WaitFor(hal::Semaphore& semaphore, uint64_t value);
  // The current value, or UINT64_MAX (with a recorded failure) if the semaphore failed.
  static uint64_t ValueOf(hal::Semaphore& semaphore);

  // A command buffer for this case's recording mode (binding capacity kBindingCapacity when
  // indirect, 0 when direct).
  base::Ref<hal::CommandBuffer> CreateCommandBuffer(
      hal::CommandBufferModeBits mode = hal::CommandBufferMode::kOneShot,
      hal::CommandCategoryBits categories = hal::CommandCategory::kAny);
  base::Ref<hal::CommandBuffer> CreateCommandBufferWithCapacity(hal::CommandBufferModeBits mode,
                                                                hal::CommandCategoryBits categories,
                                                                uint32_t binding_capacity);
  // Submits |command_buffer| with no waits and waits (bounded) for its signal.
  base::Status SubmitAndWait(const base::Ref<hal::CommandBuffer>& command_buffer,
                             std::span<const hal::BufferBinding> binding_table = {});

  // Whether the backend has compiled test kernels (dispatch suites skip without them).
  bool HasTestExecutables() const;
  // The bytes of test kernel |name| (empty, with a recorded failure, if missing).
  std::vector<uint8_t> ExecutableData(std::string_view name);
  // Prepares test kernel |name| on this device (null, with a recorded failure, on error).
  base::Ref<hal::Executable> LoadExecutable(std::string_view name);

 private:
  // "Suite.Case" of the running case, without the instantiation prefix and parameter suffix.
  static std::string CurrentTestName();

  base::Ref<hal::Device> device_;
  // Set while an xfail case runs: collects its failures instead of reporting them.
  const Expectation* xfail_ = nullptr;
  std::unique_ptr<::testing::TestPartResultArray> xfail_results_;
  std::unique_ptr<::testing::ScopedFakeTestPartResultReporter> xfail_reporter_;
};

}  // namespace iree_rt::cts

#endif  // IREE_RT_TESTS_CONFORMANCE_CTS_TEST_H_
