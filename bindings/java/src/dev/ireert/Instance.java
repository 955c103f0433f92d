// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The runtime's root object: it offers the built-in drivers and creates devices and modules.
 * Most programs create one. Thread-safe: every method may be called from several threads at once.
 */
public final class Instance extends NativeObject {
  /** Creates an instance with every built-in driver. */
  public Instance() {
    this(null);
  }

  /** Creates an instance configured by |options| (nullable; copied, may be closed after). */
  public Instance(InstanceOptions options) {
    super(HandleKind.RT_KIND_INSTANCE, IreeRtNative.instance_create(Kinds.ABI_VERSION, options));
  }

  /** Writes the trace file now (see {@link InstanceOptions#setTracePath}); nothing when off. */
  public void flushTrace() {
    IreeRtNative.instance_trace_flush(this);
  }

  /** The library's version string, e.g. "1.0.0 (ABI 1.0)". */
  public static String version() {
    return IreeRtNative.get_version_string();
  }

  /** The names of the drivers this instance offers ("local-sync", "local-task", ...). */
  public List<String> driverNames() {
    long n = IreeRtNative.instance_driver_count(this);
    List<String> names = new ArrayList<>();
    for (long i = 0; i < n; ++i) {
      names.add(IreeRtNative.instance_driver_name(this, i));
    }
    return Collections.unmodifiableList(names);
  }

  /** The devices |driver| (null: every available driver) can create. */
  public List<DeviceInfo> devices(String driver) {
    long handle = IreeRtNative.instance_enumerate_devices(this, driver);
    try (DeviceInfoList list = new DeviceInfoList(handle)) {
      return list.toInfos();
    }
  }

  /** Creates the device named by |uri| ("local-task", "cuda", "local-task://?workers=2"). */
  public Device createDevice(String uri) {
    return new Device(this, uri, null);
  }

  /** Loads the module file at |path| (mapped, not copied). */
  public Module loadModule(String path) {
    return Module.load(this, path);
  }

  /** Loads a module from |bytes| (copied). */
  public Module loadModule(byte[] bytes) {
    return Module.load(this, bytes);
  }

  /**
   * Loads |vmfbPath| into a new context on |device|, linked after the hal module: the common
   * case of running one compiled program. The modules are closed (the context keeps them).
   */
  public Context createContext(Device device, String vmfbPath) {
    try (Module hal = Module.hal(this, device);
        Module program = Module.load(this, vmfbPath)) {
      return new Context(this, hal, program);
    }
  }
}
