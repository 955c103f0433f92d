// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_status_*: reading and freeing the status records made by api::Guard.
#include "api/handles.h"
#include "base/status.h"
#include "iree_rt.h"

using iree_rt::api::FromApiStatus;
using iree_rt::api::StatusRecord;

static_assert(IREE_RT_STATUS_INCOMPATIBLE ==
                  static_cast<int>(iree_rt::base::StatusCode::kIncompatible),
              "status codes must match base::StatusCode");
static_assert(IREE_RT_STATUS_DEFERRED == static_cast<int>(iree_rt::base::StatusCode::kDeferred));
static_assert(IREE_RT_STATUS_INVALID_ARGUMENT ==
              static_cast<int>(iree_rt::base::StatusCode::kInvalidArgument));

iree_rt_status_code_t iree_rt_status_code(iree_rt_status_t status) {
  return status ? FromApiStatus(status)->code : IREE_RT_STATUS_OK;
}

const char* iree_rt_status_message(iree_rt_status_t status) {
  return status ? FromApiStatus(status)->message.c_str() : "";
}

void iree_rt_status_free(iree_rt_status_t status) {
  StatusRecord* record = FromApiStatus(status);
  if (record && !record->is_static) delete record;
}

const char* iree_rt_status_code_name(iree_rt_status_code_t code) {
  int64_t value = code;
  if (value < IREE_RT_STATUS_OK || value > IREE_RT_STATUS_INCOMPATIBLE) return "UNKNOWN_CODE";
  return iree_rt::base::StatusCodeName(static_cast<iree_rt::base::StatusCode>(code));
}
