// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/buffer_view.h"

#include <algorithm>

namespace iree_rt::hal {

using base::Ref;
using base::StatusOr;

BufferView::BufferView(Ref<Buffer> buffer, std::span<const int64_t> shape, ElementType element_type,
                       EncodingType encoding, uint64_t element_count, uint64_t byte_length)
    : buffer_(std::move(buffer)), rank_(shape.size()), element_type_(element_type),
      encoding_(encoding), element_count_(element_count), byte_length_(byte_length) {
  std::copy(shape.begin(), shape.end(), shape_);  // rank checked by Create
}

StatusOr<Ref<BufferView>> BufferView::Create(Ref<Buffer> buffer, std::span<const int64_t> shape,
                                             ElementType element_type, EncodingType encoding) {
  if (!buffer) return base::InvalidArgumentError("buffer view needs a buffer");
  if (shape.size() > kMaxBufferViewRank) {
    return base::InvalidArgumentError("rank ", shape.size(), " exceeds the maximum of ",
                                      kMaxBufferViewRank);
  }
  if (!IsKnownElementType(element_type) || element_type == ElementTypes::kNone) {
    return base::InvalidArgumentError("unknown element type 0x", std::hex, element_type);
  }
  if (encoding != Encoding::kOpaque && encoding != Encoding::kDenseRowMajor) {
    return base::InvalidArgumentError("unknown encoding type ", encoding);
  }
  uint64_t count = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) return base::InvalidArgumentError("dimension ", i, " is negative (", shape[i], ")");
    uint64_t dim = static_cast<uint64_t>(shape[i]);
    if (dim && count > UINT64_MAX / dim) return base::OutOfRangeError("shape element count overflows");
    count *= dim;
  }
  std::optional<uint64_t> bytes = ElementByteCount(element_type, count);
  if (!bytes) return base::OutOfRangeError("tensor byte size overflows");
  if (*bytes > buffer->byte_length()) {
    return base::OutOfRangeError("shape needs ", *bytes, " bytes of ", ElementTypeName(element_type),
                                 " but the buffer holds ", buffer->byte_length());
  }
  return Ref<BufferView>::Adopt(new BufferView(std::move(buffer), shape,
                                               element_type, encoding, count, *bytes));
}

}  // namespace iree_rt::hal
