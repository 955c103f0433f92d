// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// modules::vmvx::StridedView: a bounds-checked 2-D window of a vm.buffer as the vmvx functions
// describe their operands (element offset, two element strides, two sizes).
//
// The operands come from an untrusted executable, so Map proves every element the window can
// address lies inside the buffer before a kernel touches memory; kernels then index without
// checks. Elements are read and written with memcpy: a binding may start at any byte offset.
#ifndef IREE_RT_MODULES_VMVX_STRIDED_VIEW_H_
#define IREE_RT_MODULES_VMVX_STRIDED_VIEW_H_

#include <cstdint>
#include <cstring>
#include <string_view>

#include "base/status.h"
#include "vm/arg.h"

namespace iree_rt::modules::vmvx {

struct StridedView {
  uint8_t* data = nullptr;  // element (0, 0); null when the window is empty
  uint64_t stride0 = 0;     // in elements
  uint64_t stride1 = 0;
  uint64_t size0 = 0;
  uint64_t size1 = 0;
  uint64_t inner = 1;  // contiguous elements at each (i, j)
  uint32_t element_size = 0;

  bool empty() const { return size0 == 0 || size1 == 0 || inner == 0; }
  // Element |k| of the inner run at (i, j); requires i < size0, j < size1, k < inner.
  uint8_t* At(uint64_t i, uint64_t j, uint64_t k = 0) const {
    return data + (i * stride0 + j * stride1 + k) * element_size;
  }
  template <typename T>
  T Load(uint64_t i, uint64_t j, uint64_t k = 0) const {
    T value;
    std::memcpy(&value, At(i, j, k), sizeof(T));
    return value;
  }
  template <typename T>
  void Store(uint64_t i, uint64_t j, T value) const {
    std::memcpy(At(i, j), &value, sizeof(T));
  }
  template <typename T>
  void Store(uint64_t i, uint64_t j, uint64_t k, T value) const {
    std::memcpy(At(i, j, k), &value, sizeof(T));
  }
};

enum class Access { kRead, kWrite };

// Maps the window of |buffer| (a vm.buffer ref) named |operand| in errors: sizes (size0, size1)
// at element strides (stride0, stride1), each position followed by |inner| contiguous elements
// (a tile of mmt4d/pack/unpack; 1 for plain 2-D operands). A write window may not hold more
// elements than the buffer (a zero stride would make a tiny buffer look endless, and kernels
// loop over their output: this bounds their work). Errors:
// INVALID_ARGUMENT for a null or non-buffer ref or a negative offset, stride or size;
// OUT_OF_RANGE when the window's extent overflows or reaches past the buffer's end;
// PERMISSION_DENIED for kWrite on a read-only buffer. An empty window (a zero size) checks only
// the ref and signs, and maps nothing.
base::StatusOr<StridedView> MapView(vm::RefView buffer, std::string_view operand,
                                    uint32_t element_size, Access access, int64_t offset,
                                    int64_t stride0, int64_t stride1, int64_t size0,
                                    int64_t size1, int64_t inner = 1);

}  // namespace iree_rt::modules::vmvx

#endif  // IREE_RT_MODULES_VMVX_STRIDED_VIEW_H_
