using System;
using System.Collections.Generic;

namespace IreeRt {

/// <summary>
/// The runtime's root object: offers the built-in drivers, creates devices and loads modules.
/// Thread-safe.
/// </summary>
public sealed class Instance : NativeObject {
  public Instance() : this(null) {}

  /// <summary>An instance configured by |options| (nullable; copied).</summary>
  public Instance(InstanceOptions options)
      : base(HandleKind.RT_KIND_INSTANCE,
             IreeRtNative.instance_create(Kinds.AbiVersion, options)) {}

  /// <summary>The library's version, e.g. "0.1.0 (ABI 1.0)".</summary>
  public static string Version { get { return IreeRtNative.get_version_string(); } }

  public IReadOnlyList<string> DriverNames {
    get {
      long n = IreeRtNative.instance_driver_count(this);
      var names = new List<string>();
      for (long i = 0; i < n; ++i) names.Add(IreeRtNative.instance_driver_name(this, i));
      return names;
    }
  }

  /// <summary>The devices |driver| (null: every available driver) can create.</summary>
  public IReadOnlyList<DeviceInfo> Devices(string driver = null) {
    using (var list = new DeviceInfoList(IreeRtNative.instance_enumerate_devices(this, driver))) {
      return list.ToInfos();
    }
  }

  public Device CreateDevice(string uri) { return new Device(this, uri); }

  public Module LoadModule(string path) { return Module.Load(this, path); }

  public Module LoadModule(byte[] bytes) { return Module.Load(this, bytes); }

  /// <summary>Loads |vmfbPath| into a new context on |device|, after the hal module.</summary>
  public Context CreateContext(Device device, string vmfbPath) {
    using (var hal = Module.Hal(this, device))
    using (var program = Module.Load(this, vmfbPath)) {
      return new Context(this, hal, program);
    }
  }
}

/// <summary>Options for Instance. Not thread-safe.</summary>
public sealed class InstanceOptions : NativeObject {
  public InstanceOptions()
      : base(HandleKind.RT_KIND_INSTANCE_OPTIONS, IreeRtNative.instance_options_create()) {}

  public InstanceOptions AllowDriver(string driver) {
    IreeRtNative.instance_options_allow_driver(this, driver);
    return this;
  }

  public InstanceOptions SetDeviceParam(string driver, string key, string value) {
    IreeRtNative.instance_options_set_device_param(this, driver, key, value);
    return this;
  }

  /// <summary>Sets |limit| for every context of the instance.</summary>
  public InstanceOptions SetLimit(Limit limit, ulong value) {
    IreeRtNative.instance_options_set_limit(this, (int)limit, unchecked((long)value));
    return this;
  }
}

/// <summary>A device a driver can create.</summary>
public sealed class DeviceInfo {
  public string Name { get; internal set; }
  public string Uri { get; internal set; }
  public IReadOnlyDictionary<string, string> Properties { get; internal set; }
  public override string ToString() { return Name + " (" + Uri + ")"; }
}

internal sealed class DeviceInfoList : NativeObject {
  internal DeviceInfoList(IntPtr handle) : base(HandleKind.RT_KIND_DEVICE_INFO_LIST, handle) {}

  internal IReadOnlyList<DeviceInfo> ToInfos() {
    long n = IreeRtNative.device_info_list_count(this);
    var infos = new List<DeviceInfo>();
    for (long i = 0; i < n; ++i) {
      var props = new Dictionary<string, string>();
      long p = IreeRtNative.device_info_list_property_count(this, i);
      for (long j = 0; j < p; ++j) {
        props[IreeRtNative.device_info_list_property_key(this, i, j)] =
            IreeRtNative.device_info_list_property_value(this, i, j);
      }
      infos.Add(new DeviceInfo { Name = IreeRtNative.device_info_list_name(this, i),
                                 Uri = IreeRtNative.device_info_list_uri(this, i),
                                 Properties = props });
    }
    return infos;
  }
}

/// <summary>Device parameters that override the URI's. Not thread-safe.</summary>
public sealed class DeviceOptions : NativeObject {
  public DeviceOptions()
      : base(HandleKind.RT_KIND_DEVICE_OPTIONS, IreeRtNative.device_options_create()) {}

  public DeviceOptions Set(string key, string value) {
    IreeRtNative.device_options_set_string(this, key, value);
    return this;
  }
}

public enum MemoryStatistic { BytesAllocated = 1, PeakBytesAllocated = 2, AllocationCount = 3 }

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
  public Buffer Allocate(long size) {
    return new Buffer(IreeRtNative.buffer_allocate(this, Kinds.MemoryTypeDeviceLocal,
                                                   Kinds.BufferUsageDefault, size));
  }
}

/// <summary>
/// A range of device memory. Thread-safe; host reads and writes of overlapping ranges must be
/// ordered by the caller. Read/Write move bytes directly between device memory and the span.
/// </summary>
public sealed class Buffer : NativeObject {
  internal Buffer(IntPtr handle) : base(HandleKind.RT_KIND_BUFFER, handle) {}

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
