// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace IreeRt {

/// <summary>
/// The managed end of iree_rt_fence_notify. Each registration pins one FenceCompletion with a
/// GCHandle (its cookie) until the native callback, which runs exactly once, on the runtime
/// thread that decided the fence or inline when it already was. The callback only frees the
/// handle and queues the completion on the thread pool: what the completion does (disposing
/// objects, completing a Task) never runs on a runtime thread. No thread waits meanwhile.
/// </summary>
internal sealed class FenceCompletion {
  readonly Action<StatusCode, string> complete;

  FenceCompletion(Action<StatusCode, string> complete) { this.complete = complete; }

  /// <summary>
  /// Calls |complete| on the thread pool with StatusCode.Ok and "" once |fence| is reached, or
  /// with a failed semaphore's code and message. Throws IreeRtException if it cannot register.
  /// </summary>
  internal static void Register(Fence fence, Action<StatusCode, string> complete) {
    var handle = GCHandle.Alloc(new FenceCompletion(complete));
    try {
      IreeRtPInvoke.RtFenceNotify(fence.Handle, GCHandle.ToIntPtr(handle));
    } catch {
      handle.Free();
      throw;
    }
  }

  // The C callback (through IreeRtPInvoke's static delegate). Nothing may unwind into native code.
  internal static void OnFence(IntPtr cookie, int code, IntPtr message) {
    try {
      var handle = GCHandle.FromIntPtr(cookie);
      var self = (FenceCompletion)handle.Target;
      handle.Free();
      string text = Utf8.FromNative(message) ?? "";
      ThreadPool.UnsafeQueueUserWorkItem(
          state => self.complete((StatusCode)code, text), null);
    } catch (Exception e) {
      Console.Error.WriteLine("IreeRt: fence callback failed: " + e);
    }
  }
}

}  // namespace IreeRt
