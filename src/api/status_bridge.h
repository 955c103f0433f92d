// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The status half of the C shim: base::Status -> iree_rt_status_t, the Guard every exported
// function runs its body in, and the argument checks shared by all of them.
#ifndef IREE_RT_API_STATUS_BRIDGE_H_
#define IREE_RT_API_STATUS_BRIDGE_H_

#include <cstddef>
#include <new>

#include "base/status.h"
#include "iree_rt.h"

namespace iree_rt::api {

// NULL for OK; otherwise a new record whose message is prefixed with "|function|: ". Never
// throws: when the record cannot be allocated it returns OutOfMemoryStatus().
iree_rt_status_t MakeApiStatus(const base::Status& status, const char* function) noexcept;

// A preallocated RESOURCE_EXHAUSTED status (iree_rt_status_free ignores it).
iree_rt_status_t OutOfMemoryStatus() noexcept;

// Runs |body| (returning base::Status) and converts its result. No exception escapes:
// std::bad_alloc becomes RESOURCE_EXHAUSTED and anything else INTERNAL (ORT's API_IMPL_BEGIN/END,
// as a function).
template <typename Body>
iree_rt_status_t Guard(const char* function, Body&& body) noexcept {
  try {
    return MakeApiStatus(body(), function);
  } catch (const std::bad_alloc&) {
    return OutOfMemoryStatus();
  } catch (...) {
    return MakeApiStatus(base::InternalError("unexpected C++ exception"), function);
  }
}

// INVALID_ARGUMENT "parameter '|name|' is NULL" if |pointer| is null.
base::Status CheckNotNull(const void* pointer, const char* name);
// INVALID_ARGUMENT if |pointer| is null while |count| is not zero.
base::Status CheckArray(const void* pointer, size_t count, const char* name);
// INVALID_ARGUMENT for IREE_RT_WHOLE_BUFFER where an exact byte count is needed.
base::Status CheckExactLength(uint64_t length, const char* name);
// OUT_OF_RANGE unless |index| < |count|.
base::Status CheckIndex(size_t index, size_t count, const char* name);

// INVALID_ARGUMENT unless |code| is a known error code (not OK).
base::Status CheckErrorCode(iree_rt_status_code_t code, const char* name);
// The failure a caller asks to store (semaphore/fence fail); |message| may be null.
base::Status MakeFailure(iree_rt_status_code_t code, const char* message);

}  // namespace iree_rt::api

#endif  // IREE_RT_API_STATUS_BRIDGE_H_
