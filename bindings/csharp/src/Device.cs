// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

/// <summary>A device with its queue and allocator. Thread-safe.</summary>
public sealed class Device : NativeObject {
  public Device(Instance instance, string uri, DeviceOptions options = null)
      : base(HandleKind.RT_KIND_DEVICE, IreeRtNative.device_create(instance, uri, options)) {}

  /// <summary>The identifier compiled programs match ("local-task", "cuda").</summary>
  public string Id { get { return IreeRtNative.device_id(this); } }

  public long Query(string category, string key) {
    return IreeRtNative.device_query_i64(this, category, key);
  }

  public long GetMemoryStatistic(MemoryStatistic statistic) {
    return IreeRtNative.device_memory_statistic(this, (int)statistic);
  }

  /// <summary>Allocates |size| bytes of device-local memory.</summary>
  public DeviceBuffer Allocate(long size) {
    return new DeviceBuffer(IreeRtNative.buffer_allocate(this, Kinds.MemoryTypeDeviceLocal,
                                                   Kinds.BufferUsageDefault, size));
  }
}

}  // namespace IreeRt
