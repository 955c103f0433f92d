// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

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

  /// <summary>Records a trace of the process's runtime work (Chrome Trace Event JSON, for
  /// Perfetto or chrome://tracing) into |path|, written when the instance is disposed and by
  /// Instance.FlushTrace. The environment variable IREE_RT_TRACE does the same.</summary>
  public InstanceOptions SetTracePath(string path) {
    IreeRtNative.instance_options_set_trace_path(this, path);
    return this;
  }
}

}  // namespace IreeRt
