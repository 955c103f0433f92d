// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/**
 * A device (CPU worker pool, GPU, ...) with its queue and allocator. Thread-safe. Closing the
 * device object does not stop work in flight: tensors, buffers and modules keep it alive.
 */
public final class Device extends NativeObject {
  /** Statistics of the device's allocator. */
  public enum MemoryStatistic {
    BYTES_ALLOCATED(1), PEAK_BYTES_ALLOCATED(2), ALLOCATION_COUNT(3);

    final int value;

    MemoryStatistic(int value) {
      this.value = value;
    }
  }

  /** Creates the device named by |uri| with |options| (nullable). */
  public Device(Instance instance, String uri, DeviceOptions options) {
    super(HandleKind.RT_KIND_DEVICE, IreeRtNative.device_create(instance, uri, options));
  }

  public Device(Instance instance, String uri) {
    this(instance, uri, null);
  }

  /** The identifier compiled programs match ("local-task", "cuda"). */
  public String id() {
    return IreeRtNative.device_id(this);
  }

  /** Answers a device query (e.g. ("hal.device.id", "local*") → 1 if it matches). */
  public long query(String category, String key) {
    return IreeRtNative.device_query_i64(this, category, key);
  }

  public long memoryStatistic(MemoryStatistic statistic) {
    return IreeRtNative.device_memory_statistic(this, statistic.value);
  }

  /** Allocates |size| bytes of device-local memory usable by programs and transfers. */
  public Buffer allocate(long size) {
    return new Buffer(IreeRtNative.buffer_allocate(this, Kinds.MEMORY_TYPE_DEVICE_LOCAL,
        Kinds.BUFFER_USAGE_DEFAULT, size));
  }
}
