// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/status.h"

namespace iree_rt::base {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kCancelled: return "CANCELLED";
    case StatusCode::kUnknown: return "UNKNOWN";
    case StatusCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case StatusCode::kDeadlineExceeded: return "DEADLINE_EXCEEDED";
    case StatusCode::kNotFound: return "NOT_FOUND";
    case StatusCode::kAlreadyExists: return "ALREADY_EXISTS";
    case StatusCode::kPermissionDenied: return "PERMISSION_DENIED";
    case StatusCode::kResourceExhausted: return "RESOURCE_EXHAUSTED";
    case StatusCode::kFailedPrecondition: return "FAILED_PRECONDITION";
    case StatusCode::kAborted: return "ABORTED";
    case StatusCode::kOutOfRange: return "OUT_OF_RANGE";
    case StatusCode::kUnimplemented: return "UNIMPLEMENTED";
    case StatusCode::kInternal: return "INTERNAL";
    case StatusCode::kUnavailable: return "UNAVAILABLE";
    case StatusCode::kDataLoss: return "DATA_LOSS";
    case StatusCode::kUnauthenticated: return "UNAUTHENTICATED";
    case StatusCode::kDeferred: return "DEFERRED";
    case StatusCode::kIncompatible: return "INCOMPATIBLE";
  }
  return "UNKNOWN_CODE";
}

Status::Status(StatusCode code, std::string message) {
  // An OK code never carries a record: OK statuses must stay allocation-free.
  if (code != StatusCode::kOk) rep_ = new Rep{{1}, code, std::move(message)};
}

void Status::Unref(const Rep* rep) noexcept {
  // acq_rel: the deleting thread must see every use made before other releases.
  if (rep->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete rep;
}

Status& Status::Annotate(std::string_view context) {
  if (!rep_ || context.empty()) return *this;
  std::string message = rep_->message;
  if (!message.empty()) message += "; ";
  message += context;
  *this = Status(rep_->code, std::move(message));
  return *this;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string result = StatusCodeName(code());
  if (!message().empty()) {
    result += ": ";
    result += message();
  }
  return result;
}

}  // namespace iree_rt::base
