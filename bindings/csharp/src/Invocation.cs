// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Runtime.InteropServices;

namespace IreeRt {

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

}  // namespace IreeRt
