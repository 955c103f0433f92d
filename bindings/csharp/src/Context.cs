// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

/// <summary>
/// Linked modules with their state. Thread-safe: the runtime serializes calls on one context.
/// </summary>
public sealed class Context : NativeObject {
  /// <summary>The value that lifts a cap (IREE_RT_LIMIT_UNLIMITED).</summary>
  public const ulong Unlimited = ulong.MaxValue;

  public Context(Instance instance, params Module[] modules)
      : base(HandleKind.RT_KIND_CONTEXT,
             IreeRtNative.context_create(instance, modules, modules.Length)) {}

  /// <summary>The function |name| ("module.function", or a bare name in the last module).</summary>
  public Function Function(string name) {
    return new Function(IreeRtNative.context_lookup_function(this, name));
  }

  /// <summary>Sets |limit| for this context's later calls.</summary>
  public void SetLimit(Limit limit, ulong value) {
    IreeRtNative.context_set_limit(this, (int)limit, unchecked((long)value));
  }

  public ulong GetLimit(Limit limit) {
    return unchecked((ulong)IreeRtNative.context_get_limit(this, (int)limit));
  }

  /// <summary>Bytes the context's programs hold now (counted against MaxContextMemory).</summary>
  public ulong MemoryUsed {
    get { return unchecked((ulong)IreeRtNative.context_memory_used(this)); }
  }
}

}  // namespace IreeRt
