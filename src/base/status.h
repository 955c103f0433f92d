// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Status and StatusOr<T>: the error currency of every layer below the C ABI.
//
// An OK status holds no allocation. An error holds a shared, immutable, reference-counted
// record {code, message}, so copying a status (one semaphore failure delivered to many
// waiters) is cheap. Codes are IREE's canonical set; their numeric values are
// part of the public ABI (iree_rt_status_code_t).
#ifndef IREE_RT_BASE_STATUS_H_
#define IREE_RT_BASE_STATUS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "base/str_cat.h"  // IWYU pragma: export (StrCat, StrPiece)

namespace iree_rt::base {

enum class StatusCode : uint32_t {
  kOk = 0,
  kCancelled = 1,           // the operation was cancelled, typically by the caller
  kUnknown = 2,             // an error with no better code (e.g. a bare failure)
  kInvalidArgument = 3,     // the argument is bad regardless of system state
  kDeadlineExceeded = 4,    // a timeout expired before the operation finished
  kNotFound = 5,            // a named entity (driver, function, file) does not exist
  kAlreadyExists = 6,       // the entity to create exists already
  kPermissionDenied = 7,    // the caller may not do this
  kResourceExhausted = 8,   // out of memory or over a configured limit
  kFailedPrecondition = 9,  // the system is not in the state the call needs
  kAborted = 10,            // aborted by a concurrency conflict
  kOutOfRange = 11,         // an offset/length/index past the valid range
  kUnimplemented = 12,      // not implemented or not supported by this driver
  kInternal = 13,           // an invariant of ours broke: a bug
  kUnavailable = 14,        // the service or device is unavailable (maybe transient)
  kDataLoss = 15,           // unrecoverable data loss or corruption
  kUnauthenticated = 16,    // missing or bad credentials
  kDeferred = 17,           // the operation was deferred and will complete later
  kIncompatible = 18,       // a version or format this runtime does not support
};

// Returns the canonical upper-case name of |code| ("INVALID_ARGUMENT").
const char* StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message);
  // The record is shared by reference count. Only the increment is inline: the release is a call
  // (Unref), since a Status is destroyed at every RT_RETURN_IF_ERROR and an inlined
  // shared_ptr release there was a sizeable share of the library.
  Status(const Status& other) noexcept : rep_(other.rep_) {
    if (rep_) rep_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  Status(Status&& other) noexcept : rep_(std::exchange(other.rep_, nullptr)) {}
  Status& operator=(const Status& other) noexcept {
    Status copy(other);
    std::swap(rep_, copy.rep_);
    return *this;
  }
  Status& operator=(Status&& other) noexcept {
    Status taken(std::move(other));
    std::swap(rep_, taken.rep_);
    return *this;
  }
  ~Status() {
    if (rep_) Unref(rep_);
  }

  static Status Ok() { return Status(); }

  bool ok() const { return rep_ == nullptr; }
  StatusCode code() const { return rep_ ? rep_->code : StatusCode::kOk; }
  std::string_view message() const { return rep_ ? std::string_view(rep_->message) : ""; }

  // Appends "; |context|" to the message; a no-op on OK. Returns *this for chaining.
  Status& Annotate(std::string_view context);

  // "CODE: message", or "OK".
  std::string ToString() const;

  // Explicitly discards an error the caller cannot act on.
  void IgnoreError() const {}

 private:
  struct Rep {
    mutable std::atomic<int32_t> refs;
    StatusCode code;
    std::string message;
  };
  static void Unref(const Rep* rep) noexcept;
  const Rep* rep_ = nullptr;
};

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status status) : value_(std::move(status)) {}  // NOLINT: implicit by design
  StatusOr(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(value_); }
  Status status() const { return ok() ? Status() : std::get<Status>(value_); }
  T& value() & { return std::get<T>(value_); }
  const T& value() const& { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<Status, T> value_;
};

// The status of |code| with the message StrCat(pieces...) (str_cat.cc: out of line, so that an
// error site costs a call, not an inlined string build).
Status MakeStatusPieces(StatusCode code, std::initializer_list<StrPiece> pieces);

template <typename... Args>
Status MakeStatus(StatusCode code, const Args&... args) {
  return MakeStatusPieces(code, {StrPiece(args)...});
}
template <typename... Args>
Status InvalidArgumentError(const Args&... a) { return MakeStatus(StatusCode::kInvalidArgument, a...); }
template <typename... Args>
Status OutOfRangeError(const Args&... a) { return MakeStatus(StatusCode::kOutOfRange, a...); }
template <typename... Args>
Status FailedPreconditionError(const Args&... a) { return MakeStatus(StatusCode::kFailedPrecondition, a...); }
template <typename... Args>
Status NotFoundError(const Args&... a) { return MakeStatus(StatusCode::kNotFound, a...); }
template <typename... Args>
Status UnimplementedError(const Args&... a) { return MakeStatus(StatusCode::kUnimplemented, a...); }
template <typename... Args>
Status UnavailableError(const Args&... a) { return MakeStatus(StatusCode::kUnavailable, a...); }
template <typename... Args>
Status InternalError(const Args&... a) { return MakeStatus(StatusCode::kInternal, a...); }
template <typename... Args>
Status ResourceExhaustedError(const Args&... a) { return MakeStatus(StatusCode::kResourceExhausted, a...); }
template <typename... Args>
Status DeadlineExceededError(const Args&... a) { return MakeStatus(StatusCode::kDeadlineExceeded, a...); }
template <typename... Args>
Status AbortedError(const Args&... a) { return MakeStatus(StatusCode::kAborted, a...); }
template <typename... Args>
Status AlreadyExistsError(const Args&... a) { return MakeStatus(StatusCode::kAlreadyExists, a...); }
template <typename... Args>
Status IncompatibleError(const Args&... a) { return MakeStatus(StatusCode::kIncompatible, a...); }

}  // namespace iree_rt::base

#define RT_STATUS_CONCAT_INNER_(a, b) a##b
#define RT_STATUS_CONCAT_(a, b) RT_STATUS_CONCAT_INNER_(a, b)

// Returns the status of |expr| from the enclosing function if it is an error.
#define RT_RETURN_IF_ERROR(expr)                                  \
  do {                                                            \
    ::iree_rt::base::Status rt_status_ = (expr);                  \
    if (!rt_status_.ok()) return rt_status_;                      \
  } while (false)

// Evaluates a StatusOr<T> |expr|; returns its error, or moves the value to |lhs|.
#define RT_ASSIGN_OR_RETURN(lhs, expr) \
  RT_ASSIGN_OR_RETURN_IMPL_(RT_STATUS_CONCAT_(rt_statusor_, __LINE__), lhs, expr)
#define RT_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

#endif  // IREE_RT_BASE_STATUS_H_
