// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/**
 * An error reported by the runtime: a status code (IREE's canonical codes) and its message.
 * Unchecked, as every call can fail for reasons the caller rarely handles one by one.
 */
public class IreeRtException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int code;

  /** Called by the JNI glue with the native status's code and message. */
  public IreeRtException(int code, String message) {
    super(StatusCode.fromValue(code) + ": " + message);
    this.code = code;
  }

  /** The numeric status code (iree_rt_status_code_t). */
  public int code() {
    return code;
  }

  /** The status code as an enum. */
  public StatusCode statusCode() {
    return StatusCode.fromValue(code);
  }
}
