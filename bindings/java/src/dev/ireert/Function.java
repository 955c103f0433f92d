// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * A function of a context. Thread-safe: {@link #call} may be used from several threads at once
 * (the context serializes the calls). For hot loops, {@link #invocation()} reuses its argument
 * and result lists.
 */
public final class Function extends NativeObject {
  Function(long handle) {
    super(HandleKind.RT_KIND_FUNCTION, handle);
  }

  public String name() {
    return IreeRtNative.function_name(this);
  }

  /** IREE's calling convention: "0" + argument types + "_" + result types ("0rrf_r"). */
  public String signature() {
    return IreeRtNative.function_signature(this);
  }

  /** Reflection attribute |key|, or null. */
  public String attr(String key) {
    return IreeRtNative.function_attr(this, key);
  }

  /**
   * Calls the function. Arguments: Integer (i32), Long (i64), Float (f32), Double (f64), Tensor,
   * Fence, ValueList, or null (a null reference). Results come back the same way: tensors and
   * lists are new objects the caller must close.
   */
  public Object[] call(Object... args) {
    try (ValueList arguments = new ValueList(args.length);
        ValueList results = new ValueList(4)) {
      for (Object a : args) {
        arguments.add(a);
      }
      IreeRtNative.function_call(this, arguments, results);
      return results.toArray();
    }
  }

  /** A reusable call frame for this function (one thread at a time). */
  public Invocation invocation() {
    return new Invocation(this);
  }

  /**
   * Calls a function compiled with {@code --iree-execution-model=async-external} (its last two
   * arguments are a wait and a signal fence, appended here) without blocking: the call returns
   * once the work is queued, and the future completes with the results when the signal fence is
   * reached, or exceptionally with an {@link IreeRtException} (the failure's code and message)
   * when it fails. No thread waits per call in flight; the future is completed on
   * {@link ForkJoinPool#commonPool()}, never on a runtime thread. Errors of the call itself also
   * arrive through the future. Results are as {@link #call}: the caller closes the tensors.
   *
   * <p>The work starts once {@code wait} is reached; the caller keeps both fences open until the
   * future completes.
   */
  public CompletableFuture<Object[]> callAsync(Fence wait, Fence signal, Object... args) {
    return start(wait, signal, new AutoCloseable[0], args);
  }

  /**
   * {@link #callAsync(Fence, Fence, Object...)} with a signal fence of its own (a new semaphore
   * on {@code device}, closed once the future completes). {@code wait} may be null: start at
   * once.
   */
  public CompletableFuture<Object[]> callAsync(Device device, Fence wait, Object... args) {
    Semaphore semaphore;
    Fence signal;
    Fence start;
    try {
      semaphore = new Semaphore(device, 0);
      signal = new Fence(semaphore, 1);
      start = wait != null ? wait : new Fence();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    AutoCloseable[] owned = wait != null ? new AutoCloseable[] {signal, semaphore}
        : new AutoCloseable[] {signal, semaphore, start};
    return start(start, signal, owned, args);
  }

  /** {@link #callAsync(Device, Fence, Object...)} that starts at once. */
  public CompletableFuture<Object[]> callAsync(Device device, Object... args) {
    return callAsync(device, (Fence) null, args);
  }

  private CompletableFuture<Object[]> start(Fence wait, Fence signal, AutoCloseable[] owned,
      Object[] args) {
    Object[] all = Arrays.copyOf(args, args.length + 2);
    all[args.length] = wait;
    all[args.length + 1] = signal;
    Object[] results;
    try {
      results = call(all);
    } catch (RuntimeException e) {
      closeAll(owned);
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Object[]> future = new CompletableFuture<>();
    try {
      FenceNotifier.notify(signal, (code, message) -> ForkJoinPool.commonPool().execute(() -> {
        // Off the runtime thread: the fences and semaphore the call owns are closed here.
        closeAll(owned);
        if (code == 0) {
          future.complete(results);
        } else {
          closeAll(results);
          future.completeExceptionally(new IreeRtException(code, message));
        }
      }));
    } catch (RuntimeException e) {
      closeAll(results);
      closeAll(owned);
      return CompletableFuture.failedFuture(e);
    }
    return future;
  }

  private static void closeAll(Object[] objects) {
    for (Object o : objects) {
      if (o instanceof AutoCloseable) {
        try {
          ((AutoCloseable) o).close();
        } catch (Exception e) {
          // NativeObject.close does not throw; nothing else is passed here.
        }
      }
    }
  }
}
