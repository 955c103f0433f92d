// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

/// <summary>Diagnostics.</summary>
public static class NativeDiagnostics {
  /// <summary>
  /// Bytes the process's C heap has handed out and not taken back (glibc mallinfo2), or -1.
  /// </summary>
  public static long HeapInUse { get { return IreeRtNative.rt_native_heap_in_use(); } }
}

}  // namespace IreeRt
