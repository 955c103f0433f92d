// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A module: a compiled program (.vmfb) or a native module (hal, io_parameters, check). Immutable and
 * thread-safe; link it into a {@link Context} to call its functions.
 */
public final class Module extends NativeObject {
  Module(long handle) {
    super(HandleKind.RT_KIND_MODULE, handle);
  }

  /** Loads the .vmfb at |path| (mapped read-only; the file must not change while loaded). */
  public static Module load(Instance instance, String path) {
    return new Module(IreeRtNative.module_load_file(instance, path));
  }

  /** Loads a module from |bytes| (copied). */
  public static Module load(Instance instance, byte[] bytes) {
    return new Module(IreeRtNative.module_load_memory(instance, bytes));
  }

  /** The hal module over |devices|: link it before programs that use tensors. */
  public static Module hal(Instance instance, Device... devices) {
    return new Module(IreeRtNative.module_create_hal(instance, devices));
  }

  /**
   * The io_parameters module over |parameters| (one set per scope; frozen by this call): link it
   * after the hal module and before programs whose weights are external.
   */
  public static Module ioParameters(Instance instance, Parameters... parameters) {
    return new Module(IreeRtNative.module_create_io_parameters(instance, parameters));
  }

  /** The `check` module IREE test programs import. */
  public static Module check(Instance instance) {
    return new Module(IreeRtNative.module_create_check(instance));
  }

  public String name() {
    return IreeRtNative.module_name(this);
  }

  /** The exported functions' names (including the compiler's "__" ones). */
  public List<String> functionNames() {
    long n = IreeRtNative.module_function_count(this);
    List<String> names = new ArrayList<>();
    for (long i = 0; i < n; ++i) {
      names.add(IreeRtNative.module_function_name(this, i));
    }
    return Collections.unmodifiableList(names);
  }

  /** The calling convention of function |name| ("0ii_i"), or null if there is none. */
  public String signature(String name) {
    long n = IreeRtNative.module_function_count(this);
    for (long i = 0; i < n; ++i) {
      if (IreeRtNative.module_function_name(this, i).equals(name)) {
        return IreeRtNative.module_function_signature(this, i);
      }
    }
    return null;
  }
}
