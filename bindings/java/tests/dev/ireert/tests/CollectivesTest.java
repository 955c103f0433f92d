// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireert.Context;
import dev.ireert.Device;
import dev.ireert.DeviceOptions;
import dev.ireert.Function;
import dev.ireert.Instance;
import dev.ireert.IreeRtException;
import dev.ireert.StatusCode;
import dev.ireert.Tensor;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Rank and count from the caller: two threads, each a rank with its own device (DeviceOptions
 * rank, ranks, rendezvous) and context, run bindings/tests/all_reduce.mlir together.
 */
class CollectivesTest {
  static float[] rankInput(int rank) {
    return new float[] {rank + 1, 2 * (rank + 1), 3 * (rank + 1), 4 * (rank + 1)};
  }

  static float[] runRank(Instance instance, int rank, String rendezvous) {
    DeviceOptions options = new DeviceOptions()
        .set("rank", Integer.toString(rank))
        .set("ranks", "2")
        .set("rendezvous", rendezvous);
    try (options;
        Device device = new Device(instance, "local-task", options);
        Context context = instance.createContext(device, Fixture.allReduceModule());
        Function f = context.function("all_reduce");
        Tensor in = Tensor.fromArray(device, rankInput(rank), 4);
        Tensor out = (Tensor) f.call(in)[0]) {
      return out.toFloatArray();
    }
  }

  @Test
  void twoRanksAsThreadsSumTheirInputs() throws Exception {
    try (Instance instance = new Instance()) {
      CompletableFuture<float[]> rank1 =
          CompletableFuture.supplyAsync(() -> runRank(instance, 1, "local:java-sum"));
      float[] rank0 = runRank(instance, 0, "local:java-sum");
      float[] expected = {3, 6, 9, 12};
      assertArrayEquals(expected, rank0);
      assertArrayEquals(expected, rank1.get());
    }
  }

  @Test
  void noRankGivenFailsInsteadOfRunningAlone() {
    try (Instance instance = new Instance();
        Device device = instance.createDevice("local-task");
        Context context = instance.createContext(device, Fixture.allReduceModule());
        Function f = context.function("all_reduce");
        Tensor in = Tensor.fromArray(device, rankInput(0), 4)) {
      IreeRtException e = assertThrows(IreeRtException.class, () -> f.call(in));
      assertEquals(StatusCode.FAILED_PRECONDITION, e.statusCode());
    }
  }
}
