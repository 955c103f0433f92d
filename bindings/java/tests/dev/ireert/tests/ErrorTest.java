// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ireert.Device;
import dev.ireert.ElementType;
import dev.ireert.Fence;
import dev.ireert.Function;
import dev.ireert.IreeRtException;
import dev.ireert.Module;
import dev.ireert.Semaphore;
import dev.ireert.StatusCode;
import dev.ireert.Tensor;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Bad input raises IreeRtException with the right code (and a useful message). */
class ErrorTest {
  static Fixture f;

  @BeforeAll
  static void setUp() {
    f = new Fixture();
  }

  @AfterAll
  static void tearDown() {
    f.close();
  }

  private static IreeRtException expect(StatusCode code, Runnable r) {
    IreeRtException e = assertThrows(IreeRtException.class, r::run);
    assertEquals(code, e.statusCode(), e.getMessage());
    assertEquals(code.value(), e.code());
    return e;
  }

  @Test
  void missingFunction() {
    IreeRtException e = expect(StatusCode.NOT_FOUND, () -> f.context.function("no_such_function"));
    assertTrue(e.getMessage().contains("no_such_function"), e.getMessage());
  }

  @Test
  void wrongShape() {
    try (Function fn = f.context.function("scale_add");
        Tensor x = Tensor.fromArray(f.device, new float[] {1, 2, 3}, 3);
        Tensor y = Tensor.fromArray(f.device, new float[] {1, 2, 3, 4}, 4)) {
      expect(StatusCode.INVALID_ARGUMENT, () -> fn.call(x, y, 1.0f));
    }
  }

  @Test
  void wrongElementType() {
    try (Function fn = f.context.function("scale_add");
        Tensor x = Tensor.fromArray(f.device, new int[] {1, 2, 3, 4}, 4);
        Tensor y = Tensor.fromArray(f.device, new float[] {1, 2, 3, 4}, 4)) {
      expect(StatusCode.INVALID_ARGUMENT, () -> fn.call(x, y, 1.0f));
    }
  }

  @Test
  void wrongArgumentCountAndTypes() {
    try (Function fn = f.context.function("add_i32")) {
      IreeRtException e = expect(StatusCode.INVALID_ARGUMENT, () -> fn.call(1));
      assertTrue(e.getMessage().toLowerCase().contains("argument"), e.getMessage());
      expect(StatusCode.INVALID_ARGUMENT, () -> fn.call(1L, 2L));
      expect(StatusCode.INVALID_ARGUMENT, () -> fn.call(1.0f, 2));
      assertThrows(IllegalArgumentException.class, () -> fn.call("one", 2));
    }
  }

  @Test
  void corruptModules() throws Exception {
    byte[] good = Files.readAllBytes(Paths.get(Fixture.testModule()));
    byte[] garbage = new byte[4096];
    Arrays.fill(garbage, (byte) 0x5A);
    assertCorrupt(garbage);
    assertCorrupt(Arrays.copyOf(good, good.length / 3));
    byte[] flipped = good.clone();
    for (int i = 16; i < 400 && i < flipped.length; i += 7) {
      flipped[i] ^= (byte) 0xFF;
    }
    assertCorrupt(flipped);
    expect(StatusCode.NOT_FOUND, () -> Module.load(f.instance, "/nonexistent/dir/x.vmfb"));
  }

  private static void assertCorrupt(byte[] bytes) {
    IreeRtException e = assertThrows(IreeRtException.class, () -> Module.load(f.instance, bytes).close());
    assertTrue(e.statusCode() == StatusCode.INVALID_ARGUMENT
        || e.statusCode() == StatusCode.INCOMPATIBLE
        || e.statusCode() == StatusCode.DATA_LOSS
        || e.statusCode() == StatusCode.OUT_OF_RANGE, e.getMessage());
  }

  @Test
  void badDevices() {
    expect(StatusCode.NOT_FOUND, () -> new Device(f.instance, "no-such-driver"));
    expect(StatusCode.INVALID_ARGUMENT, () -> new Device(f.instance, "local-task://?workers=x"));
  }

  @Test
  void badTensorsAreRejectedBeforeReachingNative() {
    assertThrows(IllegalArgumentException.class,
        () -> Tensor.fromBuffer(f.device, ByteBuffer.allocate(16), ElementType.FLOAT_32, 4));
    assertThrows(IllegalArgumentException.class,
        () -> Tensor.fromBuffer(f.device, ByteBuffer.allocateDirect(8)
            .order(java.nio.ByteOrder.nativeOrder()), ElementType.FLOAT_32, 4));
    assertThrows(IllegalArgumentException.class,
        () -> Tensor.fromArray(f.device, new float[4], -1, 4));
  }

  @Test
  void semaphoresAndFences() {
    try (Semaphore s = new Semaphore(f.device, 0);
        Fence fence = new Fence(s, 2)) {
      assertEquals(1, fence.size());
      assertTrue(!fence.isReached());
      expect(StatusCode.DEADLINE_EXCEEDED, () -> s.await(1, 1_000_000));
      s.signal(1);
      expect(StatusCode.OUT_OF_RANGE, () -> s.signal(1));
      s.signal(2);
      assertTrue(fence.isReached());
      fence.await();
      s.fail(StatusCode.ABORTED, "stopped by the test");
      IreeRtException e = expect(StatusCode.ABORTED, () -> s.await(3));
      assertTrue(e.getMessage().contains("stopped by the test"), e.getMessage());
      expect(StatusCode.ABORTED, s::value);
    }
  }
}
