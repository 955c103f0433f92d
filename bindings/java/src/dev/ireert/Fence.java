// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;

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

  /**
   * A future completed once every timepoint is reached, or completed exceptionally with an
   * {@link IreeRtException} carrying a failed semaphore's code and message. No thread waits
   * meanwhile. The future is completed on {@code executor}, so dependent stages never run on a
   * runtime thread. Keep this fence (or its semaphores) open until then: semaphores destroyed
   * first complete it with CANCELLED.
   */
  public CompletableFuture<Void> onReached(Executor executor) {
    CompletableFuture<Void> future = new CompletableFuture<>();
    FenceNotifier.notify(this, (code, message) -> completeOn(executor, future, code, message, null));
    return future;
  }

  /** {@link #onReached(Executor)} on {@link ForkJoinPool#commonPool()}. */
  public CompletableFuture<Void> onReached() {
    return onReached(ForkJoinPool.commonPool());
  }

  // Completes |future| with |value| (code 0) or IreeRtException(code, message), on |executor|
  // (inline if it refuses the task).
  static <T> void completeOn(Executor executor, CompletableFuture<T> future, int code,
      String message, T value) {
    Runnable complete = () -> {
      if (code == 0) {
        future.complete(value);
      } else {
        future.completeExceptionally(new IreeRtException(code, message));
      }
    };
    try {
      executor.execute(complete);
    } catch (RejectedExecutionException e) {
      complete.run();
    }
  }
}
