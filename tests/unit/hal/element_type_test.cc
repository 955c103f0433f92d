// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Element types: encoding, names (the iree-run-module spellings) and packed byte counts.
#include "hal/element_type.h"

#include <gtest/gtest.h>

namespace iree_rt::hal {
namespace {

TEST(ElementTypeTest, Encoding) {
  EXPECT_EQ(ElementTypes::kFloat32, 0x21000020u);
  EXPECT_EQ(ElementTypes::kInt8, 0x10000008u);
  EXPECT_EQ(ElementTypes::kBool8, 0x13000008u);
  EXPECT_EQ(ElementNumericalType(ElementTypes::kBFloat16), NumericalType::kFloatBrain);
  EXPECT_EQ(ElementBitCount(ElementTypes::kFloat64), 64u);
}

TEST(ElementTypeTest, NameRoundTrip) {
  const char* names[] = {"i8",     "si8",      "ui8",        "i16",        "si16",     "ui16",
                         "i32",    "si32",     "ui32",       "i64",        "si64",     "ui64",
                         "i4",     "ui4",      "f16",        "f32",        "f64",      "bf16",
                         "i1",     "*8",       "*32",        "*64",        "cf64",     "cf128",
                         "f8E5M2", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ", "f8E8M0FNU"};
  for (const char* name : names) {
    base::StatusOr<ElementType> type = ParseElementType(name);
    ASSERT_TRUE(type.ok()) << name;
    EXPECT_TRUE(IsKnownElementType(*type)) << name;
    EXPECT_EQ(ElementTypeName(*type), name);
  }
  EXPECT_EQ(*ParseElementType("f32"), ElementTypes::kFloat32);
  EXPECT_EQ(*ParseElementType("i1"), ElementTypes::kBool8);
  EXPECT_EQ(*ParseElementType("si32"), ElementTypes::kSint32);
  EXPECT_EQ(*ParseElementType("ui8"), ElementTypes::kUint8);
  EXPECT_EQ(*ParseElementType("bf16"), ElementTypes::kBFloat16);
  // IREE's runtime spells opaque types *N and rejects xN; we still read xN as *N.
  EXPECT_EQ(*ParseElementType("x8"), MakeElementType(NumericalType::kUnknown, 8));
  EXPECT_EQ(ElementTypeName(*ParseElementType("x8")), "*8");
}

TEST(ElementTypeTest, ParseErrors) {
  for (const char* bad : {"", "i", "i0", "i256", "i-8", "i08x", "f17", "f8", "bf32", "foo", "i32x", " i32",
                          "x0", "*0", "complex<f32>", "cf32", "F32", "si", "u8"}) {
    EXPECT_FALSE(ParseElementType(bad).ok()) << "'" << bad << "'";
  }
}

TEST(ElementTypeTest, KnownTypes) {
  EXPECT_TRUE(IsKnownElementType(ElementTypes::kNone));
  EXPECT_TRUE(IsKnownElementType(MakeElementType(NumericalType::kBoolean, 1)));
  EXPECT_FALSE(IsKnownElementType(MakeElementType(NumericalType::kBoolean, 2)));
  EXPECT_FALSE(IsKnownElementType(MakeElementType(NumericalType::kFloatIeee, 8)));
  EXPECT_FALSE(IsKnownElementType(MakeElementType(NumericalType::kFloatBrain, 32)));
  EXPECT_FALSE(IsKnownElementType(MakeElementType(NumericalType::kFloat8E4M3FN, 16)));
  EXPECT_FALSE(IsKnownElementType(MakeElementType(NumericalType::kInteger, 0)));
  EXPECT_FALSE(IsKnownElementType(MakeElementType(0x7F, 32)));
  EXPECT_FALSE(IsKnownElementType(ElementTypes::kInt32 | 0x100));  // reserved bits
  EXPECT_TRUE(IsKnownElementType(MakeElementType(NumericalType::kInteger, 3)));
  EXPECT_TRUE(IsKnownElementType(MakeElementType(NumericalType::kUnknown, 24)));
}

TEST(ElementTypeTest, PackedByteCounts) {
  const ElementType i4 = MakeElementType(NumericalType::kInteger, 4);
  const ElementType i1 = MakeElementType(NumericalType::kInteger, 1);
  const ElementType i12 = MakeElementType(NumericalType::kInteger, 12);
  EXPECT_EQ(ElementByteCount(ElementTypes::kFloat32, 3), 12u);
  EXPECT_EQ(ElementByteCount(ElementTypes::kBool8, 3), 3u);
  EXPECT_EQ(ElementByteCount(i4, 0), 0u);
  EXPECT_EQ(ElementByteCount(i4, 1), 1u);
  EXPECT_EQ(ElementByteCount(i4, 3), 2u);
  EXPECT_EQ(ElementByteCount(i4, 4), 2u);
  EXPECT_EQ(ElementByteCount(i1, 8), 1u);
  EXPECT_EQ(ElementByteCount(i1, 9), 2u);
  EXPECT_EQ(ElementByteCount(i12, 2), 3u);
  EXPECT_EQ(ElementByteCount(MakeElementType(NumericalType::kFloatComplex, 64), 2), 16u);
  EXPECT_FALSE(ElementByteCount(ElementTypes::kFloat32, uint64_t{1} << 62).has_value());
  EXPECT_EQ(ElementByteCount(ElementTypes::kFloat32, (uint64_t{1} << 62) - 1), ((uint64_t{1} << 62) - 1) * 4);
  EXPECT_FALSE(ElementByteCount(i4, UINT64_MAX).has_value());
  const uint64_t max_count = (UINT64_MAX - 7) / 4;  // the largest count whose bit size fits
  EXPECT_EQ(ElementByteCount(i4, max_count), (max_count * 4 + 7) / 8);
  EXPECT_FALSE(ElementByteCount(i4, max_count + 1).has_value());
}

}  // namespace
}  // namespace iree_rt::hal
