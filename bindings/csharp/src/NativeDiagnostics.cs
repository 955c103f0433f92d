// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

/// <summary>Diagnostics.</summary>
public static class NativeDiagnostics {
  /// <summary>
  /// Bytes the process's C heap has handed out and not taken back (glibc mallinfo2), or -1.
  /// </summary>
  public static long HeapInUse { get { return IreeRtNative.rt_native_heap_in_use(); } }

  /// <summary>
  /// The absolute path libiree_rt_csharp.so was loaded from before the first P/Invoke (next to
  /// IreeRt.dll, or the install's library folder), or null when Mono's own search found it.
  /// </summary>
  public static string NativeLibraryPath {
    get {
      NativeLibraryLoader.Ensure();
      return NativeLibraryLoader.LoadedFrom;
    }
  }
}

}  // namespace IreeRt
