// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Text;

namespace IreeRt {

internal static class Utf8 {
  internal static unsafe string FromNative(IntPtr p) {
    if (p == IntPtr.Zero) return null;
    byte* b = (byte*)p;
    int n = 0;
    while (b[n] != 0) ++n;
    return Encoding.UTF8.GetString(b, n);
  }
}

}  // namespace IreeRt
