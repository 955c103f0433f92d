// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// NumPy .npy files <-> buffer views, for `@file.npy` inputs and `--output=@file.npy` results
// (vm_format_facts.md §6.2, §6.4).
//
// Reading accepts format versions 1.0, 2.0 and 3.0, C-order arrays and little-endian (`<`),
// not-applicable (`|`) or native (`=`) byte orders. dtypes map as iree-run-module maps them:
// b1 -> i1 (boolean), i -> siN, u -> uiN, f -> f16/f32/f64, c8/c16 -> cf64/cf128, VN -> opaque *N.
// A file may hold several arrays back to back; each read consumes one.
//
// Writing produces version 1.0 headers byte-identical to iree-run-module's (numpy's layout without
// numpy's extra growth padding), data as stored in the buffer.
//
// Errors: malformed headers and truncated data are INVALID_ARGUMENT; well-formed files this runtime
// cannot represent (big-endian, Fortran order, structured or unsupported dtypes) are UNIMPLEMENTED.
#ifndef IREE_RT_TOOLING_NPY_H_
#define IREE_RT_TOOLING_NPY_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <span>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/allocator.h"
#include "hal/buffer_view.h"
#include "hal/element_type.h"

namespace iree_rt::hal::utils {
class FileStreams;
}  // namespace iree_rt::hal::utils

namespace iree_rt::tooling {

// Reads the array that starts at |stream|'s position and leaves the stream just past its data.
// OUT_OF_RANGE if the stream is already at its end (no array left). The buffer is host-visible,
// mappable memory from |allocator|.
base::StatusOr<base::Ref<hal::BufferView>> ReadNpy(std::istream& stream, hal::Allocator& allocator);

// True when |stream| has no bytes left (so no further array).
bool NpyAtEnd(std::istream& stream);

// Reads the arrays an input spec names: `@PATH` the first array of the file, `+PATH` the array
// after the previous read of PATH through |streams| (the first if none), `*PATH` every array from
// there to the end of the file (possibly none).
base::StatusOr<std::vector<base::Ref<hal::BufferView>>> ReadNpyInput(std::string_view spec,
                                                                     hal::Allocator& allocator,
                                                                     hal::utils::FileStreams& streams);

// The dtype string (`<f4`, `|b1`...) for |type|; UNIMPLEMENTED for types with no NumPy dtype
// (bf16, f8 variants, sub-byte and odd-width integers).
base::StatusOr<std::string> NpyDescr(hal::ElementType type);

// Writes one array of |type| and |shape| (rank 0 = a 0-d array) whose row-major bytes are |data|.
// INVALID_ARGUMENT if |data| does not have exactly the shape's byte size; UNAVAILABLE if the stream
// fails.
base::Status WriteNpyArray(hal::ElementType type, std::span<const int64_t> shape,
                           std::span<const uint8_t> data, std::ostream& stream);

// Writes |view| as one array. FAILED_PRECONDITION if its buffer is not host-readable.
base::Status WriteNpy(const hal::BufferView& view, std::ostream& stream);

// Writes |bytes| as a 1-D i8 array: how buffers (not views) are saved.
base::Status WriteNpyBytes(std::span<const uint8_t> bytes, std::ostream& stream);

}  // namespace iree_rt::tooling

#endif  // IREE_RT_TOOLING_NPY_H_
