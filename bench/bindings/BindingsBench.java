// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Per-call overhead of @add_i32 through the Java bindings (bench/bindings/run.sh): the same
// sequence as bench_c.c through a reusable Invocation, and, for reference, Function.call with
// boxed arguments and fresh lists.
//
// usage: java -cp iree_rt.jar:. BindingsBench <bindings_test_module.vmfb> [calls] [runs]
// prints: "Java ns/call <best> <median>" and "Java(call) ns/call <best> <median>"
import dev.ireert.Context;
import dev.ireert.Device;
import dev.ireert.Function;
import dev.ireert.Instance;
import dev.ireert.Invocation;
import java.util.Arrays;

public final class BindingsBench {
  public static void main(String[] args) {
    long calls = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 7;
    try (Instance instance = new Instance();
        Device device = instance.createDevice("local-sync");
        Context context = instance.createContext(device, args[0]);
        Function fn = context.function("add_i32");
        Invocation inv = fn.invocation()) {
      double[] invocation = new double[runs];
      double[] boxed = new double[runs];
      long checksum = 0;
      for (int run = -3; run < runs; ++run) {  // negative runs warm up the JIT
        long t0 = System.nanoTime();
        for (long i = 0; i < calls; ++i) {
          checksum += inv.reset().arg((int) i).arg(3).invoke().resultInt(0);
        }
        long t1 = System.nanoTime();
        for (long i = 0; i < calls / 4; ++i) {
          checksum += (Integer) fn.call((int) i, 3)[0];
        }
        long t2 = System.nanoTime();
        if (run >= 0) {
          invocation[run] = (double) (t1 - t0) / calls;
          boxed[run] = (double) (t2 - t1) / (calls / 4);
        }
      }
      Arrays.sort(invocation);
      Arrays.sort(boxed);
      System.out.printf("Java ns/call %.1f %.1f (checksum %d)%n", invocation[0],
          invocation[runs / 2], checksum);
      System.out.printf("Java(call) ns/call %.1f %.1f%n", boxed[0], boxed[runs / 2]);
    }
  }
}
