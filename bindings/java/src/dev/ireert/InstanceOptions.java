// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/**
 * Options for {@link Instance}: the drivers allowed and default device parameters. Not
 * thread-safe: configure from one thread, then create instances.
 */
public final class InstanceOptions extends NativeObject {
  public InstanceOptions() {
    super(HandleKind.RT_KIND_INSTANCE_OPTIONS, IreeRtNative.instance_options_create());
  }

  /** Offers only the drivers allowed (once at least one is). */
  public InstanceOptions allowDriver(String driver) {
    IreeRtNative.instance_options_allow_driver(this, driver);
    return this;
  }

  /** Sets parameter key=value for every device of |driver| unless the device sets it. */
  public InstanceOptions setDeviceParam(String driver, String key, String value) {
    IreeRtNative.instance_options_set_device_param(this, driver, key, value);
    return this;
  }

  /** Sets |limit| for every context of the instance (programs passing it fail their call). */
  public InstanceOptions setLimit(Limit limit, long value) {
    IreeRtNative.instance_options_set_limit(this, limit.value(), value);
    return this;
  }

  /**
   * Records a trace of the process's runtime work (Chrome Trace Event JSON, for Perfetto or
   * chrome://tracing) into |path|, written when the instance closes and by
   * {@link Instance#flushTrace}. The environment variable IREE_RT_TRACE does the same.
   */
  public InstanceOptions setTracePath(String path) {
    IreeRtNative.instance_options_set_trace_path(this, path);
    return this;
  }
}
