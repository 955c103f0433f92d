// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

/// <summary>IREE's canonical status codes (iree_rt_status_code_t).</summary>
public enum StatusCode {
  Ok = 0, Cancelled = 1, Unknown = 2, InvalidArgument = 3, DeadlineExceeded = 4, NotFound = 5,
  AlreadyExists = 6, PermissionDenied = 7, ResourceExhausted = 8, FailedPrecondition = 9,
  Aborted = 10, OutOfRange = 11, Unimplemented = 12, Internal = 13, Unavailable = 14,
  DataLoss = 15, Unauthenticated = 16, Deferred = 17, Incompatible = 18,
}

}  // namespace IreeRt
