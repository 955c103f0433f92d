// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;

namespace IreeRt {

/// <summary>
/// The base of every class that owns a native handle. Dispose() may be called any number of
/// times from any thread; a call in flight on another thread keeps the native object alive
/// until it returns; any use after Dispose() throws ObjectDisposedException. The finalizer
/// (SafeHandle's) releases objects that were never disposed: a safety net only, since the GC
/// does not see native memory.
/// </summary>
public abstract class NativeObject : IDisposable {
  internal readonly RtHandle Handle;

  internal NativeObject(HandleKind kind, IntPtr handle) {
    if (handle == IntPtr.Zero) throw new ArgumentException("null native handle");
    Handle = new RtHandle(kind, handle);
  }

  /// <summary>Whether Dispose() has been called.</summary>
  public bool IsDisposed { get { return Handle.IsClosed; } }

  public virtual void Dispose() {
    Handle.Dispose();
  }

  internal void ThrowIfDisposed() {
    if (Handle.IsClosed) throw new ObjectDisposedException(GetType().Name);
  }

  /// <summary>The SafeHandle the generated code passes for |o| (null: a NULL handle).</summary>
  internal static RtHandle H(NativeObject o) {
    return o == null ? RtHandle.Null : o.Handle;
  }

  internal static IntPtr[] AcquireAll(NativeObject[] objects) {
    if (objects == null) throw new ArgumentNullException("objects");
    var handles = new IntPtr[objects.Length];
    int i = 0;
    try {
      for (; i < objects.Length; ++i) {
        if (objects[i] == null) throw new ArgumentNullException("objects[" + i + "]");
        bool added = false;
        objects[i].Handle.DangerousAddRef(ref added);
        handles[i] = objects[i].Handle.DangerousGetHandle();
      }
    } catch {
      while (--i >= 0) objects[i].Handle.DangerousRelease();
      throw;
    }
    return handles;
  }

  internal static void ReleaseAll(NativeObject[] objects) {
    foreach (var o in objects) o.Handle.DangerousRelease();
  }
}

}  // namespace IreeRt
