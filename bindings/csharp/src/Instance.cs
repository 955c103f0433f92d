// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

  /// <summary>The library's version, e.g. "1.0.0 (ABI 1.0)".</summary>
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

  /// <summary>Writes the trace file now (InstanceOptions.SetTracePath); nothing when off.</summary>
  public void FlushTrace() { IreeRtNative.instance_trace_flush(this); }

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

}  // namespace IreeRt
