// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ireert.Context;
import dev.ireert.Device;
import dev.ireert.ElementType;
import dev.ireert.Fence;
import dev.ireert.Function;
import dev.ireert.Instance;
import dev.ireert.InstanceOptions;
import dev.ireert.IreeRtException;
import dev.ireert.Module;
import dev.ireert.NativeObject;
import dev.ireert.Semaphore;
import dev.ireert.StatusCode;
import dev.ireert.Tensor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** close() twice is harmless; use after close throws; a handle in use outlives close(). */
class LifecycleTest {
  @Test
  void closeTwiceAndUseAfterClose() {
    Instance instance = new Instance();
    Device device = instance.createDevice("local-sync");
    Module hal = Module.hal(instance, device);
    Module program = Module.load(instance, Fixture.testModule());
    Context context = new Context(instance, hal, program);
    Function fn = context.function("add_i32");
    Tensor t = Tensor.fromArray(device, new float[] {1, 2}, 2);
    Semaphore s = new Semaphore(device, 0);
    Fence fence = new Fence(s, 1);
    List<NativeObject> all = List.of(fence, s, t, fn, context, program, hal, device, instance);
    for (NativeObject o : all) {
      o.close();
      o.close();
      assertTrue(o.isClosed());
    }
    assertThrows(IllegalStateException.class, () -> fn.call(1, 2));
    assertThrows(IllegalStateException.class, () -> context.function("add_i32"));
    assertThrows(IllegalStateException.class, t::shape);
    assertThrows(IllegalStateException.class, t::toFloatArray);
    assertThrows(IllegalStateException.class, () -> s.signal(1));
    assertThrows(IllegalStateException.class, fence::await);
    assertThrows(IllegalStateException.class, program::name);
    assertThrows(IllegalStateException.class, () -> device.allocate(4));
    assertThrows(IllegalStateException.class, () -> instance.createDevice("local-sync"));
    // A closed object passed as an argument is caught the same way.
    try (Instance i2 = new Instance()) {
      assertThrows(IllegalStateException.class, () -> Module.hal(i2, device));
    }
  }

  @Test
  void objectsKeepWhatTheyNeedAlive() {
    Function fn;
    Tensor x;
    try (Instance instance = new Instance();
        Device device = instance.createDevice("local-task");
        Context context = instance.createContext(device, Fixture.testModule())) {
      fn = context.function("scale_add");
      x = Tensor.fromArray(device, new float[] {1, 2, 3, 4}, 4);
    }
    // Instance, device and context objects are closed; the function and tensor still work.
    try (Function f = fn; Tensor xx = x; Tensor out = (Tensor) f.call(xx, xx, 1.0f)[0]) {
      assertArrayEquals(new float[] {2, 4, 6, 8}, out.toFloatArray());
    }
  }

  @Test
  void traceFileIsWrittenOnFlushAndClose() throws Exception {
    java.nio.file.Path path = java.nio.file.Files.createTempFile("iree_rt_trace", ".json");
    try (InstanceOptions options = new InstanceOptions().setTracePath(path.toString());
        Instance instance = new Instance(options);
        Device device = instance.createDevice("local-task");
        Context context = instance.createContext(device, Fixture.testModule());
        Function fn = context.function("scale_add");
        Tensor x = Tensor.fromArray(device, new float[] {1, 2, 3, 4}, 4);
        Tensor out = (Tensor) fn.call(x, x, 1.0f)[0]) {
      assertArrayEquals(new float[] {2, 4, 6, 8}, out.toFloatArray());
      instance.flushTrace();
      String text = java.nio.file.Files.readString(path);
      assertTrue(text.startsWith("{\"traceEvents\":["), text);
      assertTrue(text.contains("scale_add"), text);
      assertTrue(text.contains("\"cat\":\"dispatch\""), text);
    }
    assertTrue(java.nio.file.Files.readString(path).endsWith("\"displayTimeUnit\":\"ns\"}\n"));
    java.nio.file.Files.delete(path);
  }

  @Test
  void importedBufferStaysReachable() {
    try (Fixture f = new Fixture(); Function fn = f.context.function("scale_add")) {
      Tensor x;
      {
        ByteBuffer b = Tensor.allocateDirect(16);
        b.asFloatBuffer().put(new float[] {1, 2, 3, 4});
        x = Tensor.fromBuffer(f.device, b, ElementType.FLOAT_32, 4);
      }
      for (int i = 0; i < 3; ++i) {
        System.gc();
        byte[][] churn = new byte[256][];
        for (int j = 0; j < churn.length; ++j) {
          churn[j] = new byte[16384];
        }
      }
      try (Tensor xx = x; Tensor out = (Tensor) fn.call(xx, xx, 2.0f)[0]) {
        assertArrayEquals(new float[] {3, 6, 9, 12}, out.toFloatArray());
      }
    }
  }

  @Test
  void closeWhileAnotherThreadUsesTheHandle() throws Exception {
    try (Instance instance = new Instance();
        Device device = instance.createDevice("local-task")) {
      for (int round = 0; round < 20; ++round) {
        Semaphore s = new Semaphore(device, 0);
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
          started.countDown();
          try {
            s.await(1, 20_000_000L);  // holds the handle for 20 ms
          } catch (Throwable t) {
            error.set(t);
          }
        });
        waiter.start();
        started.await();
        s.close();  // only marks it closed while the wait runs
        waiter.join();
        Throwable t = error.get();
        // The wait either timed out in native code (the handle was alive) or started after
        // close and was refused: never a crash.
        assertTrue(t instanceof IllegalStateException
            || (t instanceof IreeRtException
                && ((IreeRtException) t).statusCode() == StatusCode.DEADLINE_EXCEEDED), String.valueOf(t));
        assertThrows(IllegalStateException.class, s::value);
      }
    }
  }

  @Test
  void closeRacesWithCalls() throws Exception {
    try (Fixture f = new Fixture("local-sync")) {
      for (int round = 0; round < 50; ++round) {
        Function fn = f.context.function("add_i32");
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        for (int t = 0; t < 4; ++t) {
          Thread th = new Thread(() -> {
            for (int i = 0; i < 200; ++i) {
              try {
                assertEquals(i + 1, fn.call(i, 1)[0]);
              } catch (IllegalStateException closed) {
                return;
              } catch (Throwable other) {
                unexpected.set(other);
                return;
              }
            }
          });
          threads.add(th);
          th.start();
        }
        Thread.sleep(round % 3);
        fn.close();
        for (Thread th : threads) {
          th.join();
        }
        if (unexpected.get() != null) {
          throw new AssertionError(unexpected.get());
        }
      }
    }
  }
}
