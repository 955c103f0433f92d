#include "hal/element_type.h"

#include <charconv>

namespace iree_rt::hal {

bool IsKnownElementType(ElementType type) {
  uint32_t numerical = ElementNumericalType(type);
  uint32_t bits = ElementBitCount(type);
  if (type & 0x00FFFF00u) return false;  // reserved bits must be zero
  if (bits == 0) return type == ElementTypes::kNone;
  switch (numerical) {
    case NumericalType::kUnknown:
    case NumericalType::kInteger:
    case NumericalType::kIntegerSigned:
    case NumericalType::kIntegerUnsigned:
      return true;
    case NumericalType::kBoolean:
      return bits == 8 || bits == 1;
    case NumericalType::kFloatIeee:
      return bits == 16 || bits == 32 || bits == 64;
    case NumericalType::kFloatBrain:
      return bits == 16;
    case NumericalType::kFloatComplex:
      return bits == 64 || bits == 128;
    case NumericalType::kFloat8E5M2:
    case NumericalType::kFloat8E4M3FN:
    case NumericalType::kFloat8E5M2Fnuz:
    case NumericalType::kFloat8E4M3Fnuz:
    case NumericalType::kFloat8E8M0Fnu:
      return bits == 8;
    default:
      return false;
  }
}

std::optional<uint64_t> ElementByteCount(ElementType type, uint64_t count) {
  uint64_t bits = ElementBitCount(type);
  if (bits % 8 == 0) {
    uint64_t bytes = bits / 8;
    if (bytes && count > UINT64_MAX / bytes) return std::nullopt;
    return count * bytes;
  }
  if (count > (UINT64_MAX - 7) / bits) return std::nullopt;
  return (count * bits + 7) / 8;
}

std::string ElementTypeName(ElementType type) {
  const std::string bits = std::to_string(ElementBitCount(type));
  switch (ElementNumericalType(type)) {
    case NumericalType::kInteger: return "i" + bits;
    case NumericalType::kIntegerSigned: return "si" + bits;
    case NumericalType::kIntegerUnsigned: return "ui" + bits;
    case NumericalType::kBoolean: return "i1";
    case NumericalType::kFloatIeee: return "f" + bits;
    case NumericalType::kFloatBrain: return "bf16";
    case NumericalType::kFloatComplex: return "complex<f" + std::to_string(ElementBitCount(type) / 2) + ">";
    case NumericalType::kFloat8E5M2: return "f8E5M2";
    case NumericalType::kFloat8E4M3FN: return "f8E4M3FN";
    case NumericalType::kFloat8E5M2Fnuz: return "f8E5M2FNUZ";
    case NumericalType::kFloat8E4M3Fnuz: return "f8E4M3FNUZ";
    case NumericalType::kFloat8E8M0Fnu: return "f8E8M0FNU";
    default: return "x" + bits;
  }
}

std::optional<ElementType> ParseElementType(std::string_view name) {
  struct Named { std::string_view name; ElementType type; };
  static constexpr Named kFixed[] = {
      {"i1", ElementTypes::kBool8},
      {"bf16", ElementTypes::kBFloat16},
      {"complex<f32>", MakeElementType(NumericalType::kFloatComplex, 64)},
      {"complex<f64>", MakeElementType(NumericalType::kFloatComplex, 128)},
      {"f8E5M2", MakeElementType(NumericalType::kFloat8E5M2, 8)},
      {"f8E4M3FN", MakeElementType(NumericalType::kFloat8E4M3FN, 8)},
      {"f8E5M2FNUZ", MakeElementType(NumericalType::kFloat8E5M2Fnuz, 8)},
      {"f8E4M3FNUZ", MakeElementType(NumericalType::kFloat8E4M3Fnuz, 8)},
      {"f8E8M0FNU", MakeElementType(NumericalType::kFloat8E8M0Fnu, 8)},
  };
  for (const Named& named : kFixed) {
    if (name == named.name) return named.type;
  }
  struct Prefix { std::string_view prefix; uint32_t numerical; };
  static constexpr Prefix kPrefixes[] = {{"si", NumericalType::kIntegerSigned},
                                         {"ui", NumericalType::kIntegerUnsigned},
                                         {"i", NumericalType::kInteger},
                                         {"f", NumericalType::kFloatIeee},
                                         {"x", NumericalType::kUnknown}};
  for (const Prefix& prefix : kPrefixes) {
    if (!name.starts_with(prefix.prefix)) continue;
    std::string_view digits = name.substr(prefix.prefix.size());
    uint32_t bits = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), bits);
    if (error != std::errc() || end != digits.data() + digits.size() || bits == 0 || bits > 255) {
      return std::nullopt;
    }
    ElementType type = MakeElementType(prefix.numerical, bits);
    return IsKnownElementType(type) ? std::optional<ElementType>(type) : std::nullopt;
  }
  return std::nullopt;
}

}  // namespace iree_rt::hal
