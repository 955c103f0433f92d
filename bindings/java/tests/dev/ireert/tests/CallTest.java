// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ireert.ElementType;
import dev.ireert.Function;
import dev.ireert.Instance;
import dev.ireert.Invocation;
import dev.ireert.IreeRtException;
import dev.ireert.Module;
import dev.ireert.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Loading a compiled module and calling its functions with scalars and tensors. */
class CallTest {
  static Fixture f;

  @BeforeAll
  static void setUp() {
    f = new Fixture();
  }

  @AfterAll
  static void tearDown() {
    f.close();
  }

  @Test
  void versionAndDrivers() {
    assertTrue(Instance.version().contains("ABI 1."), Instance.version());
    // The jar's manifest carries the library's package version (both generated from CMake's).
    assertEquals(Instance.version().split(" ")[0],
                 Instance.class.getPackage().getImplementationVersion(), "Implementation-Version");
    assertTrue(f.instance.driverNames().contains("local-task"));
    assertTrue(f.instance.devices(null).stream().anyMatch(d -> d.uri().startsWith("local-")));
    assertEquals("local-task", f.device.id());
  }

  @Test
  void moduleReflection() {
    try (Module m = f.instance.loadModule(Fixture.testModule())) {
      assertTrue(m.functionNames().contains("add_i32"), m.functionNames().toString());
      assertEquals("0ii_i", m.signature("add_i32"));
      assertEquals("0rrf_r", m.signature("scale_add"));
    }
    try (Function fn = f.context.function("add_i32")) {
      assertEquals("add_i32", fn.name());
      assertEquals("0ii_i", fn.signature());
    }
  }

  @Test
  void scalars() {
    try (Function add = f.context.function("add_i32");
        Function mul = f.context.function("mul_f32")) {
      assertArrayEquals(new Object[] {42}, add.call(2, 40));
      assertArrayEquals(new Object[] {-7}, add.call(Integer.MAX_VALUE, -Integer.MAX_VALUE - 7));
      assertArrayEquals(new Object[] {6.0f}, mul.call(1.5f, 4.0f));
    }
  }

  @Test
  void tensorsFromArrays() {
    try (Function fn = f.context.function("scale_add");
        Tensor x = Tensor.fromArray(f.device, new float[] {1, 2, 3, 4}, 4);
        Tensor y = Tensor.fromArray(f.device, new float[] {1, 1, 1, 1}, 4)) {
      Object[] r = fn.call(x, y, 2.0f);
      assertEquals(1, r.length);
      try (Tensor out = (Tensor) r[0]) {
        assertArrayEquals(new long[] {4}, out.shape());
        assertEquals(ElementType.FLOAT_32, out.elementType());
        assertEquals(16, out.byteLength());
        assertArrayEquals(new float[] {3, 5, 7, 9}, out.toFloatArray());
      }
    }
  }

  @Test
  void directBuffersAreNotCopied() {
    ByteBuffer xb = Tensor.allocateDirect(16);
    ByteBuffer yb = Tensor.allocateDirect(16);
    xb.asFloatBuffer().put(new float[] {1, 2, 3, 4});
    yb.asFloatBuffer().put(new float[] {0, 0, 0, 0});
    try (Function fn = f.context.function("scale_add");
        Tensor x = Tensor.fromBuffer(f.device, xb, ElementType.FLOAT_32, 4);
        Tensor y = Tensor.fromBuffer(f.device, yb, ElementType.FLOAT_32, 4)) {
      // Changing the ByteBuffer after the tensor exists changes what the program reads.
      xb.asFloatBuffer().put(0, 10f);
      try (Tensor out = (Tensor) fn.call(x, y, 1.0f)[0]) {
        ByteBuffer target = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
        target.position(8);
        out.read(target);
        assertEquals(24, target.position());
        assertEquals(10f, target.getFloat(8));
        assertEquals(4f, target.getFloat(20));
      }
      // Writes through the tensor's buffer land in the caller's memory.
      ByteBuffer seven = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder());
      seven.putFloat(0, 7f);
      x.buffer().write(4, seven);
      assertEquals(7f, xb.getFloat(4));
    }
  }

  @Test
  void unalignedBuffersAreCopied() {
    ByteBuffer b = Tensor.allocateDirect(64);
    b.position(4);
    b.asFloatBuffer().put(new float[] {1, 2, 3, 4});
    try (Function fn = f.context.function("scale_add");
        Tensor x = Tensor.fromBuffer(f.device, b, ElementType.FLOAT_32, 4)) {
      b.putFloat(4, 100f);  // a copy was made: no effect
      try (Tensor out = (Tensor) fn.call(x, x, 1.0f)[0]) {
        assertArrayEquals(new float[] {2, 4, 6, 8}, out.toFloatArray());
      }
    }
  }

  @Test
  void dynamicShapesAndTwoResults() {
    try (Function fn = f.context.function("add_scalar_i32");
        Tensor x = Tensor.fromArray(f.device, new int[] {1, 2, 3}, 3)) {
      Object[] r = fn.call(x, 5);
      assertEquals(2, r.length);
      try (Tensor out = (Tensor) r[0]) {
        assertArrayEquals(new int[] {6, 7, 8}, out.toIntArray());
      }
      assertEquals(3L, r[1]);
    }
  }

  @Test
  void invocationReusesLists() {
    try (Function fn = f.context.function("add_i32");
        Invocation inv = fn.invocation()) {
      for (int i = 0; i < 1000; ++i) {
        inv.reset().arg(i).arg(3 * i).invoke();
        assertEquals(1, inv.resultCount());
        assertEquals(4 * i, inv.resultInt(0));
      }
    }
  }

  @Test
  void invocationFloatsAndTensors() {
    try (Function mul = f.context.function("mul_f32");
        Function scale = f.context.function("scale_add");
        Function dyn = f.context.function("add_scalar_i32");
        Invocation m = mul.invocation();
        Invocation s = scale.invocation();
        Invocation d = dyn.invocation();
        Tensor x = Tensor.fromArray(f.device, new float[] {1, 2, 3, 4}, 4);
        Tensor xi = Tensor.fromArray(f.device, new int[] {1, 2, 3}, 3)) {
      assertEquals(-7.5f, m.reset().arg(2.5f).arg(-3f).invoke().resultFloat(0));
      assertEquals(-7.5, m.resultDouble(0), 1e-9);  // f32 read as f64
      for (int i = 0; i < 3; ++i) {  // the list path, then back to the scalar path
        try (Tensor out = s.reset().arg(x).arg(x).arg(0.5f).invoke().resultTensor(0)) {
          assertArrayEquals(new float[] {1.5f, 3, 4.5f, 6}, out.toFloatArray());
        }
        assertEquals(12f, m.reset().arg(3f).arg(4f).invoke().resultFloat(0));
      }
      d.reset().arg(xi).arg(10).invoke();
      assertEquals(2, d.resultCount());
      assertEquals(3L, d.resultLong(1));
      try (Tensor out = d.resultTensor(0)) {
        assertArrayEquals(new int[] {11, 12, 13}, out.toIntArray());
      }
      assertThrows(IreeRtException.class, () -> m.reset().arg(1).invoke());
    }
    Invocation closed = f.context.function("add_i32").invocation();
    closed.close();
    closed.close();
    assertThrows(IllegalStateException.class, closed::reset);
  }

  @Test
  void sampleModel() {
    try (Module hal = Module.hal(f.instance, f.device);
        Module mlp = Module.load(f.instance, Fixture.mlpModule());
        dev.ireert.Context ctx = new dev.ireert.Context(f.instance, hal, mlp);
        Function fn = ctx.function("mlp");
        Tensor x = Tensor.fromArray(f.device, new float[] {1, 2, 3, 4, -1, 0.5f, 0, 2}, 2, 4);
        Tensor y = (Tensor) fn.call(x)[0]) {
      assertArrayEquals(new long[] {2, 3}, y.shape());
      assertArrayEquals(new float[] {3f, -4.15f, -0.05f, 0.4375f, -0.15f, -0.1125f},
          y.toFloatArray(), 1e-5f);
    }
  }

  @Test
  void localSyncDevice() {
    try (Fixture sync = new Fixture("local-sync");
        Function fn = sync.context.function("add_i32")) {
      assertArrayEquals(new Object[] {5}, fn.call(2, 3));
    }
  }
}
