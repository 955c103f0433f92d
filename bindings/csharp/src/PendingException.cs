// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Threading;

namespace IreeRt {

/// <summary>
/// The exception recorded by the native glue (rt_cs_raise) for the calling thread, thrown by the
/// generated method once the native call returns. The common path reads one static counter.
/// </summary>
internal static class PendingException {
  [ThreadStatic] static IreeRtException pending;
  static int count;

  internal static void SetFromNative(int code, IntPtr message) {
    pending = new IreeRtException((StatusCode)code, Utf8.FromNative(message));
    Interlocked.Increment(ref count);
  }

  internal static void ThrowIfAny() {
    if (Volatile.Read(ref count) != 0) ThrowSlow();
  }

  static void ThrowSlow() {
    var e = pending;
    if (e == null) return;  // another thread's
    pending = null;
    Interlocked.Decrement(ref count);
    throw e;
  }
}

}  // namespace IreeRt
