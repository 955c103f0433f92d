// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/vmvx/strided_view.h"

#include "vm/buffer.h"

namespace iree_rt::modules::vmvx {

base::StatusOr<StridedView> MapView(vm::RefView buffer_ref, std::string_view operand,
                                    uint32_t element_size, Access access, int64_t offset,
                                    int64_t stride0, int64_t stride1, int64_t size0,
                                    int64_t size1, int64_t inner) {
  vm::Buffer* buffer = buffer_ref.Get<vm::Buffer>();
  if (!buffer) return base::InvalidArgumentError(operand, " is not a vm.buffer (null or another type)");
  if (offset < 0 || stride0 < 0 || stride1 < 0 || size0 < 0 || size1 < 0 || inner < 0) {
    return base::InvalidArgumentError(operand, " has a negative offset, stride or size (offset ",
                                      offset, ", strides ", stride0, "x", stride1, ", sizes ",
                                      size0, "x", size1, ")");
  }
  StridedView view;
  view.stride0 = static_cast<uint64_t>(stride0);
  view.stride1 = static_cast<uint64_t>(stride1);
  view.size0 = static_cast<uint64_t>(size0);
  view.size1 = static_cast<uint64_t>(size1);
  view.inner = static_cast<uint64_t>(inner);
  view.element_size = element_size;
  if (view.empty()) return view;
  // Last element index = offset + (size0-1)*stride0 + (size1-1)*stride1 + inner-1; its end in
  // bytes must not pass the buffer. Every step is overflow-checked: the values are the program's.
  uint64_t last = 0, term = 0, end = 0, count = 0;
  bool overflow = __builtin_mul_overflow(view.size0 - 1, view.stride0, &last) ||
                  __builtin_mul_overflow(view.size1 - 1, view.stride1, &term) ||
                  __builtin_add_overflow(last, term, &last) ||
                  __builtin_add_overflow(last, view.inner - 1, &last) ||
                  __builtin_add_overflow(last, static_cast<uint64_t>(offset), &last) ||
                  __builtin_add_overflow(last, uint64_t{1}, &end) ||
                  __builtin_mul_overflow(end, uint64_t{element_size}, &end);
  const uint64_t begin = static_cast<uint64_t>(offset) * element_size;  // offset <= last: no overflow
  if (overflow || end > buffer->length()) {
    return base::OutOfRangeError(operand, " window (element offset ", offset, ", strides ",
                                 stride0, "x", stride1, ", sizes ", size0, "x", size1, "x", inner, ", ",
                                 element_size, "-byte elements) reaches past the buffer's ",
                                 buffer->length(), " bytes");
  }
  if (access == Access::kWrite) {
    if (__builtin_mul_overflow(view.size0, view.size1, &count) ||
        __builtin_mul_overflow(count, view.inner, &count) ||
        count > buffer->length() / element_size) {
      return base::OutOfRangeError(operand, " window writes ", size0, "x", size1, "x", inner,
                                   " elements, more than the buffer's ", buffer->length(),
                                   " bytes hold");
    }
    if (!buffer->is_mutable()) {
      return base::MakeStatus(base::StatusCode::kPermissionDenied, operand, " is a read-only buffer and cannot be written");
    }
    RT_ASSIGN_OR_RETURN(std::span<uint8_t> bytes, buffer->WriteRange(begin, end - begin));
    view.data = bytes.data();
  } else {
    RT_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, buffer->ReadRange(begin, end - begin));
    // Kernels never store through a read window.
    view.data = const_cast<uint8_t*>(bytes.data());
  }
  return view;
}

}  // namespace iree_rt::modules::vmvx
