using System;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;

namespace IreeRt {

/// <summary>
/// The SafeHandle over one reference to a native iree_rt object. The P/Invoke marshaller adds a
/// reference to it for every call that passes it, so the native reference is dropped only when
/// the owner has been disposed (or finalized) and no call uses it any more.
/// </summary>
internal sealed class RtHandle : SafeHandle {
  internal static readonly RtHandle Null = new RtHandle();
  readonly int kind;

  RtHandle() : base(IntPtr.Zero, false) {}

  internal RtHandle(HandleKind kind, IntPtr handle) : base(IntPtr.Zero, true) {
    this.kind = (int)kind;
    SetHandle(handle);
  }

  public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

  protected override bool ReleaseHandle() {
    IreeRtNative.rt_release_handle(kind, (long)handle);
    return true;
  }
}

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

/// <summary>The exception a failed native status becomes: its code and message.</summary>
public class IreeRtException : Exception {
  public StatusCode Code { get; private set; }

  public IreeRtException(StatusCode code, string message) : base(code + ": " + message) {
    Code = code;
  }
}

/// <summary>IREE's canonical status codes (iree_rt_status_code_t).</summary>
public enum StatusCode {
  Ok = 0, Cancelled = 1, Unknown = 2, InvalidArgument = 3, DeadlineExceeded = 4, NotFound = 5,
  AlreadyExists = 6, PermissionDenied = 7, ResourceExhausted = 8, FailedPrecondition = 9,
  Aborted = 10, OutOfRange = 11, Unimplemented = 12, Internal = 13, Unavailable = 14,
  DataLoss = 15, Unauthenticated = 16, Deferred = 17, Incompatible = 18,
}

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

internal static class Utf8 {
  internal static unsafe string FromNative(IntPtr p) {
    if (p == IntPtr.Zero) return null;
    byte* b = (byte*)p;
    int n = 0;
    while (b[n] != 0) ++n;
    return Encoding.UTF8.GetString(b, n);
  }
}

/// <summary>
/// Managed memory pinned for the runtime (zero-copy tensors). The native side holds the GCHandle
/// of this object as a cookie; when the runtime drops its last reference to the memory (on any
/// thread) the glue queues the cookie, and Drain() unpins everything queued. Drain runs when
/// tensors are created or disposed, so memory is unpinned at the latest at the next such call.
/// </summary>
internal sealed class PinnedMemory {
  System.Buffers.MemoryHandle pin;

  PinnedMemory(System.Buffers.MemoryHandle pin) { this.pin = pin; }

  internal static IntPtr Create(System.Buffers.MemoryHandle pin) {
    return GCHandle.ToIntPtr(GCHandle.Alloc(new PinnedMemory(pin)));
  }

  /// <summary>Unpins the memory of |cookie| (one the runtime will not release).</summary>
  internal static void Release(IntPtr cookie) {
    var h = GCHandle.FromIntPtr(cookie);
    var self = (PinnedMemory)h.Target;
    h.Free();
    self.pin.Dispose();
  }

  /// <summary>Unpins every memory range the runtime has released since the last call.</summary>
  internal static void Drain() {
    IntPtr cookie;
    while ((cookie = IreeRtPInvoke.RtTakeReleased()) != IntPtr.Zero) Release(cookie);
  }
}

/// <summary>Native constants the classes share (values from iree_rt.h).</summary>
internal static class Kinds {
  internal const int AbiVersion = 0x00010000;
  internal const int MemoryTypeDeviceLocal = 0x0030;
  internal const int MemoryTypeHostLocal = 0x0046;
  internal const int BufferUsageDefault = 0xC03;
  internal const int MemoryAccessAll = 0x7;
  internal const int EncodingDenseRowMajor = 1;
  internal const long InfiniteTimeout = long.MaxValue;
  internal const int ValueI8 = 1, ValueI16 = 2, ValueI32 = 3, ValueI64 = 4, ValueF32 = 5,
                     ValueF64 = 6, ValueRef = 7;
}

}  // namespace IreeRt
