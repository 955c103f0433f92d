// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

namespace {

// Types with a fixed name; the others are a prefix and the bit count.
struct NamedType {
  std::string_view name;
  ElementType type;
};
constexpr NamedType kNamedTypes[] = {
    {"i1", ElementTypes::kBool8},
    {"bf16", ElementTypes::kBFloat16},
    {"f8E5M2", MakeElementType(NumericalType::kFloat8E5M2, 8)},
    {"f8E4M3FN", MakeElementType(NumericalType::kFloat8E4M3FN, 8)},
    {"f8E5M2FNUZ", MakeElementType(NumericalType::kFloat8E5M2Fnuz, 8)},
    {"f8E4M3FNUZ", MakeElementType(NumericalType::kFloat8E4M3Fnuz, 8)},
    {"f8E8M0FNU", MakeElementType(NumericalType::kFloat8E8M0Fnu, 8)},
};

// Longer prefixes first, so that "si8" is not read as "i" (and "cf64" not as "f"). The first
// prefix of each numerical type is the one ElementTypeName prints.
struct PrefixedType {
  std::string_view prefix;
  uint32_t numerical;
};
constexpr PrefixedType kPrefixedTypes[] = {
    {"si", NumericalType::kIntegerSigned}, {"ui", NumericalType::kIntegerUnsigned},
    {"cf", NumericalType::kFloatComplex},  {"i", NumericalType::kInteger},
    {"f", NumericalType::kFloatIeee},      {"*", NumericalType::kUnknown},
    {"x", NumericalType::kUnknown},
};

}  // namespace

std::string ElementTypeName(ElementType type) {
  const uint32_t numerical = ElementNumericalType(type);
  if (numerical == NumericalType::kFloatBrain) return "bf" + std::to_string(ElementBitCount(type));
  // The other named types are one per numerical type (a boolean of any width prints as i1).
  for (const NamedType& named : kNamedTypes) {
    if (ElementNumericalType(named.type) == numerical) return std::string(named.name);
  }
  std::string_view prefix = "*";
  for (const PrefixedType& prefixed : kPrefixedTypes) {
    if (prefixed.numerical == numerical) {
      prefix = prefixed.prefix;
      break;
    }
  }
  return std::string(prefix) + std::to_string(ElementBitCount(type));
}

base::StatusOr<ElementType> ParseElementType(std::string_view name) {
  for (const NamedType& named : kNamedTypes) {
    if (name == named.name) return named.type;
  }
  for (const PrefixedType& prefixed : kPrefixedTypes) {
    if (!name.starts_with(prefixed.prefix)) continue;
    std::string_view digits = name.substr(prefixed.prefix.size());
    uint32_t bits = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), bits);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
        bits == 0 || bits > 255) {
      break;
    }
    const ElementType type = MakeElementType(prefixed.numerical, bits);
    if (!IsKnownElementType(type)) break;
    return type;
  }
  return base::InvalidArgumentError("unsupported element type '", name, "'");
}

}  // namespace iree_rt::hal
