// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;

namespace IreeRt {

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

}  // namespace IreeRt
