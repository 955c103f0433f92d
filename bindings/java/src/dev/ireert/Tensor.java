// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A tensor: a buffer plus shape and element type (a native buffer view). Immutable in shape;
 * thread-safe. Created from a direct ByteBuffer without copying, from a Java array with one
 * copy, or returned by a function call.
 */
public final class Tensor extends NativeObject {
  private final Object keepAlive;  // the caller's ByteBuffer, when imported
  private Buffer buffer;           // lazily created, owns one more reference

  Tensor(long handle, Object keepAlive) {
    super(HandleKind.RT_KIND_BUFFER_VIEW, handle);
    this.keepAlive = keepAlive;
  }

  /** The address alignment compiled kernels may assume for their buffers. */
  public static final int ALIGNMENT = 64;

  /** A zeroed direct ByteBuffer of |bytes| in native order, aligned for zero-copy tensors. */
  public static ByteBuffer allocateDirect(int bytes) {
    ByteBuffer raw = ByteBuffer.allocateDirect(bytes + ALIGNMENT - 1);
    int misalignment = raw.alignmentOffset(0, ALIGNMENT);
    int start = misalignment == 0 ? 0 : ALIGNMENT - misalignment;
    return raw.slice(start, bytes).order(ByteOrder.nativeOrder());
  }

  /**
   * Wraps the |shape| elements of |type| at |data|'s position (a direct buffer in native byte
   * order) without copying when that address is {@link #ALIGNMENT}-byte aligned (as buffers from
   * {@link #allocateDirect} are): programs read and write that memory directly until the runtime
   * drops its last reference to it (the tensor and every result that aliases it), and the runtime
   * keeps |data| reachable until then. Unaligned memory, and devices that cannot import host
   * memory (UNIMPLEMENTED, INVALID_ARGUMENT or FAILED_PRECONDITION from the import), get a
   * copy. Compiled kernels use aligned vector loads: handing them unaligned memory would crash.
   */
  public static Tensor fromBuffer(Device device, ByteBuffer data, ElementType type, long... shape) {
    if (!data.isDirect()) {
      throw new IllegalArgumentException("a direct ByteBuffer is required (Tensor.allocateDirect)");
    }
    if (data.order() != ByteOrder.nativeOrder()) {
      throw new IllegalArgumentException("the ByteBuffer must be in native byte order");
    }
    long bytes = byteCount(type, shape);
    if (bytes > data.remaining()) {
      throw new IllegalArgumentException(
          "tensor needs " + bytes + " bytes, the buffer has " + data.remaining());
    }
    ByteBuffer slice = Buffer.exactSlice(data, (int) bytes);
    if (bytes > 0 && data.alignmentOffset(data.position(), ALIGNMENT) != 0) {
      return copied(device, slice, type, shape);
    }
    long buffer;
    try {
      buffer = IreeRtNative.buffer_import_host(device, Kinds.MEMORY_TYPE_HOST_LOCAL,
          Kinds.BUFFER_USAGE_DEFAULT, Kinds.MEMORY_ACCESS_ALL, slice);
    } catch (IreeRtException e) {
      // Devices that cannot use host memory as given (GPU drivers) get a copy.
      StatusCode code = e.statusCode();
      if (code != StatusCode.UNIMPLEMENTED && code != StatusCode.INVALID_ARGUMENT
          && code != StatusCode.FAILED_PRECONDITION) {
        throw e;
      }
      return copied(device, slice, type, shape);
    }
    try (Buffer imported = new Buffer(buffer)) {
      return view(imported, type, shape, data);
    }
  }

  private static Tensor copied(Device device, ByteBuffer bytes, ElementType type, long[] shape) {
    try (Buffer copy = device.allocate(bytes.remaining())) {
      copy.write(0, bytes.duplicate());
      return view(copy, type, shape, null);
    }
  }

  /** Allocates a zero-filled tensor on |device|. */
  public static Tensor allocate(Device device, ElementType type, long... shape) {
    try (Buffer b = device.allocate(byteCount(type, shape))) {
      return view(b, type, shape, null);
    }
  }

  /** Copies |data| into a new tensor of shape |shape| (FLOAT_32). */
  public static Tensor fromArray(Device device, float[] data, long... shape) {
    ByteBuffer b = direct(data.length * 4L);
    b.asFloatBuffer().put(data);
    return fromBuffer(device, b, ElementType.FLOAT_32, shape);
  }

  /** Copies |data| into a new tensor of shape |shape| (FLOAT_64). */
  public static Tensor fromArray(Device device, double[] data, long... shape) {
    ByteBuffer b = direct(data.length * 8L);
    b.asDoubleBuffer().put(data);
    return fromBuffer(device, b, ElementType.FLOAT_64, shape);
  }

  /** Copies |data| into a new tensor of shape |shape| (INT_32). */
  public static Tensor fromArray(Device device, int[] data, long... shape) {
    ByteBuffer b = direct(data.length * 4L);
    b.asIntBuffer().put(data);
    return fromBuffer(device, b, ElementType.INT_32, shape);
  }

  /** Copies |data| into a new tensor of shape |shape| (INT_64). */
  public static Tensor fromArray(Device device, long[] data, long... shape) {
    ByteBuffer b = direct(data.length * 8L);
    b.asLongBuffer().put(data);
    return fromBuffer(device, b, ElementType.INT_64, shape);
  }

  /** Copies |data| into a new tensor of shape |shape| (INT_8). */
  public static Tensor fromArray(Device device, byte[] data, long... shape) {
    ByteBuffer b = direct(data.length);
    b.put(data).flip();
    return fromBuffer(device, b, ElementType.INT_8, shape);
  }

  private static Tensor view(Buffer buffer, ElementType type, long[] shape, Object keepAlive) {
    return new Tensor(IreeRtNative.buffer_view_create(buffer, shape, type.value(),
        Kinds.ENCODING_DENSE_ROW_MAJOR), keepAlive);
  }

  private static long byteCount(ElementType type, long[] shape) {
    long n = 1;
    for (long d : shape) {
      if (d < 0) {
        throw new IllegalArgumentException("negative dimension " + d);
      }
      n = Math.multiplyExact(n, d);
    }
    return Math.multiplyExact(n, (long) type.byteSize());
  }

  private static ByteBuffer direct(long bytes) {
    if (bytes > Integer.MAX_VALUE - ALIGNMENT) {
      throw new IllegalArgumentException("array too large: " + bytes + " bytes");
    }
    return allocateDirect((int) bytes);
  }

  public int rank() {
    return (int) IreeRtNative.buffer_view_rank(this);
  }

  public long[] shape() {
    long[] dims = new long[rank()];
    for (int i = 0; i < dims.length; ++i) {
      dims[i] = IreeRtNative.buffer_view_dim(this, i);
    }
    return dims;
  }

  public ElementType elementType() {
    return ElementType.fromValue(IreeRtNative.buffer_view_element_type(this));
  }

  public long elementCount() {
    return IreeRtNative.buffer_view_element_count(this);
  }

  public long byteLength() {
    return IreeRtNative.buffer_view_byte_length(this);
  }

  /** The tensor's buffer (owned by the tensor: closed with it). */
  public synchronized Buffer buffer() {
    if (buffer == null) {
      long raw = IreeRtNative.buffer_view_buffer(this);
      buffer = new Buffer(IreeRtNative.rt_retain_buffer(raw));
    }
    return buffer;
  }

  /**
   * Copies the tensor's bytes into |target| (a direct buffer with at least byteLength()
   * remaining) straight from device memory, and advances it.
   */
  public void read(ByteBuffer target) {
    if (target.isReadOnly()) {
      throw new java.nio.ReadOnlyBufferException();
    }
    long n = byteLength();
    if (n > target.remaining()) {
      throw new IllegalArgumentException(
          "tensor has " + n + " bytes, the target only " + target.remaining());
    }
    ByteBuffer slice = Buffer.exactSlice(target, (int) n);
    IreeRtNative.buffer_read(buffer(), 0, slice);
    target.position(target.position() + (int) n);
  }

  /** The tensor's bytes in a new direct buffer in native order. */
  public ByteBuffer toByteBuffer() {
    ByteBuffer b = direct(byteLength());
    read(b);
    b.flip();
    return b;
  }

  public float[] toFloatArray() {
    expect(ElementType.FLOAT_32);
    float[] out = new float[(int) elementCount()];
    toByteBuffer().asFloatBuffer().get(out);
    return out;
  }

  public double[] toDoubleArray() {
    expect(ElementType.FLOAT_64);
    double[] out = new double[(int) elementCount()];
    toByteBuffer().asDoubleBuffer().get(out);
    return out;
  }

  public int[] toIntArray() {
    ElementType t = elementType();
    if (t.byteSize() != 4 || t == ElementType.FLOAT_32) {
      throw new IllegalStateException("tensor is " + t + ", not a 32-bit integer");
    }
    int[] out = new int[(int) elementCount()];
    toByteBuffer().asIntBuffer().get(out);
    return out;
  }

  public long[] toLongArray() {
    ElementType t = elementType();
    if (t.byteSize() != 8 || t == ElementType.FLOAT_64) {
      throw new IllegalStateException("tensor is " + t + ", not a 64-bit integer");
    }
    long[] out = new long[(int) elementCount()];
    toByteBuffer().asLongBuffer().get(out);
    return out;
  }

  private void expect(ElementType type) {
    ElementType t = elementType();
    if (t != type) {
      throw new IllegalStateException("tensor is " + t + ", not " + type);
    }
  }

  @Override
  public void close() {
    super.close();
    Buffer b;
    synchronized (this) {
      b = buffer;
    }
    if (b != null) {
      b.close();
    }
  }

  @Override
  public String toString() {
    if (isClosed()) {
      return "Tensor(closed)";
    }
    StringBuilder s = new StringBuilder();
    for (long d : shape()) {
      s.append(d).append('x');
    }
    return s.append(elementType()).toString();
  }
}
