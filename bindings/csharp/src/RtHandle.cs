// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Runtime.InteropServices;

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

}  // namespace IreeRt
