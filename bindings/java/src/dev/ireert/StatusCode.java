// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/** IREE's canonical status codes, with the values of iree_rt_status_code_t. */
public enum StatusCode {
  OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS,
  PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE,
  UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED, DEFERRED, INCOMPATIBLE;

  private static final StatusCode[] VALUES = values();

  /** The code's value (its ordinal: the enum lists the codes in order). */
  public int value() {
    return ordinal();
  }

  /** The code with |value|, or UNKNOWN for a value outside 0..18. */
  public static StatusCode fromValue(int value) {
    return value >= 0 && value < VALUES.length ? VALUES[value] : UNKNOWN;
  }
}
