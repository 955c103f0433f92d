// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ireert.Context;
import dev.ireert.Fence;
import dev.ireert.Function;
import dev.ireert.IreeRtException;
import dev.ireert.Semaphore;
import dev.ireert.StatusCode;
import dev.ireert.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Async calls (programs compiled with --iree-execution-model=async-external) as
 * CompletableFutures completed through iree_rt_fence_notify, and Fence.onReached.
 */
class AsyncTest {
  static Fixture f;
  static Context context;
  static Function negate;

  @BeforeAll
  static void setUp() {
    f = new Fixture();
    context = f.instance.createContext(f.device, Fixture.asyncModule());
    negate = context.function("negate");
  }

  @AfterAll
  static void tearDown() {
    negate.close();
    context.close();
    f.close();
  }

  @Test
  void fenceFutureCompletesWhenReachedOrFailed() throws Exception {
    try (Semaphore s = new Semaphore(f.device, 0);
        Fence fence = new Fence(s, 2);
        Fence empty = new Fence()) {
      assertTrue(empty.onReached().get(10, TimeUnit.SECONDS) == null);
      CompletableFuture<Void> reached = fence.onReached();
      s.signal(1);
      Thread.sleep(20);
      assertFalse(reached.isDone());
      s.signal(2);
      reached.get(10, TimeUnit.SECONDS);
      // Already reached when asked: completes all the same.
      fence.onReached().get(10, TimeUnit.SECONDS);
    }
    try (Semaphore s = new Semaphore(f.device, 0); Fence fence = new Fence(s, 1)) {
      CompletableFuture<Void> failed = fence.onReached();
      s.fail(StatusCode.DATA_LOSS, "disk on fire");
      ExecutionException e = assertThrows(ExecutionException.class,
          () -> failed.get(10, TimeUnit.SECONDS));
      IreeRtException cause = assertInstanceOf(IreeRtException.class, e.getCause());
      assertEquals(StatusCode.DATA_LOSS, cause.statusCode());
      assertTrue(cause.getMessage().contains("disk on fire"), cause.getMessage());
    }
  }

  @Test
  void oneCall() throws Exception {
    try (Tensor x = Tensor.fromArray(f.device, new float[] {1, 2, 3, 4}, 4)) {
      Object[] results = negate.callAsync(f.device, x).get(30, TimeUnit.SECONDS);
      try (Tensor y = (Tensor) results[0]) {
        assertArrayEquals(new float[] {-1, -2, -3, -4}, y.toFloatArray());
      }
    }
  }

  @Test
  void thousandCallsInFlight() throws Exception {
    // Every call waits on one gate: all 1,000 are queued (none can finish) before it opens, and
    // no Java thread waits for any of them.
    final int calls = 1000;
    List<CompletableFuture<Object[]>> futures = new ArrayList<>();
    List<Tensor> inputs = new ArrayList<>();
    int threadsBefore = Thread.activeCount();
    try (Semaphore gate = new Semaphore(f.device, 0); Fence open = new Fence(gate, 1)) {
      for (int i = 0; i < calls; ++i) {
        Tensor x = Tensor.fromArray(f.device, new float[] {i + 1, i + 2, i + 3, i + 4}, 4);
        inputs.add(x);
        futures.add(negate.callAsync(f.device, open, x));
      }
      Thread.sleep(50);
      for (CompletableFuture<Object[]> future : futures) {
        assertFalse(future.isDone(), "completed before its wait fence was reached");
      }
      // No Java thread per call in flight (a few for the pool may come and go).
      assertTrue(Thread.activeCount() < threadsBefore + 64, "threads: " + Thread.activeCount());
      gate.signal(1);
      CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
    }
    for (int i = 0; i < calls; ++i) {
      try (Tensor y = (Tensor) futures.get(i).get()[0]) {
        assertArrayEquals(new float[] {-(i + 1), -(i + 2), -(i + 3), -(i + 4)}, y.toFloatArray(),
            "call " + i);
      }
      inputs.get(i).close();
    }
  }

  @Test
  void failureReachesTheFutureAsIreeRtException() throws Exception {
    List<CompletableFuture<Object[]>> futures = new ArrayList<>();
    try (Semaphore gate = new Semaphore(f.device, 0);
        Fence open = new Fence(gate, 1);
        Tensor x = Tensor.fromArray(f.device, new float[] {1, 2, 3, 4}, 4)) {
      for (int i = 0; i < 10; ++i) {
        futures.add(negate.callAsync(f.device, open, x));
      }
      gate.fail(StatusCode.ABORTED, "upstream gave up");
      for (CompletableFuture<Object[]> future : futures) {
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> future.get(30, TimeUnit.SECONDS));
        IreeRtException cause = assertInstanceOf(IreeRtException.class, e.getCause());
        assertEquals(StatusCode.ABORTED, cause.statusCode(), cause.getMessage());
        assertTrue(cause.getMessage().contains("upstream gave up"), cause.getMessage());
      }
    }
  }

  @Test
  void errorsOfTheCallItselfArriveThroughTheFuture() {
    // Missing the tensor argument: the call fails at once, as a failed future.
    CompletableFuture<Object[]> future = negate.callAsync(f.device);
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> future.get(10, TimeUnit.SECONDS));
    assertInstanceOf(IreeRtException.class, e.getCause());
  }
}
