// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Threading.Tasks;

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

  /// <summary>
  /// Calls a function compiled with --iree-execution-model=async-external (its last two
  /// arguments, a wait and a signal fence, are appended here) without blocking: the call returns
  /// once the work is queued, and the task completes with the results when |signal| is reached,
  /// or faults with an IreeRtException (the failure's code and message) when it fails. No thread
  /// waits per call in flight and continuations never run on a runtime thread. Errors of the call
  /// itself fault the task too. Results are as Call's: the caller disposes the tensors. The work
  /// starts once |wait| is reached; keep both fences undisposed until the task completes.
  /// </summary>
  public Task<object[]> CallAsync(Fence wait, Fence signal, params object[] args) {
    return Start(wait, signal, new IDisposable[0], args);
  }

  /// <summary>
  /// CallAsync(wait, signal, args) with a signal fence of its own (a new semaphore on |device|,
  /// disposed when the task completes). |wait| may be null: start at once.
  /// </summary>
  public Task<object[]> CallAsync(Device device, Fence wait, params object[] args) {
    Semaphore semaphore = null;
    Fence signal = null, start = null;
    try {
      semaphore = new Semaphore(device, 0);
      signal = new Fence(semaphore, 1);
      start = wait ?? new Fence();
    } catch (Exception e) {
      if (signal != null) signal.Dispose();
      if (semaphore != null) semaphore.Dispose();
      return FromException(e);
    }
    var owned = wait != null ? new IDisposable[] { signal, semaphore }
                             : new IDisposable[] { signal, semaphore, start };
    return Start(start, signal, owned, args);
  }

  /// <summary>CallAsync(device, null, args): starts at once.</summary>
  public Task<object[]> CallAsync(Device device, params object[] args) {
    return CallAsync(device, (Fence)null, args);
  }

  Task<object[]> Start(Fence wait, Fence signal, IDisposable[] owned, object[] args) {
    var all = new object[args.Length + 2];
    Array.Copy(args, all, args.Length);
    all[args.Length] = wait;
    all[args.Length + 1] = signal;
    object[] results;
    try {
      results = Call(all);
    } catch (Exception e) {
      DisposeAll(owned);
      return FromException(e);
    }
    var source =
        new TaskCompletionSource<object[]>(TaskCreationOptions.RunContinuationsAsynchronously);
    try {
      // Runs on the thread pool (FenceCompletion), so disposing here is off the runtime threads.
      FenceCompletion.Register(signal, (code, message) => {
        DisposeAll(owned);
        if (code == StatusCode.Ok) {
          source.TrySetResult(results);
        } else {
          DisposeAll(results);
          source.TrySetException(new IreeRtException(code, message));
        }
      });
    } catch (Exception e) {
      DisposeAll(results);
      DisposeAll(owned);
      return FromException(e);
    }
    return source.Task;
  }

  static Task<object[]> FromException(Exception e) {
    var source = new TaskCompletionSource<object[]>();
    source.SetException(e);
    return source.Task;
  }

  static void DisposeAll(object[] objects) {
    foreach (var o in objects) {
      var d = o as IDisposable;
      if (d != null) d.Dispose();
    }
  }
}

}  // namespace IreeRt
