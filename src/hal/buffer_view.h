// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::BufferView: a buffer plus shape, element type and encoding: how tensors cross APIs.
//
// Immutable after creation; safe to share between threads.
#ifndef IREE_RT_HAL_BUFFER_VIEW_H_
#define IREE_RT_HAL_BUFFER_VIEW_H_

#include <cstdint>
#include <span>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/buffer.h"
#include "hal/element_type.h"

namespace iree_rt::hal {

// Encoding types (§2.2).
using EncodingType = uint32_t;
namespace Encoding {
inline constexpr EncodingType kOpaque = 0;
inline constexpr EncodingType kDenseRowMajor = 1;
}  // namespace Encoding

inline constexpr size_t kMaxBufferViewRank = 16;

class BufferView : public base::RefObject {
 public:
  // Checks that |shape| (non-negative dims, rank ≤ kMaxBufferViewRank) of |element_type| fits in
  // |buffer| and creates the view. The view retains the buffer.
  static base::StatusOr<base::Ref<BufferView>> Create(base::Ref<Buffer> buffer,
                                                      std::span<const int64_t> shape,
                                                      ElementType element_type,
                                                      EncodingType encoding);

  const base::Ref<Buffer>& buffer() const { return buffer_; }
  std::span<const int64_t> shape() const { return {shape_, rank_}; }
  size_t rank() const { return rank_; }
  uint64_t element_count() const { return element_count_; }
  ElementType element_type() const { return element_type_; }
  EncodingType encoding() const { return encoding_; }
  // Bytes of tensor data: the packed size of element_count() elements.
  uint64_t byte_length() const { return byte_length_; }

 private:
  BufferView(base::Ref<Buffer> buffer, std::span<const int64_t> shape, ElementType element_type,
             EncodingType encoding, uint64_t element_count, uint64_t byte_length);

  base::Ref<Buffer> buffer_;
  int64_t shape_[kMaxBufferViewRank];  // inline: a view is one allocation (one per call result)
  size_t rank_;
  ElementType element_type_;
  EncodingType encoding_;
  uint64_t element_count_;
  uint64_t byte_length_;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_BUFFER_VIEW_H_
