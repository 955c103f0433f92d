// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Runtime.InteropServices;

namespace IreeRt {

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
    NativeLibraryLoader.Ensure();  // in case this is the first native call
    IntPtr cookie;
    while ((cookie = IreeRtPInvoke.RtTakeReleased()) != IntPtr.Zero) Release(cookie);
  }
}

}  // namespace IreeRt
