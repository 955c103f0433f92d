// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The base of every class that owns a native iree_rt handle (one reference).
 *
 * <p>{@link #close()} may be called any number of times, from any thread. A call that uses the
 * handle holds it ({@link #acquire}/{@link #release}, emitted by the SWIG typemaps around every
 * native call), so closing an object that another thread is using only marks it closed: the
 * native reference is dropped when the last such call returns. Any use after close throws
 * {@link IllegalStateException}; nothing can reach a released handle. Objects that are never
 * closed are released by a {@link Cleaner} once unreachable: a safety net, not a substitute for
 * try-with-resources (native memory is invisible to the GC's heuristics).
 */
public abstract class NativeObject implements AutoCloseable {
  private static final Cleaner CLEANER = Cleaner.create();

  /** Releases one handle; runs once, from close() or from the cleaner thread. */
  private static final class Releaser implements Runnable {
    private final int kind;
    private final long handle;

    Releaser(int kind, long handle) {
      this.kind = kind;
      this.handle = handle;
    }

    @Override
    public void run() {
      IreeRtNative.rt_release_handle(kind, handle);
    }
  }

  private final long handle;
  // (calls in flight << 1) | closed.
  private final AtomicLong state = new AtomicLong();
  private final Cleaner.Cleanable cleanable;

  NativeObject(int kind, long handle) {
    if (handle == 0) {
      throw new IllegalArgumentException("null native handle");
    }
    this.handle = handle;
    this.cleanable = CLEANER.register(this, new Releaser(kind, handle));
  }

  /** Whether {@link #close()} has been called. */
  public final boolean isClosed() {
    return (state.get() & 1) != 0;
  }

  /** Drops this object's native reference (at once, or when calls in flight return). */
  @Override
  public void close() {
    for (;;) {
      long s = state.get();
      if ((s & 1) != 0) {
        return;
      }
      if (state.compareAndSet(s, s | 1)) {
        if (s == 0) {
          cleanable.clean();
        }
        return;
      }
    }
  }

  final long acquireHandle() {
    for (;;) {
      long s = state.get();
      if ((s & 1) != 0) {
        throw new IllegalStateException(getClass().getSimpleName() + " is closed");
      }
      if (state.compareAndSet(s, s + 2)) {
        return handle;
      }
    }
  }

  final void releaseHandle() {
    if (state.addAndGet(-2) == 1) {
      cleanable.clean();
    }
  }

  /** The handle of |o| (0 for null), held until {@link #release}. */
  static long acquire(NativeObject o) {
    return o == null ? 0 : o.acquireHandle();
  }

  static void release(NativeObject o) {
    if (o != null) {
      o.releaseHandle();
    }
  }

  static long[] acquireAll(NativeObject[] objects) {
    if (objects == null) {
      throw new NullPointerException("objects");
    }
    long[] handles = new long[objects.length];
    int i = 0;
    try {
      for (; i < objects.length; ++i) {
        if (objects[i] == null) {
          throw new NullPointerException("objects[" + i + "]");
        }
        handles[i] = objects[i].acquireHandle();
      }
    } catch (RuntimeException e) {
      while (--i >= 0) {
        objects[i].releaseHandle();
      }
      throw e;
    }
    return handles;
  }

  static void releaseAll(NativeObject[] objects) {
    for (NativeObject o : objects) {
      o.releaseHandle();
    }
  }
}
