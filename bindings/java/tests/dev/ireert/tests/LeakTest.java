// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ireert.Context;
import dev.ireert.Device;
import dev.ireert.Fence;
import dev.ireert.Function;
import dev.ireert.Instance;
import dev.ireert.Module;
import dev.ireert.NativeLibrary;
import dev.ireert.Semaphore;
import dev.ireert.Tensor;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * 10,000 create/close cycles leak nothing. The cycles run in 10 rounds of 1,000; after each round
 * (after a GC, so that cleaners have run) the test reads:
 *
 * <ul>
 *   <li>the C heap's bytes in use (glibc mallinfo2, the whole process). The median round must
 *       grow it by less than 8 KiB, 8 bytes a cycle: anything a cycle creates natively (a
 *       context, function, tensor, buffer, semaphore, fence, value list, a global reference to
 *       a ByteBuffer) is larger, and a leak grows every round. The median ignores the JVM's own
 *       occasional allocations; ctest runs this JVM with the serial GC and C1 only, which keep
 *       them rare (C2's arenas would swing the heap by megabytes);
 *   <li>the device allocator's live bytes: must return exactly to their starting value;
 *   <li>the resident set size (the JVM heap is fixed and pre-touched by the JVM flags):
 *       reported, and bounded loosely (16 MiB), as the allocator may keep freed pages.
 * </ul>
 *
 * Checked against an injected leak (the JNI glue not dropping a ByteBuffer's global
 * reference): every round then grows by about 110 KiB and the test fails.
 */
class LeakTest {
  static final int CYCLES = 10_000;

  static long rssBytes() throws Exception {
    for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    throw new IllegalStateException("no VmRSS");
  }

  /** GC until the C heap stops shrinking (direct buffers are freed by a JDK cleaner thread). */
  static long settledHeap() throws Exception {
    long last = Long.MAX_VALUE;
    for (int i = 0; i < 20; ++i) {
      System.gc();
      Thread.sleep(20);
      long now = NativeLibrary.nativeHeapInUse();
      if (now >= last) {
        return now;
      }
      last = now;
    }
    return last;
  }

  private static void cycle(Instance instance, Device device, Module hal, Module program, int i) {
    try (Context context = new Context(instance, hal, program);
        Function fn = context.function("scale_add");
        Tensor x = Tensor.fromArray(device, new float[] {i, 1, 2, 3}, 4);
        Tensor out = (Tensor) fn.call(x, x, 1.0f)[0];
        Semaphore s = new Semaphore(device, 0);
        Fence fence = new Fence(s, 1)) {
      if (out.toFloatArray()[0] != 2f * i) {
        throw new AssertionError("wrong result in cycle " + i);
      }
      s.signal(1);
      fence.await();
    }
  }

  @Test
  void tenThousandCycles() throws Exception {
    try (Instance instance = new Instance();
        Device device = instance.createDevice("local-sync");
        Module hal = Module.hal(instance, device);
        Module program = Module.load(instance, Fixture.testModule())) {
      for (int i = 0; i < 1000; ++i) {  // warm-up: JIT, allocator pools, code cache
        cycle(instance, device, hal, program, i);
      }
      long heapBefore = settledHeap();
      long bytesBefore = device.memoryStatistic(Device.MemoryStatistic.BYTES_ALLOCATED);
      long rssBefore = rssBytes();
      long t0 = System.nanoTime();
      long heap = heapBefore;
      long[] deltas = new long[10];
      StringBuilder rounds = new StringBuilder();
      for (int round = 0; round < deltas.length; ++round) {
        for (int i = 0; i < CYCLES / deltas.length; ++i) {
          cycle(instance, device, hal, program, i);
        }
        long now = settledHeap();
        deltas[round] = now - heap;
        rounds.append(String.format(" %+d", now - heap));
        heap = now;
      }
      java.util.Arrays.sort(deltas);
      long medianRound = deltas[deltas.length / 2];
      long micros = (System.nanoTime() - t0) / 1000;
      long bytesAfter = device.memoryStatistic(Device.MemoryStatistic.BYTES_ALLOCATED);
      long rssAfter = rssBytes();
      System.out.printf("leak check (Java): %d cycles in %d ms; C heap in use %d -> %d bytes"
              + " (per 1,000-cycle round:%s); device bytes %d -> %d; RSS %+d KiB%n",
          CYCLES, micros / 1000, heapBefore, heap, rounds, bytesBefore, bytesAfter,
          (rssAfter - rssBefore) / 1024);
      assertTrue(heapBefore >= 0, "mallinfo2 unavailable");
      assertTrue(medianRound < 8 << 10, "the C heap grew by " + medianRound
          + " bytes in the median round:" + rounds);
      assertEquals(bytesBefore, bytesAfter, "device bytes allocated");
      assertTrue(rssAfter - rssBefore < 16L << 20, "RSS grew by " + (rssAfter - rssBefore));
    }
  }

  @Test
  void instancesAndDevicesToo() throws Exception {
    for (int i = 0; i < 200; ++i) {
      try (Instance instance = new Instance(); Device device = instance.createDevice("local-sync")) {
        device.id();
      }
    }
    long heapBefore = settledHeap();
    long rssBefore = rssBytes();
    for (int i = 0; i < 2000; ++i) {
      try (Instance instance = new Instance(); Device device = instance.createDevice("local-sync")) {
        device.id();
      }
    }
    long heapAfter = settledHeap();
    long rssAfter = rssBytes();
    System.out.printf("leak check (Java): 2000 instance+device cycles; C heap %+d bytes; RSS %+d KiB%n",
        heapAfter - heapBefore, (rssAfter - rssBefore) / 1024);
    assertTrue(rssAfter - rssBefore < 16L << 20, "RSS grew by " + (rssAfter - rssBefore));
  }
}
