// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/**
 * A timeline semaphore: a 64-bit value that only grows, or fails for good. Thread-safe.
 */
public final class Semaphore extends NativeObject {
  public Semaphore(Device device, long initialValue) {
    super(HandleKind.RT_KIND_SEMAPHORE, IreeRtNative.semaphore_create(device, initialValue));
  }

  /** The current value; throws the failure once the semaphore has failed. */
  public long value() {
    return IreeRtNative.semaphore_query(this);
  }

  public void signal(long value) {
    IreeRtNative.semaphore_signal(this, value);
  }

  public void fail(StatusCode code, String message) {
    IreeRtNative.semaphore_fail(this, code.value(), message);
  }

  /** Waits until the value reaches |value|; DEADLINE_EXCEEDED after |timeoutNanos|. */
  public void await(long value, long timeoutNanos) {
    IreeRtNative.semaphore_wait(this, value, timeoutNanos);
  }

  public void await(long value) {
    await(value, Kinds.INFINITE_TIMEOUT);
  }
}
