// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Shared pieces of the dispatch suites: a fixture that skips when the build has no compiled test
// kernels, and small helpers for recording the test kernels' dispatches.
//
// Kernels that read or write 4 x 32-bit tensors (scale_and_offset, multi_entrypoint,
// write_constants) use aligned vector moves on their bindings, so their binding offsets are kept
// at multiples of 64 (docs/facts_corrections.md, "Bindings must honour the subspan's alignment").
#ifndef IREE_RT_TESTS_CONFORMANCE_DISPATCH_UTIL_H_
#define IREE_RT_TESTS_CONFORMANCE_DISPATCH_UTIL_H_

#include "cts_test.h"

namespace iree_rt::cts {

class DispatchTestBase : public CtsTest {
 protected:
  void SetUp() override {
    CtsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!HasTestExecutables()) GTEST_SKIP() << "this build has no compiled test kernels";
  }

  // Records scale_and_offset (out[i] = in[i] * scale + offset over 4 x i32).
  static base::Status RecordScaleAndOffset(hal::CommandBuffer& command_buffer,
                                           const base::Ref<hal::Executable>& executable,
                                           const hal::BufferRef& input, const hal::BufferRef& output,
                                           int32_t scale, int32_t offset) {
    const uint32_t constants[2] = {static_cast<uint32_t>(scale), static_cast<uint32_t>(offset)};
    const hal::BufferRef bindings[2] = {input, output};
    return command_buffer.Dispatch(executable, 0, hal::DispatchConfig{}, constants, bindings,
                                   hal::DispatchFlag::kNone);
  }

  // Submits |command_buffer| after |wait| and signals |signal|.
  base::Status Execute(const base::Ref<hal::CommandBuffer>& command_buffer,
                       std::span<const hal::BufferBinding> table, hal::SemaphoreList wait,
                       hal::SemaphoreList signal) {
    return device().QueueExecute(hal::kQueueAffinityAny, wait, signal, command_buffer, table);
  }
};

}  // namespace iree_rt::cts

#endif  // IREE_RT_TESTS_CONFORMANCE_DISPATCH_UTIL_H_
