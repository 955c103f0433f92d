// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "tooling/device_upload.h"

#include <gtest/gtest.h>

#include <string>

#include "cpu_test_util.h"
#include "hal/utils/buffer_view_text.h"

namespace iree_rt::tooling {
namespace {

using hal::utils::FormatBufferView;
using hal::utils::ParseBufferView;

using base::Ref;
using testing::CpuAllocator;
using testing::CpuDevice;
using testing::IsOk;

// A CPU device computes on host memory: the parsed input is used as it is, with no second
// allocation and no copy. (The queue copy into a GPU's memory runs in bench/cuda/run_bench.sh's
// upload check and every tool run on the GPU machine.)
TEST(DeviceUploadTest, ParsedInputIsUsedInPlaceOnACpuDevice) {
  base::StatusOr<Ref<hal::BufferView>> parsed = ParseBufferView("2x3xi32=1 2 3 4 5 6", CpuAllocator());
  ASSERT_TRUE(IsOk(parsed));
  ASSERT_NE((*parsed)->buffer()->memory_type() & hal::MemoryType::kDeviceLocal, hal::MemoryType::kDeviceLocal)
      << "the parser's host buffer is not device-local, so this test would not exercise the choice";
  hal::Device& device = CpuDevice();
  const uint64_t allocations = device.allocator().statistics().allocation_count;
  base::StatusOr<Ref<hal::BufferView>> uploaded = UploadToDevice(*parsed, device);
  ASSERT_TRUE(IsOk(uploaded));
  EXPECT_EQ(uploaded->get(), parsed->get());
  EXPECT_EQ(device.allocator().statistics().allocation_count, allocations) << "allocated a second buffer";
  EXPECT_EQ(FormatBufferView(**uploaded, 1024).value(), "2x3xi32=[1 2 3][4 5 6]");
}

TEST(DeviceUploadTest, DeviceLocalAndEmptyViews) {
  base::StatusOr<Ref<hal::BufferView>> empty = ParseBufferView("0x4xf32", CpuAllocator());
  ASSERT_TRUE(IsOk(empty));
  base::StatusOr<Ref<hal::BufferView>> uploaded = UploadToDevice(*empty, CpuDevice());
  ASSERT_TRUE(IsOk(uploaded));
  EXPECT_EQ((*uploaded)->byte_length(), 0u);
  // Already device-local: returned as is, no copy.
  base::StatusOr<Ref<hal::BufferView>> again = UploadToDevice(*uploaded, CpuDevice());
  ASSERT_TRUE(IsOk(again));
  EXPECT_EQ(again->get(), uploaded->get());
}

}  // namespace
}  // namespace iree_rt::tooling
