// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One element of a buffer view as a number: the one place that knows which element types are
// integers, floats (and how each float format is encoded) and which are only bytes. Used by the
// tensor text (buffer_view_text.h), the check module and iree-rt-run's --expected_output.
#ifndef IREE_RT_HAL_UTILS_ELEMENT_VALUE_H_
#define IREE_RT_HAL_UTILS_ELEMENT_VALUE_H_

#include <cstdint>

#include "hal/element_type.h"

namespace iree_rt::hal::utils {

enum class ElementClass : uint8_t {
  kSigned,    // iN and siN of 8, 16, 32 or 64 bits (signless integers read as signed)
  kUnsigned,  // uiN of 8, 16, 32 or 64 bits
  kFloat,     // f16, f32, f64, bf16 and the five f8 formats
  kBytes,     // everything else: i1 booleans, complex, opaque, sub-byte and odd widths
};

ElementClass ClassifyElement(ElementType type);

// The kFloat element of |type| at |data| (unaligned), widened exactly to double.
double LoadFloatElement(ElementType type, const uint8_t* data);

// Stores |value| as the kFloat |type| at |out|: f64 as it is, f32 rounded once, the narrower
// formats rounded from the f32 nearest |value| (float_convert.h), as iree-run-module parses them.
void StoreFloatElement(ElementType type, double value, uint8_t* out);

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_ELEMENT_VALUE_H_
