// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert.tests;

import dev.ireert.Context;
import dev.ireert.Device;
import dev.ireert.Instance;

/** Paths from the build (system properties set by ctest) and a shared instance/device. */
final class Fixture implements AutoCloseable {
  static String testModule() {
    return property("iree_rt.test.module");
  }

  static String mlpModule() {
    return property("iree_rt.test.mlp");
  }

  /** tests/unit/modules/programs/parameters.mlir: weights in scope "model", unscoped splats. */
  static String parametersModule() {
    return property("iree_rt.test.parameters");
  }

  /** tests/unit/api/programs/needs_hal.mlir compiled with --iree-execution-model=async-external. */
  static String asyncModule() {
    return property("iree_rt.test.async");
  }

  /** bindings/tests/all_reduce.mlir: an all-reduce over 2 ranks. */
  static String allReduceModule() {
    return property("iree_rt.test.all_reduce");
  }

  private static String property(String name) {
    String v = System.getProperty(name);
    if (v == null) {
      throw new IllegalStateException("-D" + name + " is not set (run the tests through ctest)");
    }
    return v;
  }

  final Instance instance;
  final Device device;
  final Context context;

  Fixture(String uri) {
    instance = new Instance();
    device = instance.createDevice(uri);
    context = instance.createContext(device, testModule());
  }

  Fixture() {
    this("local-task");
  }

  @Override
  public void close() {
    context.close();
    device.close();
    instance.close();
  }
}
