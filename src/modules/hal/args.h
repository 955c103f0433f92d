// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Argument decoding shared by the `hal` module's exports: typed refs with messages that name the
// argument, strings and byte ranges from vm.buffers, fences as semaphore lists, and the
// variadic spans (an i32 count, then the flattened tuples; vm/module.h).
#ifndef IREE_RT_MODULES_HAL_ARGS_H_
#define IREE_RT_MODULES_HAL_ARGS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "hal/command_buffer.h"
#include "hal/fence.h"
#include "hal/semaphore.h"
#include "modules/hal/ref_types.h"
#include "vm/arg.h"
#include "vm/buffer.h"
#include "vm/value.h"

namespace iree_rt::modules::hal {

namespace rt = ::iree_rt::hal;

// The handler signature of every export (vm::NativeModule::Handler).
using Args = std::span<const vm::Arg>;
using Results = std::span<vm::Value>;

// An i64 offset, length or size that must not be negative; OUT_OF_RANGE naming |what|.
base::StatusOr<uint64_t> NonNegative(int64_t value, const char* what);

// The object of a ref argument, INVALID_ARGUMENT naming |what| when it is null or of another type.
template <typename T>
base::StatusOr<T*> RefArg(const vm::Arg& value, const char* what) {
  const vm::RefView ref = value.ref();
  if (ref.is_null()) return base::InvalidArgumentError(what, " is null");
  T* object = ref.Get<T>();
  if (!object) {
    return base::InvalidArgumentError(what, ": expected a ", vm::RefTypeOf<T>()->name, ", got a ",
                                      ref.type() ? ref.type()->name : std::string_view("ref"));
  }
  return object;
}

// As RefArg, but null is allowed (returns nullptr).
template <typename T>
base::StatusOr<T*> NullableRefArg(const vm::Arg& value, const char* what) {
  if (value.ref().is_null()) return static_cast<T*>(nullptr);
  return RefArg<T>(value, what);
}

// A retained base::Ref to the object of a ref argument (null allowed).
template <typename T>
base::Ref<T> RetainArg(const vm::Arg& value) {
  return value.ref().GetRef<T>();
}

// A result holding |object|.
template <typename T>
vm::Value RefResult(base::Ref<T> object) {
  return vm::Value::FromRef(vm::Ref::Make(std::move(object)));
}

// The bytes of a vm.buffer argument (strings, executable data): borrowed from the argument.
base::StatusOr<std::span<const uint8_t>> BytesArg(const vm::Arg& value, const char* what);
base::StatusOr<std::string_view> StringArg(const vm::Arg& value, const char* what);
// The bytes of |buffer| as text.
inline std::string_view Text(const vm::Buffer& buffer) {
  std::span<const uint8_t> bytes = buffer.bytes();
  return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// Appends the timepoints of a wait or signal fence argument to |points| (a null fence adds
// none). The semaphores are borrowed from the fence, which the argument keeps alive for the call.
base::Status FenceArg(const vm::Arg& value, const char* what, rt::PointList* points);

// A buffer argument that may be null, in which case |slot| names a binding-table entry.
base::StatusOr<rt::BufferRef> BufferRefArg(const vm::Arg& buffer, int32_t slot, int64_t offset,
                                           int64_t length, const char* what);

// Reads one variadic span starting at args[*index]: returns its element count and advances
// *index past the count; the caller then reads count * tuple-size values. The cconv check has
// already proved the layout, so this only guards against a count that does not fit.
base::StatusOr<size_t> SpanCount(std::span<const vm::Arg> args, size_t* index,
                                 size_t tuple_size);

// An i32 status code from the VM (fence.fail, query results) as a status, masked like the
// reference (5 bits).
base::StatusCode StatusCodeFromI32(int32_t code);

}  // namespace iree_rt::modules::hal

#endif  // IREE_RT_MODULES_HAL_ARGS_H_
