// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/element_value.h"

#include <cstring>

#include "hal/utils/float_convert.h"

namespace iree_rt::hal::utils {

namespace NT = NumericalType;

ElementClass ClassifyElement(ElementType type) {
  if (type & 0x00FFFF00u) return ElementClass::kBytes;  // reserved bits set: not a known type
  const uint32_t bits = ElementBitCount(type);
  const bool standard_width = bits == 8 || bits == 16 || bits == 32 || bits == 64;
  switch (ElementNumericalType(type)) {
    case NT::kInteger:
    case NT::kIntegerSigned:
      return standard_width ? ElementClass::kSigned : ElementClass::kBytes;
    case NT::kIntegerUnsigned:
      return standard_width ? ElementClass::kUnsigned : ElementClass::kBytes;
    case NT::kFloatIeee:
      return bits == 16 || bits == 32 || bits == 64 ? ElementClass::kFloat : ElementClass::kBytes;
    case NT::kFloatBrain:
      return bits == 16 ? ElementClass::kFloat : ElementClass::kBytes;
    case NT::kFloat8E5M2:
    case NT::kFloat8E4M3FN:
    case NT::kFloat8E5M2Fnuz:
    case NT::kFloat8E4M3Fnuz:
    case NT::kFloat8E8M0Fnu:
      return bits == 8 ? ElementClass::kFloat : ElementClass::kBytes;
    default:
      return ElementClass::kBytes;
  }
}

namespace {

Float8Format Float8FormatFor(uint32_t numerical) {
  switch (numerical) {
    case NT::kFloat8E5M2:
      return Float8Format::kE5M2;
    case NT::kFloat8E4M3FN:
      return Float8Format::kE4M3FN;
    case NT::kFloat8E5M2Fnuz:
      return Float8Format::kE5M2Fnuz;
    case NT::kFloat8E4M3Fnuz:
      return Float8Format::kE4M3Fnuz;
    default:
      return Float8Format::kE8M0Fnu;
  }
}

}  // namespace

double LoadFloatElement(ElementType type, const uint8_t* data) {
  const uint32_t numerical = ElementNumericalType(type);
  const uint32_t bits = ElementBitCount(type);
  if (numerical == NT::kFloatIeee && bits == 64) {
    double value;
    std::memcpy(&value, data, sizeof(value));
    return value;
  }
  if (numerical == NT::kFloatIeee && bits == 32) {
    float value;
    std::memcpy(&value, data, sizeof(value));
    return value;
  }
  if (bits == 16) {
    uint16_t raw;
    std::memcpy(&raw, data, sizeof(raw));
    return numerical == NT::kFloatIeee ? HalfToFloat(raw) : BFloat16ToFloat(raw);
  }
  return Float8ToFloat(*data, Float8FormatFor(numerical));
}

void StoreFloatElement(ElementType type, double value, uint8_t* out) {
  const uint32_t numerical = ElementNumericalType(type);
  const uint32_t bits = ElementBitCount(type);
  if (numerical == NT::kFloatIeee && bits == 64) {
    std::memcpy(out, &value, sizeof(value));
    return;
  }
  const float narrow = static_cast<float>(value);
  if (numerical == NT::kFloatIeee && bits == 32) {
    std::memcpy(out, &narrow, sizeof(narrow));
    return;
  }
  if (bits == 16) {
    const uint16_t raw =
        numerical == NT::kFloatIeee ? FloatToHalf(narrow) : FloatToBFloat16(narrow);
    std::memcpy(out, &raw, sizeof(raw));
    return;
  }
  *out = FloatToFloat8(narrow, Float8FormatFor(numerical));
}

}  // namespace iree_rt::hal::utils
