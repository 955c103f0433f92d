// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Buffers;
using System.Runtime.InteropServices;

namespace IreeRt {

/// <summary>
/// A tensor: a buffer plus shape and element type (a native buffer view). Thread-safe.
/// FromMemory/FromArray pin the caller's memory and hand it to the runtime without copying
/// (the memory stays pinned until the runtime drops its last reference to it); FromSpan copies.
/// ReadInto copies device memory straight into the caller's span.
/// </summary>
public sealed class Tensor : NativeObject {
  DeviceBuffer buffer;  // lazily created; owns one more reference

  internal Tensor(IntPtr handle) : base(HandleKind.RT_KIND_BUFFER_VIEW, handle) {}

  internal static ElementType ElementTypeOf<T>() where T : struct {
    var t = typeof(T);
    if (t == typeof(float)) return ElementType.Float32;
    if (t == typeof(double)) return ElementType.Float64;
    if (t == typeof(int)) return ElementType.Int32;
    if (t == typeof(uint)) return ElementType.UInt32;
    if (t == typeof(long)) return ElementType.Int64;
    if (t == typeof(ulong)) return ElementType.UInt64;
    if (t == typeof(short)) return ElementType.Int16;
    if (t == typeof(ushort)) return ElementType.UInt16;
    if (t == typeof(sbyte)) return ElementType.Int8;
    if (t == typeof(byte)) return ElementType.UInt8;
    throw new ArgumentException("no tensor element type for " + t.Name);
  }

  static long CountElements(long[] shape) {
    long n = 1;
    foreach (long d in shape) {
      if (d < 0) throw new ArgumentException("negative dimension " + d);
      n = checked(n * d);
    }
    return n;
  }

  /// <summary>The address alignment compiled kernels may assume for their buffers.</summary>
  public const int Alignment = 64;

  /// <summary>
  /// Wraps |data| as a tensor of |shape| without copying when its address is Alignment-byte
  /// aligned (AlignedMemory gives such memory; managed arrays rarely are): the memory is pinned
  /// and the program reads and writes it directly until the runtime drops its last reference to
  /// it. Unaligned memory, and devices that cannot import host memory (the import fails with
  /// UNIMPLEMENTED, INVALID_ARGUMENT or FAILED_PRECONDITION), get a copy:
  /// compiled kernels use aligned vector loads and would crash on unaligned memory.
  /// </summary>
  public static unsafe Tensor FromMemory<T>(Device device, Memory<T> data, params long[] shape)
      where T : struct {
    var type = ElementTypeOf<T>();
    long count = CountElements(shape);
    if (count != data.Length) {
      throw new ArgumentException("shape has " + count + " elements, the memory " + data.Length);
    }
    long bytes = (long)MemoryMarshal.AsBytes(data.Span).Length;
    PinnedMemory.Drain();
    MemoryHandle pin = data.Pin();
    if (((long)pin.Pointer & (Alignment - 1)) != 0 && bytes > 0) {
      pin.Dispose();
      return FromSpan<T>(device, data.Span, shape);
    }
    IntPtr cookie = PinnedMemory.Create(pin);
    IntPtr buffer;
    try {
      buffer = IreeRtNative.buffer_import_host(device, Kinds.MemoryTypeHostLocal,
                                               Kinds.BufferUsageDefault, Kinds.MemoryAccessAll,
                                               (IntPtr)pin.Pointer, bytes, cookie);
    } catch (IreeRtException e) {
      PinnedMemory.Release(cookie);  // not taken by the runtime
      // Devices that cannot use host memory as given (GPU drivers) get a copy.
      if (e.Code != StatusCode.Unimplemented && e.Code != StatusCode.InvalidArgument &&
          e.Code != StatusCode.FailedPrecondition) {
        throw;
      }
      return FromSpan<T>(device, data.Span, shape);
    }
    using (var b = new DeviceBuffer(buffer)) return View(b, type, shape);
  }

  /// <summary>Wraps |data| (pinned; copied unless aligned); see FromMemory.</summary>
  public static Tensor FromArray<T>(Device device, T[] data, params long[] shape) where T : struct {
    return FromMemory<T>(device, new Memory<T>(data), shape);
  }

  /// <summary>Copies |data| into a new device buffer.</summary>
  public static Tensor FromSpan<T>(Device device, ReadOnlySpan<T> data, params long[] shape)
      where T : struct {
    var type = ElementTypeOf<T>();
    long count = CountElements(shape);
    if (count != data.Length) {
      throw new ArgumentException("shape has " + count + " elements, the span " + data.Length);
    }
    var bytes = MemoryMarshal.AsBytes(data);
    using (var b = device.Allocate(bytes.Length)) {
      b.Write(0, bytes);
      return View(b, type, shape);
    }
  }

  /// <summary>A zero-filled tensor on |device|.</summary>
  public static Tensor Allocate(Device device, ElementType type, params long[] shape) {
    long bytes = IreeRtNative.element_type_byte_count((int)type, CountElements(shape));
    using (var b = device.Allocate(bytes)) return View(b, type, shape);
  }

  static Tensor View(DeviceBuffer buffer, ElementType type, long[] shape) {
    return new Tensor(IreeRtNative.buffer_view_create(buffer, shape, shape.Length, (int)type,
                                                      Kinds.EncodingDenseRowMajor));
  }

  public int Rank { get { return (int)IreeRtNative.buffer_view_rank(this); } }

  public long[] Shape {
    get {
      var dims = new long[Rank];
      for (int i = 0; i < dims.Length; ++i) dims[i] = IreeRtNative.buffer_view_dim(this, i);
      return dims;
    }
  }

  public ElementType ElementType {
    get { return (ElementType)(uint)IreeRtNative.buffer_view_element_type(this); }
  }

  public long ElementCount { get { return IreeRtNative.buffer_view_element_count(this); } }

  public long ByteLength { get { return IreeRtNative.buffer_view_byte_length(this); } }

  /// <summary>The tensor's buffer (owned by the tensor: disposed with it).</summary>
  public DeviceBuffer Buffer {
    get {
      lock (this) {
        if (buffer == null) {
          IntPtr raw = IreeRtNative.buffer_view_buffer(this);
          buffer = new DeviceBuffer((IntPtr)IreeRtNative.rt_retain_buffer((long)raw));
        }
        return buffer;
      }
    }
  }

  /// <summary>Copies the tensor's elements into |target| (no intermediate copy).</summary>
  public void ReadInto<T>(Span<T> target) where T : struct {
    CheckType<T>();
    var bytes = MemoryMarshal.AsBytes(target);
    long n = ByteLength;
    if (bytes.Length < n) {
      throw new ArgumentException("tensor has " + n + " bytes, the target only " + bytes.Length);
    }
    Buffer.Read(0, bytes.Slice(0, (int)n));
  }

  /// <summary>The tensor's elements in a new array.</summary>
  public T[] ToArray<T>() where T : struct {
    CheckType<T>();
    var result = new T[ElementCount];
    ReadInto<T>(result);
    return result;
  }

  void CheckType<T>() where T : struct {
    var want = ElementTypeOf<T>();
    var have = ElementType;
    // Signless and signed integers of one width share a C# type.
    if (want == have || ((uint)want & 0xFFu) == ((uint)have & 0xFFu) &&
        ((uint)have >> 24 == 0x10 || (uint)have >> 24 == 0x11) &&
        ((uint)want >> 24 == 0x10 || (uint)want >> 24 == 0x11)) {
      return;
    }
    throw new InvalidOperationException("tensor is " + have + ", not " + typeof(T).Name);
  }

  public override void Dispose() {
    base.Dispose();
    DeviceBuffer b;
    lock (this) b = buffer;
    if (b != null) b.Dispose();
    PinnedMemory.Drain();
  }

  public override string ToString() {
    if (IsDisposed) return "Tensor(disposed)";
    return string.Join("x", Shape) + "x" + ElementType;
  }
}

}  // namespace IreeRt
