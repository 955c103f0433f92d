// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/** The configurable limits, with the values of iree_rt_limit_t (defaults in include/iree_rt.h). */
public enum Limit {
  MAX_CALL_DEPTH(1), MAX_LIST_LENGTH(2), MAX_ALLOCATION_SIZE(3), MAX_CONTEXT_MEMORY(4),
  MAX_MODULE_SIZE(5), MAX_CALL_STEPS(6);

  /** The value that lifts a cap: IREE_RT_LIMIT_UNLIMITED (UINT64_MAX) as a Java long. */
  public static final long UNLIMITED = -1L;

  private final int value;

  Limit(int value) {
    this.value = value;
  }

  /** The limit's iree_rt_limit_t value. */
  public int value() {
    return value;
  }
}
