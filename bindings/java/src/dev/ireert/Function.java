// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

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
}
