// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/hal/args.h"

#include "hal/fence.h"

namespace iree_rt::modules::hal {

using base::Status;
using base::StatusOr;

StatusOr<uint64_t> NonNegative(int64_t value, const char* what) {
  if (value < 0) return base::OutOfRangeError(what, " ", value, " is negative");
  return static_cast<uint64_t>(value);
}

StatusOr<std::span<const uint8_t>> BytesArg(const vm::Arg& value, const char* what) {
  RT_ASSIGN_OR_RETURN(vm::Buffer * buffer, RefArg<vm::Buffer>(value, what));
  return buffer->bytes();
}

StatusOr<std::string_view> StringArg(const vm::Arg& value, const char* what) {
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, BytesArg(value, what));
  return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

Status FenceArg(const vm::Arg& value, const char* what, rt::PointList* points) {
  if (rt::Fence* fence = value.ref().Get<rt::Fence>()) {
    fence->AppendPoints(points);
    return Status::Ok();
  }
  return NullableRefArg<rt::Fence>(value, what).status();  // null: OK; another type: the error
}

StatusOr<rt::BufferRef> BufferRefArg(const vm::Arg& buffer, int32_t slot, int64_t offset,
                                     int64_t length, const char* what) {
  RT_ASSIGN_OR_RETURN(rt::Buffer * object, NullableRefArg<rt::Buffer>(buffer, what));
  if (!object && slot < 0) {
    return base::InvalidArgumentError(what, " is null and its binding slot ", slot, " is negative");
  }
  if (offset < 0) return base::OutOfRangeError(what, ": negative offset ", offset);
  rt::BufferRef ref;
  ref.buffer = base::Ref<rt::Buffer>::Retain(object);
  ref.slot = object ? 0 : static_cast<uint32_t>(slot);
  ref.offset = static_cast<uint64_t>(offset);
  // -1 is the compiler's "to the end", which is kWholeBuffer's bit pattern.
  ref.length = static_cast<uint64_t>(length);
  return ref;
}

StatusOr<size_t> SpanCount(std::span<const vm::Arg> args, size_t* index, size_t tuple_size) {
  if (*index >= args.size()) return base::InvalidArgumentError("missing variadic span count");
  const int32_t count = args[*index].i32();
  ++*index;
  if (count < 0 || static_cast<uint64_t>(count) * tuple_size > args.size() - *index) {
    return base::InvalidArgumentError("variadic span count ", count, " does not fit the arguments");
  }
  return static_cast<size_t>(count);
}

base::StatusCode StatusCodeFromI32(int32_t code) {
  return static_cast<base::StatusCode>(static_cast<uint32_t>(code) & 0x1F);
}

}  // namespace iree_rt::modules::hal
