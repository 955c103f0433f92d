// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::BufferView: shape and element type validation, and packed byte sizes.
#include "hal/buffer_view.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace iree_rt::hal {
namespace {

using base::Ref;
using base::StatusCode;
using testing::IsError;
using testing::IsOk;
using testing::MakeHostBuffer;

base::StatusOr<Ref<BufferView>> Create(uint64_t buffer_size, std::vector<int64_t> shape, ElementType type,
                                       EncodingType encoding = Encoding::kDenseRowMajor) {
  return BufferView::Create(MakeHostBuffer(buffer_size), shape, type, encoding);
}

TEST(BufferViewTest, ShapeAndSizes) {
  base::StatusOr<Ref<BufferView>> view = Create(24, {2, 3}, ElementTypes::kFloat32);
  ASSERT_TRUE(IsOk(view));
  EXPECT_EQ((*view)->rank(), 2u);
  EXPECT_EQ(std::vector<int64_t>((*view)->shape().begin(), (*view)->shape().end()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ((*view)->element_count(), 6u);
  EXPECT_EQ((*view)->byte_length(), 24u);
  EXPECT_EQ((*view)->element_type(), ElementTypes::kFloat32);
  EXPECT_EQ((*view)->encoding(), Encoding::kDenseRowMajor);
  EXPECT_EQ((*view)->buffer()->byte_length(), 24u);
}

TEST(BufferViewTest, ScalarsAndEmptyTensors) {
  base::StatusOr<Ref<BufferView>> scalar = Create(8, {}, ElementTypes::kInt64);
  ASSERT_TRUE(IsOk(scalar));
  EXPECT_EQ((*scalar)->rank(), 0u);
  EXPECT_EQ((*scalar)->element_count(), 1u);
  EXPECT_EQ((*scalar)->byte_length(), 8u);
  base::StatusOr<Ref<BufferView>> empty = Create(0, {4, 0, 7}, ElementTypes::kFloat32);
  ASSERT_TRUE(IsOk(empty));
  EXPECT_EQ((*empty)->element_count(), 0u);
  EXPECT_EQ((*empty)->byte_length(), 0u);
}

TEST(BufferViewTest, BufferLargerThanTheTensorIsFine) {
  base::StatusOr<Ref<BufferView>> view = Create(100, {3}, ElementTypes::kInt32);
  ASSERT_TRUE(IsOk(view));
  EXPECT_EQ((*view)->byte_length(), 12u);
}

TEST(BufferViewTest, BufferTooSmall) {
  EXPECT_TRUE(IsError(Create(23, {2, 3}, ElementTypes::kFloat32).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Create(0, {}, ElementTypes::kInt8).status(), StatusCode::kOutOfRange));
}

TEST(BufferViewTest, SubByteElementsPack) {
  const ElementType i4 = MakeElementType(NumericalType::kInteger, 4);
  const ElementType i1 = MakeElementType(NumericalType::kInteger, 1);
  base::StatusOr<Ref<BufferView>> odd = Create(2, {3}, i4);
  ASSERT_TRUE(IsOk(odd));
  EXPECT_EQ((*odd)->byte_length(), 2u);
  base::StatusOr<Ref<BufferView>> matrix = Create(8, {5, 3}, i4);
  ASSERT_TRUE(IsOk(matrix));
  EXPECT_EQ((*matrix)->byte_length(), 8u);
  EXPECT_TRUE(IsError(Create(7, {5, 3}, i4).status(), StatusCode::kOutOfRange));
  base::StatusOr<Ref<BufferView>> bits = Create(2, {9}, i1);
  ASSERT_TRUE(IsOk(bits));
  EXPECT_EQ((*bits)->byte_length(), 2u);
  // "i1" as IREE's tooling means it is a byte-wide boolean: no packing.
  base::StatusOr<Ref<BufferView>> bools = Create(9, {9}, ElementTypes::kBool8);
  ASSERT_TRUE(IsOk(bools));
  EXPECT_EQ((*bools)->byte_length(), 9u);
}

TEST(BufferViewTest, InvalidShapes) {
  EXPECT_TRUE(IsError(Create(64, {2, -1}, ElementTypes::kInt8).status(), StatusCode::kInvalidArgument, "negative"));
  std::vector<int64_t> rank16(16, 1), rank17(17, 1);
  EXPECT_TRUE(IsOk(Create(1, rank16, ElementTypes::kInt8)));
  EXPECT_TRUE(IsError(Create(1, rank17, ElementTypes::kInt8).status(), StatusCode::kInvalidArgument, "rank"));
  // Element counts and byte sizes that overflow 64 bits.
  EXPECT_TRUE(IsError(Create(64, {int64_t{1} << 32, int64_t{1} << 32}, ElementTypes::kInt8).status(),
                      StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(Create(64, {int64_t{1} << 61, 2}, ElementTypes::kFloat32).status(), StatusCode::kOutOfRange));
  // A zero dimension makes any other dimension harmless.
  EXPECT_TRUE(IsOk(Create(0, {0, INT64_MAX, INT64_MAX}, ElementTypes::kFloat64)));
}

TEST(BufferViewTest, InvalidElementTypesAndEncodings) {
  EXPECT_TRUE(IsError(Create(64, {4}, ElementTypes::kNone).status(), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Create(64, {4}, 0x21000120u).status(), StatusCode::kInvalidArgument));  // reserved bits
  EXPECT_TRUE(IsError(Create(64, {4}, MakeElementType(NumericalType::kFloatIeee, 24)).status(),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Create(64, {4}, ElementTypes::kInt32, 2).status(), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsOk(Create(64, {4}, ElementTypes::kInt32, Encoding::kOpaque)));
  EXPECT_TRUE(IsError(BufferView::Create(nullptr, {}, ElementTypes::kInt8, Encoding::kDenseRowMajor).status(),
                      StatusCode::kInvalidArgument));
}

TEST(BufferViewTest, RetainsItsBuffer) {
  Ref<Buffer> buffer = MakeHostBuffer(16);
  ASSERT_TRUE(buffer);
  Buffer* raw = buffer.get();
  const int64_t shape[1] = {4};
  base::StatusOr<Ref<BufferView>> view = BufferView::Create(buffer, shape, ElementTypes::kInt32, Encoding::kDenseRowMajor);
  ASSERT_TRUE(IsOk(view));
  buffer = nullptr;
  EXPECT_EQ(raw->ref_count_for_testing(), 1);
  EXPECT_EQ((*view)->buffer().get(), raw);
}

}  // namespace
}  // namespace iree_rt::hal
