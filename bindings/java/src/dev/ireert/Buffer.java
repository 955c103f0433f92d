// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.nio.ByteBuffer;

/**
 * A range of device memory. Thread-safe, but host reads and writes of overlapping ranges must
 * be ordered by the caller. Reads and writes go straight between the device memory and the
 * caller's direct ByteBuffer (no intermediate copy).
 */
public final class Buffer extends NativeObject {
  Buffer(long handle) {
    super(HandleKind.RT_KIND_BUFFER, handle);
  }

  /** Bytes visible through this buffer. */
  public long length() {
    return IreeRtNative.buffer_length(this);
  }

  /** Copies |target|.remaining() bytes at |offset| into |target| (direct) and advances it. */
  public void read(long offset, ByteBuffer target) {
    int n = target.remaining();
    IreeRtNative.buffer_read(this, offset, exactSlice(target, n));
    target.position(target.position() + n);
  }

  /** Copies |source|.remaining() bytes (direct) to |offset| and advances |source|. */
  public void write(long offset, ByteBuffer source) {
    int n = source.remaining();
    IreeRtNative.buffer_write(this, offset, exactSlice(source, n));
    source.position(source.position() + n);
  }

  /** A view of the |n| bytes at |b|'s position whose capacity is exactly |n|. */
  static ByteBuffer exactSlice(ByteBuffer b, int n) {
    if (!b.isDirect()) {
      throw new IllegalArgumentException("a direct ByteBuffer is required");
    }
    if (b.position() == 0 && b.capacity() == n) {
      return b;
    }
    return b.slice(b.position(), n);
  }
}
