// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_buffer_view_* and iree_rt_element_type_byte_count.
#include "api/handles.h"
#include "api/status_bridge.h"
#include "hal/element_type.h"
#include "iree_rt.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace base = iree_rt::base;
namespace hal = iree_rt::hal;
using api::BufferViewHandle;
using api::CheckNotNull;
using api::FromHandle;
using api::Guard;
using hal::MakeElementType;
using hal::NumericalType::kInteger;
using hal::NumericalType::kIntegerSigned;
using hal::NumericalType::kIntegerUnsigned;

// The public element type numbers are IREE's (hal/element_type.h).
static_assert(IREE_RT_ELEMENT_TYPE_OPAQUE_32 == MakeElementType(hal::NumericalType::kUnknown, 32));
static_assert(IREE_RT_ELEMENT_TYPE_BOOL_8 == hal::ElementTypes::kBool8);
static_assert(IREE_RT_ELEMENT_TYPE_INT_4 == MakeElementType(kInteger, 4));
static_assert(IREE_RT_ELEMENT_TYPE_UINT_4 == MakeElementType(kIntegerUnsigned, 4));
static_assert(IREE_RT_ELEMENT_TYPE_INT_8 == hal::ElementTypes::kInt8);
static_assert(IREE_RT_ELEMENT_TYPE_SINT_8 == hal::ElementTypes::kSint8);
static_assert(IREE_RT_ELEMENT_TYPE_UINT_8 == hal::ElementTypes::kUint8);
static_assert(IREE_RT_ELEMENT_TYPE_INT_16 == hal::ElementTypes::kInt16);
static_assert(IREE_RT_ELEMENT_TYPE_SINT_16 == MakeElementType(kIntegerSigned, 16));
static_assert(IREE_RT_ELEMENT_TYPE_INT_32 == hal::ElementTypes::kInt32);
static_assert(IREE_RT_ELEMENT_TYPE_SINT_32 == hal::ElementTypes::kSint32);
static_assert(IREE_RT_ELEMENT_TYPE_UINT_32 == hal::ElementTypes::kUint32);
static_assert(IREE_RT_ELEMENT_TYPE_INT_64 == hal::ElementTypes::kInt64);
static_assert(IREE_RT_ELEMENT_TYPE_UINT_64 == MakeElementType(kIntegerUnsigned, 64));
static_assert(IREE_RT_ELEMENT_TYPE_FLOAT_16 == hal::ElementTypes::kFloat16);
static_assert(IREE_RT_ELEMENT_TYPE_FLOAT_32 == hal::ElementTypes::kFloat32);
static_assert(IREE_RT_ELEMENT_TYPE_FLOAT_64 == hal::ElementTypes::kFloat64);
static_assert(IREE_RT_ELEMENT_TYPE_BFLOAT_16 == hal::ElementTypes::kBFloat16);
static_assert(IREE_RT_ELEMENT_TYPE_COMPLEX_FLOAT_128 ==
              MakeElementType(hal::NumericalType::kFloatComplex, 128));
static_assert(IREE_RT_ELEMENT_TYPE_FLOAT_8_E5M2 ==
              MakeElementType(hal::NumericalType::kFloat8E5M2, 8));
static_assert(IREE_RT_ELEMENT_TYPE_FLOAT_8_E8M0_FNU ==
              MakeElementType(hal::NumericalType::kFloat8E8M0Fnu, 8));
static_assert(IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR == hal::Encoding::kDenseRowMajor);
static_assert(IREE_RT_MAX_BUFFER_VIEW_RANK == hal::kMaxBufferViewRank);

iree_rt_status_t iree_rt_element_type_byte_count(iree_rt_element_type_t element_type,
                                                 uint64_t element_count, uint64_t* out_byte_count) {
  return Guard(__func__, [&]() -> Status {
    RT_RETURN_IF_ERROR(CheckNotNull(out_byte_count, "out_byte_count"));
    if (!hal::IsKnownElementType(element_type) || element_type == hal::ElementTypes::kNone) {
      return base::InvalidArgumentError("unknown element type 0x", std::hex, element_type);
    }
    std::optional<uint64_t> bytes = hal::ElementByteCount(element_type, element_count);
    if (!bytes) return base::OutOfRangeError(element_count, " elements overflow a 64-bit size");
    *out_byte_count = *bytes;
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_view_create(iree_rt_buffer_t buffer, const int64_t* shape,
                                            size_t rank, iree_rt_element_type_t element_type,
                                            iree_rt_encoding_type_t encoding,
                                            iree_rt_buffer_view_t* out_view) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::BufferHandle * b, FromHandle(buffer, "buffer"));
    RT_RETURN_IF_ERROR(api::CheckArray(shape, rank, "shape"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_view, "out_view"));
    std::span<const int64_t> dims(shape, shape ? rank : 0);
    RT_ASSIGN_OR_RETURN(Ref<hal::BufferView> view,
                        hal::BufferView::Create(b->buffer, dims, element_type, encoding));
    auto handle = MakeRef<BufferViewHandle>(std::move(view), Ref<api::BufferHandle>::Retain(b));
    *out_view = api::ToHandle(std::move(handle));
    return Status::Ok();
  });
}

void iree_rt_buffer_view_retain(iree_rt_buffer_view_t view) { api::RetainHandle(view); }

void iree_rt_buffer_view_release(iree_rt_buffer_view_t view) { api::ReleaseHandle(view); }

iree_rt_status_t iree_rt_buffer_view_buffer(iree_rt_buffer_view_t view,
                                            iree_rt_buffer_t* out_buffer) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferViewHandle * v, FromHandle(view, "view"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_buffer, "out_buffer"));
    *out_buffer = api::BorrowHandle(v->buffer.get());
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_view_rank(iree_rt_buffer_view_t view, size_t* out_rank) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferViewHandle * v, FromHandle(view, "view"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_rank, "out_rank"));
    *out_rank = v->view->rank();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_view_dim(iree_rt_buffer_view_t view, size_t index,
                                         int64_t* out_dim) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferViewHandle * v, FromHandle(view, "view"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_dim, "out_dim"));
    RT_RETURN_IF_ERROR(api::CheckIndex(index, v->view->rank(), "index"));
    *out_dim = v->view->shape()[index];
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_view_shape(iree_rt_buffer_view_t view, size_t capacity,
                                           int64_t* out_shape, size_t* out_rank) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferViewHandle * v, FromHandle(view, "view"));
    RT_RETURN_IF_ERROR(api::CheckArray(out_shape, capacity, "out_shape"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_rank, "out_rank"));
    std::span<const int64_t> shape = v->view->shape();
    if (capacity < shape.size()) {
      return base::OutOfRangeError("parameter 'capacity' is ", capacity, " but the rank is ",
                                   shape.size());
    }
    std::copy(shape.begin(), shape.end(), out_shape);
    *out_rank = shape.size();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_view_element_type(iree_rt_buffer_view_t view,
                                                  iree_rt_element_type_t* out_element_type) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferViewHandle * v, FromHandle(view, "view"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_element_type, "out_element_type"));
    *out_element_type = v->view->element_type();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_view_encoding(iree_rt_buffer_view_t view,
                                              iree_rt_encoding_type_t* out_encoding) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferViewHandle * v, FromHandle(view, "view"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_encoding, "out_encoding"));
    *out_encoding = static_cast<iree_rt_encoding_type_t>(v->view->encoding());
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_view_byte_length(iree_rt_buffer_view_t view,
                                                 uint64_t* out_byte_length) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferViewHandle * v, FromHandle(view, "view"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_byte_length, "out_byte_length"));
    *out_byte_length = v->view->byte_length();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_buffer_view_element_count(iree_rt_buffer_view_t view,
                                                   uint64_t* out_element_count) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(BufferViewHandle * v, FromHandle(view, "view"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_element_count, "out_element_count"));
    *out_element_count = v->view->element_count();
    return Status::Ok();
  });
}
