// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/** How an archive file's bytes are reached (iree_rt_parameter_mode_t). */
public enum ParameterMode {
  /** Map the file; CPU devices use aligned parameters in place. The file must not change. */
  MMAP(0),
  /** Read the whole file into memory when it is added. */
  PRELOAD(1),
  /** Read only the header; each load reads from the file. */
  FILE(2);

  private final int value;

  ParameterMode(int value) {
    this.value = value;
  }

  int value() {
    return value;
  }
}
