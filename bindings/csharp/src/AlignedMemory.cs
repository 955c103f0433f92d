// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Buffers;
using System.Runtime.InteropServices;

namespace IreeRt {

/// <summary>
/// Alignment-aligned unmanaged memory for tensors that share memory with the program (no
/// copies in or out). Fill it through Memory/Span, pass Memory to Tensor.FromMemory. The memory
/// is freed once this object is disposed (or finalized) and no tensor pins it any more.
/// </summary>
public sealed unsafe class AlignedMemory<T> : MemoryManager<T> where T : struct {
  readonly IntPtr raw;
  readonly IntPtr aligned;
  readonly int length;
  int pins;
  bool disposed;

  public AlignedMemory(int length) {
    if (length < 0) throw new ArgumentOutOfRangeException("length");
    this.length = length;
    long bytes = (long)length * Marshal.SizeOf(typeof(T));
    raw = Marshal.AllocHGlobal(new IntPtr(bytes + Tensor.Alignment));
    aligned = new IntPtr(((long)raw + Tensor.Alignment - 1) & ~(long)(Tensor.Alignment - 1));
    new Span<byte>((void*)aligned, (int)bytes).Clear();
  }

  ~AlignedMemory() { Dispose(false); }

  public override Span<T> GetSpan() {
    if (disposed) throw new ObjectDisposedException("AlignedMemory");
    return new Span<T>((void*)aligned, length);
  }

  public override MemoryHandle Pin(int elementIndex = 0) {
    lock (this) {
      if (disposed) throw new ObjectDisposedException("AlignedMemory");
      ++pins;
    }
    var p = (byte*)aligned + (long)elementIndex * Marshal.SizeOf(typeof(T));
    return new MemoryHandle(p, default(GCHandle), this);
  }

  public override void Unpin() {
    lock (this) {
      --pins;
      FreeIfUnused();
    }
  }

  protected override void Dispose(bool disposing) {
    lock (this) {
      disposed = true;
      FreeIfUnused();
    }
  }

  bool freed;
  void FreeIfUnused() {
    if (disposed && pins == 0 && !freed) {
      freed = true;
      Marshal.FreeHGlobal(raw);
      GC.SuppressFinalize(this);
    }
  }
}

}  // namespace IreeRt
