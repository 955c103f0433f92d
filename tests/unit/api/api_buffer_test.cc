// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// C ABI tests: buffers (allocation, host access, mapping, subspans, imported host memory) and
// buffer views.
#include <atomic>
#include <numeric>

#include "test_util.h"

namespace iree_rt_test {
namespace {

using BufferTest = ApiTest;

TEST_F(BufferTest, ReportsItsProperties) {
  iree_rt_buffer_t buffer = Allocate(device_, 256);
  uint64_t length = 0;
  iree_rt_memory_type_t type = 0;
  iree_rt_buffer_usage_t usage = 0;
  iree_rt_memory_access_t access = 0;
  ASSERT_TRUE(IsOk(iree_rt_buffer_length(buffer, &length)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_memory_type(buffer, &type)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_usage(buffer, &usage)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_allowed_access(buffer, &access)));
  EXPECT_EQ(length, 256u);
  EXPECT_EQ(type & IREE_RT_MEMORY_TYPE_DEVICE_LOCAL, IREE_RT_MEMORY_TYPE_DEVICE_LOCAL);
  EXPECT_TRUE(type & IREE_RT_MEMORY_TYPE_HOST_VISIBLE);  // CPU memory is always host visible
  EXPECT_EQ(usage & IREE_RT_BUFFER_USAGE_DEFAULT, IREE_RT_BUFFER_USAGE_DEFAULT);
  EXPECT_EQ(access, IREE_RT_MEMORY_ACCESS_ALL);
  EXPECT_EQ(ReadAll<uint8_t>(buffer), std::vector<uint8_t>(256, 0));  // zero-filled
}

TEST_F(BufferTest, WritesAndReads) {
  iree_rt_buffer_t buffer = Allocate(device_, 64);
  std::vector<uint32_t> data(16);
  std::iota(data.begin(), data.end(), 100);
  ASSERT_TRUE(IsOk(iree_rt_buffer_write(buffer, 0, data.data(), 64)));
  EXPECT_EQ(ReadAll<uint32_t>(buffer), data);
  uint32_t word = 0;
  ASSERT_TRUE(IsOk(iree_rt_buffer_read(buffer, 60, &word, 4)));
  EXPECT_EQ(word, 115u);
  ASSERT_TRUE(IsOk(iree_rt_buffer_read(buffer, 64, nullptr, 0)));  // empty range at the end
}

TEST_F(BufferTest, RangesAreChecked) {
  iree_rt_buffer_t buffer = Allocate(device_, 64);
  uint8_t bytes[128] = {};
  EXPECT_TRUE(HasCode(iree_rt_buffer_read(buffer, 60, bytes, 8), IREE_RT_STATUS_OUT_OF_RANGE,
                      "[60, 60+8) overruns a buffer of 64 bytes"));
  EXPECT_TRUE(
      HasCode(iree_rt_buffer_write(buffer, 0, bytes, 65), IREE_RT_STATUS_OUT_OF_RANGE, "65"));
  EXPECT_TRUE(HasCode(iree_rt_buffer_read(buffer, UINT64_MAX - 2, bytes, 4),
                      IREE_RT_STATUS_OUT_OF_RANGE, "past the end"));
  EXPECT_TRUE(HasCode(iree_rt_buffer_read(buffer, 0, bytes, IREE_RT_WHOLE_BUFFER),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "'length'"));
  const uint32_t pattern = 1;
  EXPECT_TRUE(
      HasCode(iree_rt_buffer_fill(buffer, 60, 8, &pattern, 4), IREE_RT_STATUS_OUT_OF_RANGE));
  iree_rt_buffer_t other = Allocate(device_, 16);
  EXPECT_TRUE(HasCode(iree_rt_buffer_copy(buffer, 0, other, 8, 16), IREE_RT_STATUS_OUT_OF_RANGE,
                      "[8, 8+16)"));
  EXPECT_TRUE(HasCode(iree_rt_buffer_copy(buffer, 56, other, 0, 16), IREE_RT_STATUS_OUT_OF_RANGE,
                      "[56, 56+16)"));
  iree_rt_buffer_t subspan = nullptr;
  EXPECT_TRUE(
      HasCode(iree_rt_buffer_subspan(buffer, 32, 33, &subspan), IREE_RT_STATUS_OUT_OF_RANGE));
  EXPECT_EQ(subspan, nullptr);
}

TEST_F(BufferTest, Fills) {
  iree_rt_buffer_t buffer = Allocate(device_, 16);
  const uint8_t byte = 0xAB;
  const uint16_t half = 0x1234;
  const uint32_t word = 0xDEADBEEF;
  ASSERT_TRUE(IsOk(iree_rt_buffer_fill(buffer, 0, IREE_RT_WHOLE_BUFFER, &byte, 1)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_fill(buffer, 4, 4, &half, 2)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_fill(buffer, 8, 8, &word, 4)));
  std::vector<uint16_t> halves = ReadAll<uint16_t>(buffer);
  EXPECT_EQ(halves[0], 0xABABu);
  EXPECT_EQ(halves[2], 0x1234u);
  EXPECT_EQ(halves[3], 0x1234u);
  std::vector<uint32_t> words = ReadAll<uint32_t>(buffer);
  EXPECT_EQ(words[2], 0xDEADBEEFu);
  EXPECT_EQ(words[3], 0xDEADBEEFu);
  EXPECT_TRUE(HasCode(iree_rt_buffer_fill(buffer, 0, 8, &word, 3), IREE_RT_STATUS_INVALID_ARGUMENT,
                      "'pattern_length'"));
  EXPECT_TRUE(HasCode(iree_rt_buffer_fill(buffer, 0, 8, &word, 8), IREE_RT_STATUS_INVALID_ARGUMENT,
                      "'pattern_length'"));
  EXPECT_TRUE(HasCode(iree_rt_buffer_fill(buffer, 2, 8, &word, 4), IREE_RT_STATUS_INVALID_ARGUMENT,
                      "multiples"));
}

TEST_F(BufferTest, CopiesIncludingOverlappingRanges) {
  iree_rt_buffer_t a = Allocate(device_, 16);
  iree_rt_buffer_t b = Allocate(device_, 16);
  const uint8_t data[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  ASSERT_TRUE(IsOk(iree_rt_buffer_write(a, 0, data, 16)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_copy(a, 4, b, 0, 8)));
  EXPECT_EQ(ReadAll<uint8_t>(b)[0], 4);
  EXPECT_EQ(ReadAll<uint8_t>(b)[7], 11);
  ASSERT_TRUE(IsOk(iree_rt_buffer_copy(a, 0, a, 2, 8)));  // overlapping
  std::vector<uint8_t> moved = ReadAll<uint8_t>(a);
  EXPECT_EQ(moved[2], 0);
  EXPECT_EQ(moved[9], 7);
}

TEST_F(BufferTest, SubspansShareTheAllocation) {
  iree_rt_buffer_t buffer = Allocate(device_, 64);
  iree_rt_buffer_t subspan = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_subspan(buffer, 16, IREE_RT_WHOLE_BUFFER, &subspan)));
  uint64_t length = 0;
  ASSERT_TRUE(IsOk(iree_rt_buffer_length(subspan, &length)));
  EXPECT_EQ(length, 48u);
  const uint32_t value = 7;
  ASSERT_TRUE(IsOk(iree_rt_buffer_write(subspan, 0, &value, 4)));
  EXPECT_EQ(ReadAll<uint32_t>(buffer)[4], 7u);
  iree_rt_buffer_t nested = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_subspan(subspan, 4, 4, &nested)));
  iree_rt_buffer_release(subspan);  // the nested subspan keeps the allocation alive
  ASSERT_TRUE(IsOk(iree_rt_buffer_write(nested, 0, &value, 4)));
  EXPECT_EQ(ReadAll<uint32_t>(buffer)[5], 7u);
  iree_rt_buffer_release(nested);
}

TEST_F(BufferTest, MapsAndUnmaps) {
  iree_rt_buffer_t buffer = Allocate(device_, 64);
  void* ptr = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_map(buffer, IREE_RT_MEMORY_ACCESS_WRITE, 8, 16, &ptr)));
  ASSERT_NE(ptr, nullptr);
  std::memset(ptr, 0x11, 16);
  ASSERT_TRUE(IsOk(iree_rt_buffer_unmap(buffer, ptr)));
  std::vector<uint8_t> data = ReadAll<uint8_t>(buffer);
  EXPECT_EQ(data[7], 0);
  EXPECT_EQ(data[8], 0x11);
  EXPECT_EQ(data[23], 0x11);
  EXPECT_EQ(data[24], 0);
  EXPECT_TRUE(HasCode(iree_rt_buffer_unmap(buffer, ptr), IREE_RT_STATUS_INVALID_ARGUMENT,
                      "not an open mapping"));
  int local = 0;
  EXPECT_TRUE(HasCode(iree_rt_buffer_unmap(buffer, &local), IREE_RT_STATUS_INVALID_ARGUMENT,
                      "not an open mapping"));
  void* out = &local;
  EXPECT_TRUE(HasCode(iree_rt_buffer_map(buffer, IREE_RT_MEMORY_ACCESS_READ, 60, 8, &out),
                      IREE_RT_STATUS_OUT_OF_RANGE));
  EXPECT_EQ(out, &local);
}

TEST_F(BufferTest, MappingKeepsTheBufferAlive) {
  iree_rt_buffer_t buffer = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_allocate(device_, IREE_RT_MEMORY_TYPE_HOST_LOCAL,
                                           IREE_RT_BUFFER_USAGE_DEFAULT, 32, &buffer)));
  void* first = nullptr;
  void* second = nullptr;
  ASSERT_TRUE(
      IsOk(iree_rt_buffer_map(buffer, IREE_RT_MEMORY_ACCESS_ALL, 0, IREE_RT_WHOLE_BUFFER, &first)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_map(buffer, IREE_RT_MEMORY_ACCESS_READ, 0, 32, &second)));
  iree_rt_buffer_release(buffer);  // the mappings still hold it
  std::memset(first, 0x22, 32);    // ASan reports a use-after-free here if they did not
  EXPECT_EQ(static_cast<uint8_t*>(second)[31], 0x22);
  ASSERT_TRUE(IsOk(iree_rt_buffer_unmap(buffer, first)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_unmap(buffer, second)));  // the last reference goes here
}

struct ReleaseRecord {
  std::atomic<int> calls{0};
  void* ptr = nullptr;
};

void RecordRelease(void* user_data, void* ptr) {
  auto* record = static_cast<ReleaseRecord*>(user_data);
  record->ptr = ptr;
  record->calls.fetch_add(1);
}

TEST_F(BufferTest, ImportedMemoryIsReleasedOnceAfterTheLastReference) {
  alignas(64) static uint32_t host[16];
  std::iota(std::begin(host), std::end(host), 0);
  ReleaseRecord record;
  iree_rt_buffer_t buffer = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_import_host(
      device_, IREE_RT_MEMORY_TYPE_HOST_LOCAL, IREE_RT_BUFFER_USAGE_DEFAULT,
      IREE_RT_MEMORY_ACCESS_ALL, host, sizeof(host), RecordRelease, &record, &buffer)));
  // No copy: the buffer is the caller's memory.
  EXPECT_EQ(ReadAll<uint32_t>(buffer)[5], 5u);
  host[5] = 55;
  EXPECT_EQ(ReadAll<uint32_t>(buffer)[5], 55u);
  const uint32_t value = 77;
  ASSERT_TRUE(IsOk(iree_rt_buffer_write(buffer, 0, &value, 4)));
  EXPECT_EQ(host[0], 77u);

  iree_rt_buffer_t subspan = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_subspan(buffer, 16, 16, &subspan)));
  iree_rt_buffer_view_t view = nullptr;
  const int64_t shape[] = {4};
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_create(subspan, shape, 1, IREE_RT_ELEMENT_TYPE_INT_32,
                                              IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view)));
  iree_rt_buffer_retain(buffer);
  iree_rt_buffer_release(buffer);
  iree_rt_buffer_release(buffer);
  EXPECT_EQ(record.calls.load(), 0);
  iree_rt_buffer_release(subspan);
  EXPECT_EQ(record.calls.load(), 0);
  iree_rt_buffer_view_release(view);
  EXPECT_EQ(record.calls.load(), 1);
  EXPECT_EQ(record.ptr, host);
}

TEST_F(BufferTest, FailedImportDoesNotCallTheCallback) {
  uint32_t host[4] = {};
  ReleaseRecord record;
  iree_rt_buffer_t buffer = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_buffer_import_host(device_, IREE_RT_MEMORY_TYPE_HOST_LOCAL,
                                                 IREE_RT_BUFFER_USAGE_DEFAULT, 0x100, host,
                                                 sizeof(host), RecordRelease, &record, &buffer),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "access"));
  EXPECT_TRUE(IsInvalidArgument(
      iree_rt_buffer_import_host(device_, IREE_RT_MEMORY_TYPE_HOST_LOCAL,
                                 IREE_RT_BUFFER_USAGE_DEFAULT, IREE_RT_MEMORY_ACCESS_ALL, nullptr,
                                 16, RecordRelease, &record, &buffer),
      "ptr"));
  EXPECT_EQ(buffer, nullptr);
  EXPECT_EQ(record.calls.load(), 0);
  // Without a callback the caller just keeps ownership.
  ASSERT_TRUE(IsOk(iree_rt_buffer_import_host(
      device_, IREE_RT_MEMORY_TYPE_HOST_LOCAL, IREE_RT_BUFFER_USAGE_DEFAULT,
      IREE_RT_MEMORY_ACCESS_ALL, host, sizeof(host), nullptr, nullptr, &buffer)));
  iree_rt_buffer_release(buffer);
}

TEST_F(BufferTest, ReadOnlyImportRejectsWrites) {
  const uint32_t constants[4] = {1, 2, 3, 4};
  iree_rt_buffer_t buffer = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_import_host(
      device_, IREE_RT_MEMORY_TYPE_HOST_LOCAL, IREE_RT_BUFFER_USAGE_DEFAULT,
      IREE_RT_MEMORY_ACCESS_READ, const_cast<uint32_t*>(constants), sizeof(constants), nullptr,
      nullptr, &buffer)));
  Keep(buffer, iree_rt_buffer_release);
  EXPECT_EQ(ReadAll<uint32_t>(buffer)[3], 4u);
  const uint32_t value = 9;
  EXPECT_TRUE(
      HasCode(iree_rt_buffer_write(buffer, 0, &value, 4), IREE_RT_STATUS_PERMISSION_DENIED));
  void* ptr = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_buffer_map(buffer, IREE_RT_MEMORY_ACCESS_WRITE, 0, 4, &ptr),
                      IREE_RT_STATUS_PERMISSION_DENIED));
  EXPECT_EQ(constants[0], 1u);
}

TEST(ElementTypeTest, ByteCounts) {
  uint64_t bytes = 0;
  ASSERT_TRUE(IsOk(iree_rt_element_type_byte_count(IREE_RT_ELEMENT_TYPE_FLOAT_32, 10, &bytes)));
  EXPECT_EQ(bytes, 40u);
  ASSERT_TRUE(IsOk(iree_rt_element_type_byte_count(IREE_RT_ELEMENT_TYPE_INT_4, 3, &bytes)));
  EXPECT_EQ(bytes, 2u);  // packed
  ASSERT_TRUE(IsOk(iree_rt_element_type_byte_count(IREE_RT_ELEMENT_TYPE_BFLOAT_16, 0, &bytes)));
  EXPECT_EQ(bytes, 0u);
  EXPECT_TRUE(HasCode(iree_rt_element_type_byte_count(0x21000018u, 1, &bytes),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "element type"));
  EXPECT_TRUE(HasCode(iree_rt_element_type_byte_count(IREE_RT_ELEMENT_TYPE_NONE, 1, &bytes),
                      IREE_RT_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(
      iree_rt_element_type_byte_count(IREE_RT_ELEMENT_TYPE_FLOAT_64, UINT64_MAX / 4, &bytes),
      IREE_RT_STATUS_OUT_OF_RANGE));
}

using BufferViewTest = ApiTest;

TEST_F(BufferViewTest, DescribesATensor) {
  iree_rt_buffer_t buffer = Allocate(device_, 32);
  const int64_t shape[] = {2, 3};
  iree_rt_buffer_view_t view = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_create(buffer, shape, 2, IREE_RT_ELEMENT_TYPE_FLOAT_32,
                                              IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view)));
  Keep(view, iree_rt_buffer_view_release);
  size_t rank = 0;
  int64_t dim = 0;
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_rank(view, &rank)));
  EXPECT_EQ(rank, 2u);
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_dim(view, 1, &dim)));
  EXPECT_EQ(dim, 3);
  int64_t copy[4] = {-1, -1, -1, -1};
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_shape(view, 4, copy, &rank)));
  EXPECT_EQ(rank, 2u);
  EXPECT_EQ(copy[0], 2);
  EXPECT_EQ(copy[1], 3);
  EXPECT_EQ(copy[2], -1);
  iree_rt_element_type_t type = 0;
  iree_rt_encoding_type_t encoding = IREE_RT_ENCODING_TYPE_OPAQUE;
  uint64_t bytes = 0, count = 0;
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_element_type(view, &type)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_encoding(view, &encoding)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_byte_length(view, &bytes)));
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_element_count(view, &count)));
  EXPECT_EQ(type, IREE_RT_ELEMENT_TYPE_FLOAT_32);
  EXPECT_EQ(encoding, IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR);
  EXPECT_EQ(bytes, 24u);
  EXPECT_EQ(count, 6u);
  iree_rt_buffer_t borrowed = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_buffer(view, &borrowed)));
  EXPECT_EQ(borrowed, buffer);  // the same handle, not a new one

  int64_t small[1] = {-1};
  rank = 99;
  EXPECT_TRUE(HasCode(iree_rt_buffer_view_shape(view, 1, small, &rank), IREE_RT_STATUS_OUT_OF_RANGE,
                      "'capacity'"));
  EXPECT_EQ(rank, 99u);
  EXPECT_EQ(small[0], -1);
  EXPECT_TRUE(
      HasCode(iree_rt_buffer_view_dim(view, 2, &dim), IREE_RT_STATUS_OUT_OF_RANGE, "'index'"));
}

TEST_F(BufferViewTest, KeepsItsBufferAlive) {
  iree_rt_buffer_t buffer = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_allocate(device_, IREE_RT_MEMORY_TYPE_DEVICE_LOCAL,
                                           IREE_RT_BUFFER_USAGE_DEFAULT, 16, &buffer)));
  iree_rt_buffer_view_t view = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_create(buffer, nullptr, 0, IREE_RT_ELEMENT_TYPE_INT_64,
                                              IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view)));
  iree_rt_buffer_release(buffer);
  iree_rt_buffer_t borrowed = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_buffer(view, &borrowed)));
  const int64_t value = -5;
  ASSERT_TRUE(IsOk(iree_rt_buffer_write(borrowed, 0, &value, 8)));
  uint64_t count = 0;
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_element_count(view, &count)));
  EXPECT_EQ(count, 1u);  // a scalar
  iree_rt_buffer_view_release(view);
}

TEST_F(BufferViewTest, RejectsBadDescriptions) {
  iree_rt_buffer_t buffer = Allocate(device_, 16);
  iree_rt_buffer_view_t view = nullptr;
  const int64_t negative[] = {2, -1};
  EXPECT_TRUE(HasCode(iree_rt_buffer_view_create(buffer, negative, 2, IREE_RT_ELEMENT_TYPE_INT_8,
                                                 IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "negative"));
  const int64_t too_big[] = {5};
  EXPECT_TRUE(HasCode(iree_rt_buffer_view_create(buffer, too_big, 1, IREE_RT_ELEMENT_TYPE_FLOAT_32,
                                                 IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view),
                      IREE_RT_STATUS_OUT_OF_RANGE, "20 bytes"));
  const int64_t ok[] = {4};
  EXPECT_TRUE(HasCode(iree_rt_buffer_view_create(buffer, ok, 1, 0x77000020u,
                                                 IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "element type"));
  EXPECT_TRUE(HasCode(iree_rt_buffer_view_create(buffer, ok, 1, IREE_RT_ELEMENT_TYPE_FLOAT_32,
                                                 static_cast<iree_rt_encoding_type_t>(9), &view),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "encoding"));
  const int64_t deep[17] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_TRUE(HasCode(iree_rt_buffer_view_create(buffer, deep, 17, IREE_RT_ELEMENT_TYPE_INT_8,
                                                 IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "rank"));
  EXPECT_TRUE(
      IsInvalidArgument(iree_rt_buffer_view_create(buffer, nullptr, 1, IREE_RT_ELEMENT_TYPE_INT_8,
                                                   IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view),
                        "shape"));
  EXPECT_EQ(view, nullptr);
}

}  // namespace
}  // namespace iree_rt_test
