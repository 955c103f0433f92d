// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

/// <summary>Device parameters that override the URI's. Not thread-safe.</summary>
public sealed class DeviceOptions : NativeObject {
  public DeviceOptions()
      : base(HandleKind.RT_KIND_DEVICE_OPTIONS, IreeRtNative.device_options_create()) {}

  public DeviceOptions Set(string key, string value) {
    IreeRtNative.device_options_set_string(this, key, value);
    return this;
  }
}

}  // namespace IreeRt
