// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Element types as IREE numbers them (hal_abi_facts.md §2.1): bits 31..24 the numerical type,
// bits 7..0 the bit width. These values cross the C ABI and the VM unchanged.
#ifndef IREE_RT_HAL_ELEMENT_TYPE_H_
#define IREE_RT_HAL_ELEMENT_TYPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"

namespace iree_rt::hal {

using ElementType = uint32_t;

namespace NumericalType {
inline constexpr uint32_t kUnknown = 0x00;
inline constexpr uint32_t kInteger = 0x10;
inline constexpr uint32_t kIntegerSigned = 0x11;
inline constexpr uint32_t kIntegerUnsigned = 0x12;
inline constexpr uint32_t kBoolean = 0x13;
inline constexpr uint32_t kFloat = 0x20;
inline constexpr uint32_t kFloatIeee = 0x21;
inline constexpr uint32_t kFloatBrain = 0x22;
inline constexpr uint32_t kFloatComplex = 0x23;
inline constexpr uint32_t kFloat8E5M2 = 0x24;
inline constexpr uint32_t kFloat8E4M3FN = 0x25;
inline constexpr uint32_t kFloat8E5M2Fnuz = 0x26;
inline constexpr uint32_t kFloat8E4M3Fnuz = 0x27;
inline constexpr uint32_t kFloat8E8M0Fnu = 0x28;
}  // namespace NumericalType

constexpr ElementType MakeElementType(uint32_t numerical_type, uint32_t bit_count) {
  return (numerical_type << 24) | bit_count;
}
constexpr uint32_t ElementNumericalType(ElementType type) { return type >> 24; }
constexpr uint32_t ElementBitCount(ElementType type) { return type & 0xFF; }

namespace ElementTypes {
inline constexpr ElementType kNone = 0;
inline constexpr ElementType kBool8 = MakeElementType(NumericalType::kBoolean, 8);
inline constexpr ElementType kInt8 = MakeElementType(NumericalType::kInteger, 8);
inline constexpr ElementType kSint8 = MakeElementType(NumericalType::kIntegerSigned, 8);
inline constexpr ElementType kUint8 = MakeElementType(NumericalType::kIntegerUnsigned, 8);
inline constexpr ElementType kInt16 = MakeElementType(NumericalType::kInteger, 16);
inline constexpr ElementType kInt32 = MakeElementType(NumericalType::kInteger, 32);
inline constexpr ElementType kSint32 = MakeElementType(NumericalType::kIntegerSigned, 32);
inline constexpr ElementType kUint32 = MakeElementType(NumericalType::kIntegerUnsigned, 32);
inline constexpr ElementType kInt64 = MakeElementType(NumericalType::kInteger, 64);
inline constexpr ElementType kFloat16 = MakeElementType(NumericalType::kFloatIeee, 16);
inline constexpr ElementType kFloat32 = MakeElementType(NumericalType::kFloatIeee, 32);
inline constexpr ElementType kFloat64 = MakeElementType(NumericalType::kFloatIeee, 64);
inline constexpr ElementType kBFloat16 = MakeElementType(NumericalType::kFloatBrain, 16);
}  // namespace ElementTypes

// Whether |type| is a numerical type and width this runtime knows (opaque types of any width are).
bool IsKnownElementType(ElementType type);

// Bytes needed for |count| densely packed elements (sub-byte types pack), or nullopt on overflow.
std::optional<uint64_t> ElementByteCount(ElementType type, uint64_t count);

// The one spelling of element types, IREE's runtime's (what iree-run-module prints and parses):
// iN, siN, uiN, i1 (8-bit boolean), f16/f32/f64, bf16, cfN (complex, N = total bits: cf64 is
// complex<f32>), f8E5M2, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E8M0FNU, and *N for opaque types.
// Used by every message and every printed result (docs/facts_corrections.md, "element types").
std::string ElementTypeName(ElementType type);
// Parses the names ElementTypeName produces, and xN for *N (an older spelling of ours; IREE reads
// `2xx8` as a bad shape). INVALID_ARGUMENT naming |name| for anything else, including types
// IsKnownElementType rejects (f80, cf32).
base::StatusOr<ElementType> ParseElementType(std::string_view name);

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_ELEMENT_TYPE_H_
