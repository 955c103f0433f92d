// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Java end of iree_rt_fence_notify: completions pending on fences, by id. The native glue
 * (iree_rt_java.i) calls {@link #onFence} exactly once per registration, on the runtime thread
 * that decided the fence (attached to the JVM as a daemon), or inside {@link #register} when the
 * fence is already decided. No thread waits meanwhile. No static initializer touches native code:
 * JNI_OnLoad resolves onFence while the library loads.
 */
final class FenceNotifier {
  /** What to do once the fence is decided: code 0 (OK) and "", or the failure. Must not block. */
  interface Completion {
    void complete(int code, String message);
  }

  private static final ConcurrentHashMap<Long, Completion> pending = new ConcurrentHashMap<>();
  private static final AtomicLong nextId = new AtomicLong(1);

  private FenceNotifier() {}

  /** Runs |completion| once |fence| is reached or fails; throws IreeRtException if it cannot. */
  static void notify(Fence fence, Completion completion) {
    long id = nextId.getAndIncrement();
    pending.put(id, completion);
    long handle = fence.acquireHandle();
    try {
      register(handle, id);
    } catch (RuntimeException | Error e) {
      pending.remove(id);
      throw e;
    } finally {
      fence.releaseHandle();
    }
  }

  private static native void register(long fence, long id);

  // Called by the native glue. Exceptions are caught here: nothing may unwind into the runtime.
  private static void onFence(long id, int code, String message) {
    Completion completion = pending.remove(id);
    if (completion == null) {
      return;
    }
    try {
      completion.complete(code, message == null ? "" : message);
    } catch (Throwable t) {
      Thread current = Thread.currentThread();
      current.getUncaughtExceptionHandler().uncaughtException(current, t);
    }
  }
}
