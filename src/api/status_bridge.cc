// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "api/status_bridge.h"

#include <string>

#include "api/handles.h"

namespace iree_rt::api {

namespace {

// Built when the library loads: reporting an allocation failure must not need an allocation
// (a function-local static would allocate its message on the first failure, and a throw there
// would terminate the process).
StatusRecord g_out_of_memory{IREE_RT_STATUS_RESOURCE_EXHAUSTED, "out of host memory", true};

}  // namespace

iree_rt_status_t OutOfMemoryStatus() noexcept { return ToApiStatus(&g_out_of_memory); }

iree_rt_status_t MakeApiStatus(const base::Status& status, const char* function) noexcept {
  if (status.ok()) return nullptr;
  try {
    std::string message = function;
    message += ": ";
    message += status.message();
    auto code = static_cast<iree_rt_status_code_t>(status.code());
    return ToApiStatus(new StatusRecord{code, std::move(message), false});
  } catch (...) {
    return OutOfMemoryStatus();
  }
}

base::Status CheckNotNull(const void* pointer, const char* name) {
  if (!pointer) return base::InvalidArgumentError("parameter '", name, "' is NULL");
  return base::Status::Ok();
}

base::Status CheckArray(const void* pointer, size_t count, const char* name) {
  if (!pointer && count) {
    return base::InvalidArgumentError("parameter '", name, "' is NULL but its count is ", count);
  }
  return base::Status::Ok();
}

base::Status CheckExactLength(uint64_t length, const char* name) {
  if (length == IREE_RT_WHOLE_BUFFER) {
    return base::InvalidArgumentError("parameter '", name,
                                      "' must be an exact byte count, not IREE_RT_WHOLE_BUFFER");
  }
  return base::Status::Ok();
}

base::Status CheckIndex(size_t index, size_t count, const char* name) {
  if (index >= count) {
    return base::OutOfRangeError("parameter '", name, "' is ", index, " but the count is ", count);
  }
  return base::Status::Ok();
}

base::Status CheckErrorCode(iree_rt_status_code_t code, const char* name) {
  int64_t value = code;
  if (value <= IREE_RT_STATUS_OK || value > IREE_RT_STATUS_INCOMPATIBLE) {
    return base::InvalidArgumentError("parameter '", name, "' must be an error code (1..18), got ",
                                      value);
  }
  return base::Status::Ok();
}

base::Status MakeFailure(iree_rt_status_code_t code, const char* message) {
  return base::Status(static_cast<base::StatusCode>(code), message ? message : "");
}

}  // namespace iree_rt::api
