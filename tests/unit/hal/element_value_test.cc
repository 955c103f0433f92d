// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal/utils/element_value.h: which element types are numbers, and float elements loaded and stored
// in every format.
#include "hal/utils/element_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace iree_rt::hal::utils {
namespace {

namespace NT = NumericalType;

TEST(ElementValueTest, Classify) {
  EXPECT_EQ(ClassifyElement(ElementTypes::kInt8), ElementClass::kSigned);
  EXPECT_EQ(ClassifyElement(ElementTypes::kSint32), ElementClass::kSigned);
  EXPECT_EQ(ClassifyElement(ElementTypes::kUint32), ElementClass::kUnsigned);
  EXPECT_EQ(ClassifyElement(ElementTypes::kFloat16), ElementClass::kFloat);
  EXPECT_EQ(ClassifyElement(ElementTypes::kBFloat16), ElementClass::kFloat);
  EXPECT_EQ(ClassifyElement(ElementTypes::kFloat64), ElementClass::kFloat);
  EXPECT_EQ(ClassifyElement(MakeElementType(NT::kFloat8E4M3FN, 8)), ElementClass::kFloat);
  // Bytes: booleans, complex, opaque, sub-byte and odd widths, reserved bits set.
  EXPECT_EQ(ClassifyElement(ElementTypes::kBool8), ElementClass::kBytes);
  EXPECT_EQ(ClassifyElement(MakeElementType(NT::kFloatComplex, 64)), ElementClass::kBytes);
  EXPECT_EQ(ClassifyElement(MakeElementType(NT::kUnknown, 8)), ElementClass::kBytes);
  EXPECT_EQ(ClassifyElement(MakeElementType(NT::kInteger, 4)), ElementClass::kBytes);
  EXPECT_EQ(ClassifyElement(MakeElementType(NT::kIntegerUnsigned, 24)), ElementClass::kBytes);
  EXPECT_EQ(ClassifyElement(ElementTypes::kFloat32 | 0x100), ElementClass::kBytes);
}

TEST(ElementValueTest, FloatsRoundTrip) {
  const ElementType types[] = {ElementTypes::kFloat16,
                               ElementTypes::kBFloat16,
                               ElementTypes::kFloat32,
                               ElementTypes::kFloat64,
                               MakeElementType(NT::kFloat8E5M2, 8),
                               MakeElementType(NT::kFloat8E4M3FN, 8),
                               MakeElementType(NT::kFloat8E5M2Fnuz, 8),
                               MakeElementType(NT::kFloat8E4M3Fnuz, 8),
                               MakeElementType(NT::kFloat8E8M0Fnu, 8)};
  for (ElementType type : types) {
    uint8_t bytes[8] = {};
    StoreFloatElement(type, 2.0, bytes);  // a power of two every format holds exactly
    EXPECT_EQ(LoadFloatElement(type, bytes), 2.0) << ElementTypeName(type);
  }
  uint8_t bytes[8] = {};
  StoreFloatElement(ElementTypes::kFloat16, 1.0, bytes);
  EXPECT_EQ(bytes[0], 0x00);
  EXPECT_EQ(bytes[1], 0x3C);
  StoreFloatElement(ElementTypes::kFloat64, 0.1, bytes);
  EXPECT_EQ(LoadFloatElement(ElementTypes::kFloat64, bytes), 0.1);
  StoreFloatElement(ElementTypes::kFloat32, 0.1, bytes);
  EXPECT_EQ(LoadFloatElement(ElementTypes::kFloat32, bytes), static_cast<double>(0.1f));
  StoreFloatElement(ElementTypes::kBFloat16, NAN, bytes);
  EXPECT_TRUE(std::isnan(LoadFloatElement(ElementTypes::kBFloat16, bytes)));
}

}  // namespace
}  // namespace iree_rt::hal::utils
