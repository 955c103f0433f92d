// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Per-call overhead of @add_i32 through the C# bindings under Mono (bench/bindings/run.sh): the
// same sequence as bench_c.c through a reusable Invocation, and, for reference, Function.Call
// with boxed arguments and fresh lists.
//
// usage: mono BindingsBench.exe <bindings_test_module.vmfb> [calls] [runs]
// prints: "C# ns/call <best> <median>" and "C#(Call) ns/call <best> <median>"
using System;
using System.Diagnostics;
using IreeRt;

public static class BindingsBench {
  public static int Main(string[] args) {
    long calls = args.Length > 1 ? long.Parse(args[1]) : 1000000;
    int runs = args.Length > 2 ? int.Parse(args[2]) : 7;
    using (var instance = new Instance())
    using (var device = instance.CreateDevice("local-sync"))
    using (var context = instance.CreateContext(device, args[0]))
    using (var fn = context.Function("add_i32"))
    using (var inv = fn.CreateInvocation()) {
      var invocation = new double[runs];
      var boxed = new double[runs];
      long checksum = 0;
      for (int run = -2; run < runs; ++run) {
        var watch = Stopwatch.StartNew();
        for (long i = 0; i < calls; ++i) {
          checksum += inv.Reset().Arg((int)i).Arg(3).Invoke().ResultInt(0);
        }
        double t1 = watch.Elapsed.TotalMilliseconds * 1e6;
        for (long i = 0; i < calls / 4; ++i) {
          checksum += (int)fn.Call((int)i, 3)[0];
        }
        double t2 = watch.Elapsed.TotalMilliseconds * 1e6;
        if (run >= 0) {
          invocation[run] = t1 / calls;
          boxed[run] = (t2 - t1) / (calls / 4);
        }
      }
      Array.Sort(invocation);
      Array.Sort(boxed);
      Console.WriteLine("C# ns/call {0:F1} {1:F1} (checksum {2})", invocation[0],
                        invocation[runs / 2], checksum);
      Console.WriteLine("C#(Call) ns/call {0:F1} {1:F1}", boxed[0], boxed[runs / 2]);
    }
    return 0;
  }
}
