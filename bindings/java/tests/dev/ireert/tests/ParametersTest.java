// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ireert.Context;
import dev.ireert.Device;
import dev.ireert.Function;
import dev.ireert.Instance;
import dev.ireert.IreeRtException;
import dev.ireert.Module;
import dev.ireert.ParameterMode;
import dev.ireert.Parameters;
import dev.ireert.StatusCode;
import dev.ireert.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parameter sets and the io_parameters module, on tests/unit/modules/programs/parameters.mlir:
 * main(x) = x * w + b and padded() read scope "model"; splat() and splat64() the unscoped scope.
 */
class ParametersTest {
  static final float[][] W = {{1, 2}, {3, 4}};
  static final float[] B = {0.5f, -0.5f};
  static final int[] PADDED = {1, 2, 3, 4};

  Instance instance;
  Device device;

  @BeforeEach
  void setUp() {
    instance = new Instance();
    device = instance.createDevice("local-sync");
  }

  @AfterEach
  void tearDown() {
    device.close();
    instance.close();
  }

  static byte[] floats(float... values) {
    ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.nativeOrder());
    for (float v : values) {
      b.putFloat(v);
    }
    return b.array();
  }

  static byte[] ints(int... values) {
    ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.nativeOrder());
    for (int v : values) {
      b.putInt(v);
    }
    return b.array();
  }

  static byte[] wBytes(float[][] w) {
    return floats(w[0][0], w[0][1], w[1][0], w[1][1]);
  }

  /** An aligned direct buffer holding |bytes|, which the runtime can use in place. */
  static ByteBuffer direct(byte[] bytes) {
    ByteBuffer b = Tensor.allocateDirect(bytes.length);
    b.put(bytes).flip();
    return b;
  }

  /** The model as a .safetensors file: an 8-byte header length, JSON, then the tensors. */
  static byte[] safetensors() {
    String json = "{\"w\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]},"
        + "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[16,24]},"
        + "\"padded\":{\"dtype\":\"I32\",\"shape\":[4],\"data_offsets\":[24,40]}}";
    json += " ".repeat((8 - json.length() % 8) % 8);
    byte[] header = json.getBytes(StandardCharsets.UTF_8);
    ByteBuffer file = ByteBuffer.allocate(8 + header.length + 40).order(ByteOrder.LITTLE_ENDIAN);
    file.putLong(header.length).put(header).put(wBytes(W)).put(floats(B)).put(ints(PADDED));
    return file.array();
  }

  /** The unscoped splats: 7.0f over 16 bytes, the 8-byte pattern -1 over 24. */
  Parameters splats() {
    ByteBuffer minusOne = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(-1);
    return Parameters.create(instance, null)
        .addSplat("splat", floats(7), 16)
        .addSplat("splat64", minusOne.array(), 24);
  }

  Context open(Parameters... sets) {
    try (Module hal = Module.hal(instance, device);
        Module params = Module.ioParameters(instance, sets);
        Module program = Module.load(instance, Fixture.parametersModule())) {
      return new Context(instance, hal, params, program);
    }
  }

  Tensor call(Context context, String name, Tensor input) {
    try (Function f = context.function(name); Tensor in = input) {
      return (Tensor) f.call(in)[0];
    }
  }

  float[] main(Context context, float[] x) {
    try (Tensor out = call(context, "main", Tensor.fromArray(device, x, 1, 2))) {
      return out.toFloatArray();
    }
  }

  static float[] affine(float[] x, float[][] w, float[] b) {
    return new float[] {x[0] * w[0][0] + x[1] * w[1][0] + b[0], x[0] * w[0][1] + x[1] * w[1][1] + b[1]};
  }

  void expectModelAndSplats(Context context) {
    float[] x = {2, -1};
    assertArrayEquals(affine(x, W, B), main(context, x));
    try (Tensor out = call(context, "padded", Tensor.fromArray(device, new int[4], 4))) {
      assertArrayEquals(PADDED, out.toIntArray());
    }
    try (Tensor out = call(context, "splat", Tensor.fromArray(device, new float[4], 4))) {
      assertArrayEquals(new float[] {7, 7, 7, 7}, out.toFloatArray());
    }
    try (Tensor out = call(context, "splat64", Tensor.fromArray(device, new long[3], 3))) {
      assertArrayEquals(new long[] {-1, -1, -1}, out.toLongArray());
    }
  }

  static IreeRtException expect(StatusCode code, String message, Runnable r) {
    IreeRtException e = assertThrows(IreeRtException.class, r::run);
    assertEquals(code, e.statusCode(), e.getMessage());
    assertTrue(e.getMessage().contains(message), e.getMessage());
    return e;
  }

  @Test
  void fromCopiedArrays() {
    try (Parameters model = Parameters.create(instance, "model")
            .addMemory("w", wBytes(W))
            .addMemory("b", floats(B))
            .addMemory("padded", ints(PADDED));
        Parameters unscoped = splats();
        Context context = open(model, unscoped)) {
      assertEquals("model", model.scope());
      assertEquals("", unscoped.scope());
      assertEquals(Map.of("w", 16L, "b", 8L, "padded", 16L), model.entries());
      assertEquals(List.of("w", "b", "padded"), List.copyOf(model.entries().keySet()));
      expectModelAndSplats(context);
    }
  }

  /** Adds direct buffers nobody else references: the runtime keeps them reachable. */
  static void addUnreferenced(Parameters model) {
    model.addMemory("b", direct(floats(B))).addMemory("padded", direct(ints(PADDED)));
  }

  @Test
  void fromDirectBuffersInPlace() {
    ByteBuffer w = direct(wBytes(W));
    try (Parameters model = Parameters.create(instance, "model").addMemory("w", w);
        Parameters unscoped = splats()) {
      addUnreferenced(model);
      System.gc();
      try (Context context = open(model, unscoped)) {
        expectModelAndSplats(context);
        // A CPU device reads aligned caller memory in place: the program sees the change.
        float[][] changed = {{1, 2}, {3, 14}};
        w.duplicate().put(wBytes(changed));
        float[] x = {1, 1};
        assertArrayEquals(affine(x, changed, B), main(context, x));
      }
    }
  }

  @Test
  void fromFilesInEveryMode(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("model.safetensors");
    Files.write(file, safetensors());
    for (ParameterMode mode : ParameterMode.values()) {
      try (Parameters model = Parameters.create(instance, "model").addFile(file.toString(), mode);
          Parameters unscoped = splats();
          Context context = open(model, unscoped)) {
        assertEquals(Map.of("w", 16L, "b", 8L, "padded", 16L), model.entries());
        expectModelAndSplats(context);
      }
    }
  }

  @Test
  void fromArchivesInMemory() {
    for (boolean copied : new boolean[] {true, false}) {
      Parameters model = Parameters.create(instance, "model");
      if (copied) {
        model.addArchive("safetensors", safetensors());
      } else {
        model.addArchive("safetensors", direct(safetensors()));
      }
      try (model;
          Parameters unscoped = splats();
          Context context = open(model, unscoped)) {
        expectModelAndSplats(context);
      }
    }
  }

  @Test
  void errors() {
    try (Parameters model = Parameters.create(instance, "model").addMemory("w", wBytes(W));
        Parameters other = Parameters.create(instance, "model")) {
      expect(StatusCode.ALREADY_EXISTS, "parameter 'w' of scope 'model' is in both",
          () -> model.addMemory("w", direct(wBytes(W))));
      expect(StatusCode.INVALID_ARGUMENT, "unknown parameter archive format 'zip'",
          () -> model.addArchive("zip", safetensors()));
      expect(StatusCode.INVALID_ARGUMENT, "splat pattern length 3",
          () -> model.addSplat("s", new byte[3], 9));
      assertThrows(IllegalArgumentException.class,
          () -> model.addMemory("h", ByteBuffer.wrap(new byte[4])));  // not direct
      expect(StatusCode.INVALID_ARGUMENT, "two parameter providers for scope 'model'",
          () -> Module.ioParameters(instance, model, other).close());
      // The program needs "b", which the set lacks: its initializer fails, naming it.
      expect(StatusCode.NOT_FOUND, "no parameter 'b' in scope 'model'", () -> {
        try (Parameters unscoped = splats()) {
          open(model, unscoped).close();
        }
      });
      // The set is frozen once a module has it.
      expect(StatusCode.FAILED_PRECONDITION, "can no longer change",
          () -> model.addMemory("b", floats(B)));
    }
    Parameters closed = Parameters.create(instance, "model");
    closed.close();
    assertThrows(IllegalStateException.class, closed::entries);
  }
}
