// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.IO;
using System.Runtime.InteropServices;

namespace IreeRt {

/// <summary>
/// Loads the P/Invoke glue (libiree_rt_csharp.so, which finds libiree_rt.so.1 through its
/// $ORIGIN run path) by absolute path before the first P/Invoke, so a program needs neither
/// MONO_PATH nor LD_LIBRARY_PATH. Looked for, in order: next to IreeRt.dll (the build folder, the
/// installed lib/iree_rt/csharp, or a folder IreeRt.dll was copied to with its natives), then the
/// configured install's library folder (BuildInfo.InstallLibDir). If neither has it, Mono's own
/// search (dllmap, LD_LIBRARY_PATH, the system's library path) decides, as before. Once loaded,
/// Mono's DllImport("iree_rt_csharp") finds the library by its soname.
/// </summary>
internal static class NativeLibraryLoader {
  const string Glue = "libiree_rt_csharp.so";
  const int RTLD_NOW = 2;
  const int RTLD_GLOBAL = 0x100;
  static readonly object gate = new object();
  static bool done;

  [DllImport("libdl.so.2", EntryPoint = "dlopen")]
  static extern IntPtr DlopenDl(string path, int flags);
  [DllImport("libc.so.6", EntryPoint = "dlopen")]
  static extern IntPtr DlopenC(string path, int flags);

  /// <summary>The path the glue was loaded from, or null when Mono's own search was left to it.</summary>
  internal static string LoadedFrom { get; private set; }

  internal static void Ensure() {
    if (done) return;
    lock (gate) {
      if (done) return;
      done = true;
      foreach (string dir in Candidates()) {
        if (string.IsNullOrEmpty(dir)) continue;
        string path = Path.Combine(dir, Glue);
        if (File.Exists(path) && Open(path)) {
          LoadedFrom = path;
          return;
        }
      }
    }
  }

  static string[] Candidates() {
    string here = null;
    try {
      here = Path.GetDirectoryName(typeof(NativeLibraryLoader).Assembly.Location);
    } catch (Exception) {
      // An assembly loaded from bytes has no location: fall through to the install folder.
    }
    return new[] { here, BuildInfo.InstallLibDir + "/iree_rt/csharp", BuildInfo.InstallLibDir };
  }

  static bool Open(string path) {
    try {
      return DlopenDl(path, RTLD_NOW | RTLD_GLOBAL) != IntPtr.Zero;
    } catch (DllNotFoundException) {
      // glibc 2.34 and newer have dlopen in libc itself; some systems no longer ship libdl.so.2.
    } catch (EntryPointNotFoundException) {
    }
    try {
      return DlopenC(path, RTLD_NOW | RTLD_GLOBAL) != IntPtr.Zero;
    } catch (Exception) {
      return false;
    }
  }
}

}  // namespace IreeRt
