// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/**
 * Linked modules with their state. Thread-safe: calls on one context are serialized by the
 * runtime; use one context per thread for parallel calls.
 */
public final class Context extends NativeObject {
  /** Links |modules| in order (each may import from those before it) and runs initializers. */
  public Context(Instance instance, Module... modules) {
    super(HandleKind.RT_KIND_CONTEXT, IreeRtNative.context_create(instance, modules));
  }

  /** The function |name| ("module.function", or a bare name in the last module). */
  public Function function(String name) {
    return new Function(IreeRtNative.context_lookup_function(this, name));
  }

  /** Sets |limit| for this context's later calls. */
  public void setLimit(Limit limit, long value) {
    IreeRtNative.context_set_limit(this, limit.value(), value);
  }

  /** The value of |limit| ({@link Limit#UNLIMITED} when lifted). */
  public long limit(Limit limit) {
    return IreeRtNative.context_get_limit(this, limit.value());
  }

  /** Bytes the context's programs hold now (counted against MAX_CONTEXT_MEMORY). */
  public long memoryUsed() {
    return IreeRtNative.context_memory_used(this);
  }
}
