// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Buffer views as command-line text, in iree-run-module's conventions (vm_format_facts.md §6.2,
// §6.4): `2x3xf32=1 2 3 4 5 6` in, `2x3xf32=[1 2 3][4 5 6]` out.
//
// Element text by type:
//  - i8/i16/i32/i64, si*, ui* (8/16/32/64 bits): decimal integers (C strtoll rules: `0x` hex,
//    leading `0` octal, trailing junk ignored). Printed signed for iN/siN, unsigned for uiN.
//  - f16, bf16, f32, f64 and the f8 variants: C strtof (strtod for f64), rounded to the element
//    type to nearest-even; printed with "%G" of the value widened to f32/f64.
//  - everything else (i1 booleans, complex cfN, opaque *N, sub-byte and odd-width types): each
//    element as exactly 2*ceil(bits/8) hex digits of its little-endian bytes, printed upper-case.
//
// These functions are independent of the VM and of any device: buffers come from the allocator
// given and are read through host mapping.
#ifndef IREE_RT_HAL_UTILS_BUFFER_VIEW_TEXT_H_
#define IREE_RT_HAL_UTILS_BUFFER_VIEW_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/allocator.h"
#include "hal/buffer_view.h"
#include "hal/element_type.h"

namespace iree_rt::hal::utils {

class FileStreams;

// Element types are spelled as hal::ElementTypeName prints and hal::ParseElementType reads them.

// Appends the text of one byte-aligned element of |type| at |element|, as FormatBufferView
// writes it (and iree-run-module's --expected_output reports a mismatching element).
void AppendElementText(hal::ElementType type, const uint8_t* element, std::string& out);

struct ShapeAndType {
  std::vector<int64_t> shape;
  hal::ElementType element_type = hal::ElementTypes::kNone;
};

// Parses `2x3xf32`, `xf32` or `f32` (rank 0): decimal dims joined by `x`, then the element type
// after the last `x`. INVALID_ARGUMENT for empty, negative or non-decimal dims or an unknown type.
base::StatusOr<ShapeAndType> ParseShapeAndType(std::string_view text);

// Parses `SHAPExTYPE[=DATA]` into a new buffer view of dense row-major data. Surrounding whitespace
// and one pair of surrounding double quotes are ignored. DATA is one of:
//  - absent or empty: zeros;
//  - values separated by whitespace, `,`, `[` or `]` (brackets are cosmetic): exactly one value
//    fills every element; otherwise there must be exactly one value per element (OUT_OF_RANGE
//    "input data string underflow"/"overflow");
//  - `@PATH` or `+PATH`: the tensor's bytes read raw from the file, from its start (`@`) or from
//    where the previous read of PATH through |streams| stopped (`+`). OUT_OF_RANGE if the file
//    ends first. With |streams| null, `+` reads from the start.
// Values that do not parse, or integers outside the element type's range, are INVALID_ARGUMENT.
// The buffer is allocated from |allocator| as host-visible, mappable memory; allocators that cannot
// provide that fail with their own error.
base::StatusOr<base::Ref<hal::BufferView>> ParseBufferView(std::string_view spec,
                                                           hal::Allocator& allocator,
                                                           FileStreams* streams = nullptr);

// Formats |view| as `[SHAPEx]TYPE=ELEMENTS`: rank 0 has no shape prefix; the innermost dimension's
// elements are separated by spaces and each outer dimension wraps its sub-arrays in `[`...`]`
// (`2x2x2xi8=[[1 2][3 4]][[5 6][7 8]]`). At most |max_element_count| elements are printed; a row
// that is cut ends in `...` right after its last printed element, and later rows print only `...`.
// In a view with no elements each (empty) sub-array counts as one element, so the text stays
// bounded whatever the shape (`4x0xf32=[][][][]`).
// The data is read as dense row-major whatever the view's encoding says. FAILED_PRECONDITION if the
// view's buffer cannot be mapped for reading by the host (transfer it to host memory first).
base::StatusOr<std::string> FormatBufferView(const hal::BufferView& view, size_t max_element_count);

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_BUFFER_VIEW_TEXT_H_
