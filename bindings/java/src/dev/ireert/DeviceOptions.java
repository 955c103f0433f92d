// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/** Device parameters that override the URI's. Not thread-safe. */
public final class DeviceOptions extends NativeObject {
  public DeviceOptions() {
    super(HandleKind.RT_KIND_DEVICE_OPTIONS, IreeRtNative.device_options_create());
  }

  public DeviceOptions set(String key, String value) {
    IreeRtNative.device_options_set_string(this, key, value);
    return this;
  }
}
