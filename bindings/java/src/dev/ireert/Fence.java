// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/**
 * A set of (semaphore, value) timepoints: what async functions wait on and signal. Thread-safe.
 */
public final class Fence extends NativeObject {
  /** An empty fence (always reached). */
  public Fence() {
    super(HandleKind.RT_KIND_FENCE, IreeRtNative.fence_create());
  }

  /** A fence at (|semaphore|, |value|). */
  public Fence(Semaphore semaphore, long value) {
    this();
    insert(semaphore, value);
  }

  public Fence insert(Semaphore semaphore, long value) {
    IreeRtNative.fence_insert(this, semaphore, value);
    return this;
  }

  /** The number of timepoints. */
  public int size() {
    return (int) IreeRtNative.fence_size(this);
  }

  /** Whether every timepoint is reached; throws the failure of a failed semaphore. */
  public boolean isReached() {
    try {
      IreeRtNative.fence_query(this);
      return true;
    } catch (IreeRtException e) {
      if (e.statusCode() == StatusCode.DEFERRED) {
        return false;
      }
      throw e;
    }
  }

  public void signal() {
    IreeRtNative.fence_signal(this);
  }

  public void fail(StatusCode code, String message) {
    IreeRtNative.fence_fail(this, code.value(), message);
  }

  /** Waits for every timepoint; DEADLINE_EXCEEDED after |timeoutNanos|. */
  public void await(long timeoutNanos) {
    IreeRtNative.fence_wait(this, timeoutNanos);
  }

  public void await() {
    await(Kinds.INFINITE_TIMEOUT);
  }
}
