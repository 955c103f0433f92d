using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace IreeRt {

/// <summary>
/// A module: a compiled program (.vmfb) or a native module (hal, io_parameters, check). Immutable and
/// thread-safe; link it into a Context to call its functions.
/// </summary>
public sealed class Module : NativeObject {
  internal Module(IntPtr handle) : base(HandleKind.RT_KIND_MODULE, handle) {}

  /// <summary>Loads the .vmfb at |path| (mapped read-only).</summary>
  public static Module Load(Instance instance, string path) {
    return new Module(IreeRtNative.module_load_file(instance, path));
  }

  /// <summary>Loads a module from |bytes| (copied).</summary>
  public static Module Load(Instance instance, byte[] bytes) {
    if (bytes == null) throw new ArgumentNullException("bytes");
    return new Module(IreeRtNative.module_load_memory(instance, bytes, bytes.Length,
                                                      0x1 /* COPY */, IntPtr.Zero));
  }

  /// <summary>The hal module over |devices|: link it before programs that use tensors.</summary>
  public static Module Hal(Instance instance, params Device[] devices) {
    return new Module(IreeRtNative.module_create_hal(instance, devices, devices.Length));
  }

  /// <summary>
  /// The io_parameters module over |parameters| (one set per scope; frozen by this call): link
  /// it after the hal module and before programs whose weights are external.
  /// </summary>
  public static Module IoParameters(Instance instance, params Parameters[] parameters) {
    return new Module(IreeRtNative.module_create_io_parameters(instance, parameters,
                                                               parameters.Length));
  }

  public static Module Check(Instance instance) {
    return new Module(IreeRtNative.module_create_check(instance));
  }

  public string Name { get { return IreeRtNative.module_name(this); } }

  public IReadOnlyList<string> FunctionNames {
    get {
      long n = IreeRtNative.module_function_count(this);
      var names = new List<string>();
      for (long i = 0; i < n; ++i) names.Add(IreeRtNative.module_function_name(this, i));
      return names;
    }
  }

  /// <summary>The calling convention of function |name| ("0ii_i"), or null.</summary>
  public string Signature(string name) {
    long n = IreeRtNative.module_function_count(this);
    for (long i = 0; i < n; ++i) {
      if (IreeRtNative.module_function_name(this, i) == name) {
        return IreeRtNative.module_function_signature(this, i);
      }
    }
    return null;
  }
}

/// <summary>The configurable limits, with the values of iree_rt_limit_t.</summary>
public enum Limit {
  MaxCallDepth = 1, MaxListLength = 2, MaxAllocationSize = 3, MaxContextMemory = 4,
  MaxModuleSize = 5, MaxCallSteps = 6
}

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

/// <summary>
/// A function of a context. Thread-safe: Call may run on several threads at once. For hot loops,
/// CreateInvocation() reuses argument and result lists.
/// </summary>
public sealed class Function : NativeObject {
  internal Function(IntPtr handle) : base(HandleKind.RT_KIND_FUNCTION, handle) {}

  public string Name { get { return IreeRtNative.function_name(this); } }

  /// <summary>IREE's calling convention: "0" + argument types + "_" + result types.</summary>
  public string Signature { get { return IreeRtNative.function_signature(this); } }

  public string Attr(string key) { return IreeRtNative.function_attr(this, key); }

  /// <summary>
  /// Calls the function. Arguments: int (i32), long (i64), float (f32), double (f64), Tensor,
  /// Fence, ValueList or null. Results come back the same way; tensors and lists are new
  /// objects the caller disposes.
  /// </summary>
  public object[] Call(params object[] args) {
    using (var arguments = new ValueList(args.Length))
    using (var results = new ValueList(4)) {
      foreach (var a in args) arguments.Add(a);
      IreeRtNative.function_call(this, arguments, results);
      return results.ToArray();
    }
  }

  public Invocation CreateInvocation() { return new Invocation(this); }
}

/// <summary>
/// A reusable call frame for repeated calls of one function, without boxing:
/// inv.Reset().Arg(1).Arg(2).Invoke().ResultInt(0). Not thread-safe (one per thread).
/// Scalar-only calls cross into native code once (rt_call_scalars); a Tensor or Fence
/// argument switches the call to the value-list protocol. The invocation holds a reference to
/// its function until disposed, so disposing the function does not stop it.
/// </summary>
public sealed unsafe class Invocation : IDisposable {
  const int ResultCapacity = 8;
  readonly Function function;
  readonly ValueList arguments = new ValueList(8);
  readonly ValueList results = new ValueList(8);
  readonly IntPtr fn, args, res;
  // Unmanaged (type, bits) arrays: no marshalling or pinning per call.
  int* argTypes;
  long* argBits;
  int argCapacity = 8;
  int argCount;
  bool listMode;  // a reference was pushed: the arguments live in the native list
  int* resultTypes;
  long* resultBits;
  int resultCount;
  bool fastResults;
  bool disposed;

  internal Invocation(Function function) {
    this.function = function;
    argTypes = (int*)Marshal.AllocHGlobal(argCapacity * sizeof(int));
    argBits = (long*)Marshal.AllocHGlobal(argCapacity * sizeof(long));
    resultTypes = (int*)Marshal.AllocHGlobal(ResultCapacity * sizeof(int));
    resultBits = (long*)Marshal.AllocHGlobal(ResultCapacity * sizeof(long));
    bool added = false;
    function.Handle.DangerousAddRef(ref added);
    fn = function.Handle.DangerousGetHandle();
    arguments.Handle.DangerousAddRef(ref added);
    args = arguments.Handle.DangerousGetHandle();
    results.Handle.DangerousAddRef(ref added);
    res = results.Handle.DangerousGetHandle();
  }

  /// <summary>Safety net: an invocation never disposed still releases what it holds.</summary>
  ~Invocation() { Release(); }

  void Check() {
    if (disposed) throw new ObjectDisposedException("Invocation");
  }

  public Invocation Reset() {
    Check();
    if (listMode) IreeRtNative.value_list_clear(arguments);
    listMode = false;
    argCount = 0;
    fastResults = false;
    return this;
  }

  Invocation Scalar(int type, long bits) {
    Check();
    if (listMode) {
      switch (type) {
        case Kinds.ValueI32: IreeRtNative.value_list_push_i32(arguments, (int)bits); break;
        case Kinds.ValueI64: IreeRtNative.value_list_push_i64(arguments, bits); break;
        case Kinds.ValueF32: {
          int b = (int)bits;
          IreeRtNative.value_list_push_f32(arguments, *(float*)&b);
          break;
        }
        default: IreeRtNative.value_list_push_f64(arguments, *(double*)&bits); break;
      }
      return this;
    }
    if (argCount == argCapacity) {
      argCapacity *= 2;
      argTypes = (int*)Marshal.ReAllocHGlobal((IntPtr)argTypes,
                                              (IntPtr)(argCapacity * sizeof(int)));
      argBits = (long*)Marshal.ReAllocHGlobal((IntPtr)argBits,
                                              (IntPtr)(argCapacity * sizeof(long)));
    }
    argTypes[argCount] = type;
    argBits[argCount++] = bits;
    return this;
  }

  // Moves the scalars collected so far into the native list, before a reference argument.
  void EnterListMode() {
    Check();
    if (listMode) return;
    IreeRtNative.value_list_clear(arguments);
    listMode = true;
    for (int i = 0; i < argCount; ++i) Scalar(argTypes[i], argBits[i]);
    argCount = 0;
  }

  public Invocation Arg(int value) { return Scalar(Kinds.ValueI32, value); }
  public Invocation Arg(long value) { return Scalar(Kinds.ValueI64, value); }
  public Invocation Arg(float value) { return Scalar(Kinds.ValueF32, *(int*)&value); }
  public Invocation Arg(double value) { return Scalar(Kinds.ValueF64, *(long*)&value); }

  public Invocation Arg(Tensor value) {
    EnterListMode();
    IreeRtNative.value_list_push_buffer_view(arguments, value);
    return this;
  }

  public Invocation Arg(Fence value) {
    EnterListMode();
    IreeRtNative.value_list_push_fence(arguments, value);
    return this;
  }

  public Invocation Invoke() {
    Check();
    if (!listMode) {
      resultCount = (int)IreeRtNative.rt_call_scalars(
          fn, args, res, (IntPtr)argTypes, (IntPtr)argBits, argCount, (IntPtr)resultTypes,
          (IntPtr)resultBits, ResultCapacity);
      fastResults = true;
    } else {
      IreeRtNative.value_list_clear(results);
      IreeRtNative.function_call(function, arguments, results);
      fastResults = false;
    }
    return this;
  }

  bool Fast(int index, int type) {
    return fastResults && index >= 0 && index < resultCount && index < ResultCapacity &&
           resultTypes[index] == type;
  }

  public int ResultCount {
    get { return fastResults ? resultCount : (int)IreeRtNative.value_list_size(results); }
  }

  public int ResultInt(int index) {
    return Fast(index, Kinds.ValueI32) ? (int)resultBits[index]
                                       : IreeRtNative.value_list_get_i32(results, index);
  }

  public long ResultLong(int index) {
    return Fast(index, Kinds.ValueI64) || Fast(index, Kinds.ValueI32)
        ? resultBits[index] : IreeRtNative.value_list_get_i64(results, index);
  }

  public float ResultFloat(int index) {
    if (Fast(index, Kinds.ValueF32)) { int b = (int)resultBits[index]; return *(float*)&b; }
    return IreeRtNative.value_list_get_f32(results, index);
  }

  public double ResultDouble(int index) {
    if (Fast(index, Kinds.ValueF64)) { long b = resultBits[index]; return *(double*)&b; }
    return IreeRtNative.value_list_get_f64(results, index);
  }

  public Tensor ResultTensor(int index) { Check(); return results.GetTensor(index); }

  public object[] Results() { Check(); return results.ToArray(); }

  public void Dispose() {
    Release();
    arguments.Dispose();
    results.Dispose();
    GC.SuppressFinalize(this);
  }

  void Release() {
    if (disposed) return;
    disposed = true;
    function.Handle.DangerousRelease();
    arguments.Handle.DangerousRelease();
    results.Handle.DangerousRelease();
    Marshal.FreeHGlobal((IntPtr)argTypes);
    Marshal.FreeHGlobal((IntPtr)argBits);
    Marshal.FreeHGlobal((IntPtr)resultTypes);
    Marshal.FreeHGlobal((IntPtr)resultBits);
  }
}

/// <summary>
/// A list of values of any type: call arguments and results, and vm.list values. Not
/// thread-safe.
/// </summary>
public sealed class ValueList : NativeObject {
  internal ValueList(IntPtr handle) : base(HandleKind.RT_KIND_VALUE_LIST, handle) {}

  public ValueList(int capacity)
      : base(HandleKind.RT_KIND_VALUE_LIST, IreeRtNative.value_list_create(capacity)) {}

  public int Count { get { return (int)IreeRtNative.value_list_size(this); } }

  public ValueList Add(object value) {
    if (value == null) IreeRtNative.value_list_push_buffer_view(this, null);
    else if (value is int) IreeRtNative.value_list_push_i32(this, (int)value);
    else if (value is long) IreeRtNative.value_list_push_i64(this, (long)value);
    else if (value is float) IreeRtNative.value_list_push_f32(this, (float)value);
    else if (value is double) IreeRtNative.value_list_push_f64(this, (double)value);
    else if (value is Tensor) IreeRtNative.value_list_push_buffer_view(this, (Tensor)value);
    else if (value is Fence) IreeRtNative.value_list_push_fence(this, (Fence)value);
    else if (value is ValueList) IreeRtNative.value_list_push_list(this, (ValueList)value);
    else throw new ArgumentException("unsupported argument type " + value.GetType().FullName);
    return this;
  }

  /// <summary>Element |index| as int, long, float, double, Tensor, ValueList or null.</summary>
  public object this[int index] {
    get {
      switch (IreeRtNative.value_list_get_type(this, index)) {
        case Kinds.ValueI8:
        case Kinds.ValueI16:
        case Kinds.ValueI32: return IreeRtNative.value_list_get_i32(this, index);
        case Kinds.ValueI64: return IreeRtNative.value_list_get_i64(this, index);
        case Kinds.ValueF32: return IreeRtNative.value_list_get_f32(this, index);
        case Kinds.ValueF64: return IreeRtNative.value_list_get_f64(this, index);
        case Kinds.ValueRef: {
          string type = IreeRtNative.value_list_get_ref_type(this, index);
          if (string.IsNullOrEmpty(type)) return null;
          if (type == "hal.buffer_view") return GetTensor(index);
          if (type == "vm.list") {
            return new ValueList(IreeRtNative.value_list_get_list(this, index));
          }
          throw new NotSupportedException("result of type " + type);
        }
        default: return null;
      }
    }
  }

  internal Tensor GetTensor(int index) {
    IntPtr h = IreeRtNative.value_list_get_buffer_view(this, index);
    return h == IntPtr.Zero ? null : new Tensor(h);
  }

  public object[] ToArray() {
    var result = new object[Count];
    for (int i = 0; i < result.Length; ++i) result[i] = this[i];
    return result;
  }
}

/// <summary>
/// A timeline semaphore: a 64-bit value that only grows, or fails for good. Thread-safe.
/// </summary>
public sealed class Semaphore : NativeObject {
  public Semaphore(Device device, long initialValue)
      : base(HandleKind.RT_KIND_SEMAPHORE, IreeRtNative.semaphore_create(device, initialValue)) {}

  /// <summary>The current value; throws the failure once the semaphore has failed.</summary>
  public long Value { get { return IreeRtNative.semaphore_query(this); } }

  public void Signal(long value) { IreeRtNative.semaphore_signal(this, value); }

  public void Fail(StatusCode code, string message) {
    IreeRtNative.semaphore_fail(this, (int)code, message);
  }

  /// <summary>Waits until the value reaches |value|; DeadlineExceeded after the timeout.</summary>
  public void Wait(long value, TimeSpan? timeout = null) {
    IreeRtNative.semaphore_wait(this, value, ToNanos(timeout));
  }

  internal static long ToNanos(TimeSpan? timeout) {
    return timeout.HasValue ? timeout.Value.Ticks * 100 : Kinds.InfiniteTimeout;
  }
}

/// <summary>A set of (semaphore, value) timepoints. Thread-safe.</summary>
public sealed class Fence : NativeObject {
  public Fence() : base(HandleKind.RT_KIND_FENCE, IreeRtNative.fence_create()) {}

  public Fence(Semaphore semaphore, long value) : this() { Insert(semaphore, value); }

  public Fence Insert(Semaphore semaphore, long value) {
    IreeRtNative.fence_insert(this, semaphore, value);
    return this;
  }

  public int Count { get { return (int)IreeRtNative.fence_size(this); } }

  /// <summary>Whether every timepoint is reached; throws a failed semaphore's failure.</summary>
  public bool IsReached {
    get {
      try {
        IreeRtNative.fence_query(this);
        return true;
      } catch (IreeRtException e) when (e.Code == StatusCode.Deferred) {
        return false;
      }
    }
  }

  public void Signal() { IreeRtNative.fence_signal(this); }

  public void Fail(StatusCode code, string message) {
    IreeRtNative.fence_fail(this, (int)code, message);
  }

  public void Wait(TimeSpan? timeout = null) {
    IreeRtNative.fence_wait(this, Semaphore.ToNanos(timeout));
  }
}

/// <summary>Diagnostics.</summary>
public static class NativeDiagnostics {
  /// <summary>
  /// Bytes the process's C heap has handed out and not taken back (glibc mallinfo2), or -1.
  /// </summary>
  public static long HeapInUse { get { return IreeRtNative.rt_native_heap_in_use(); } }
}

}  // namespace IreeRt
