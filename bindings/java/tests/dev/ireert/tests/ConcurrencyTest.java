// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ireert.Function;
import dev.ireert.Invocation;
import dev.ireert.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Many threads calling one function (and one context) at once. */
class ConcurrencyTest {
  @Test
  void manyThreadsShareOneFunction() throws Exception {
    final int threads = 8;
    final int calls = 500;
    try (Fixture f = new Fixture();
        Function add = f.context.function("add_i32");
        Function scale = f.context.function("scale_add")) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<Integer>> done = new ArrayList<>();
        for (int t = 0; t < threads; ++t) {
          final int id = t;
          done.add(pool.submit(() -> {
            int checked = 0;
            try (Invocation inv = add.invocation();
                Tensor x = Tensor.fromArray(f.device, new float[] {id, id, id, id}, 4)) {
              for (int i = 0; i < calls; ++i) {
                assertEquals(id * 1000 + i, add.call(id * 1000, i)[0]);
                inv.reset().arg(id).arg(i).invoke();
                assertEquals(id + i, inv.resultInt(0));
                if (i % 10 == 0) {
                  try (Tensor out = (Tensor) scale.call(x, x, (float) i)[0]) {
                    float v = id * i + id;
                    assertArrayEquals(new float[] {v, v, v, v}, out.toFloatArray());
                  }
                }
                ++checked;
              }
            }
            return checked;
          }));
        }
        for (Future<Integer> d : done) {
          assertEquals(calls, d.get());
        }
      } finally {
        pool.shutdown();
      }
    }
  }
}
