// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;

namespace IreeRt {

/// <summary>
/// A range of device memory (not "Buffer", which would clash with System.Buffer). Thread-safe;
/// host reads and writes of overlapping ranges must be ordered by the caller. Read/Write move
/// bytes directly between device memory and the span.
/// </summary>
public sealed class DeviceBuffer : NativeObject {
  internal DeviceBuffer(IntPtr handle) : base(HandleKind.RT_KIND_BUFFER, handle) {}

  public long Length { get { return IreeRtNative.buffer_length(this); } }

  public unsafe void Read(long offset, Span<byte> target) {
    fixed (byte* p = &System.Runtime.InteropServices.MemoryMarshal.GetReference(target)) {
      IreeRtNative.buffer_read(this, offset, (IntPtr)p, target.Length);
    }
  }

  public unsafe void Write(long offset, ReadOnlySpan<byte> source) {
    fixed (byte* p = &System.Runtime.InteropServices.MemoryMarshal.GetReference(source)) {
      IreeRtNative.buffer_write(this, offset, (IntPtr)p, source.Length);
    }
  }
}

}  // namespace IreeRt
