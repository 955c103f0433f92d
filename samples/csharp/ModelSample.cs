// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The main job from C#: loads the sample model (samples/models/mlp.mlir, compiled to a .vmfb by
// the build), runs it on a device through the IreeRt bindings and prints the result as
// iree-run-module does.
//
// usage: mono ModelSample.exe <mlp.vmfb> [--device=local-task|local-sync|cuda]
using System;
using System.Globalization;
using System.Text;
using IreeRt;

public static class ModelSample {
  public static int Main(string[] args) {
    if (args.Length < 1) {
      Console.Error.WriteLine("usage: ModelSample.exe <mlp.vmfb> [--device=URI]");
      return 2;
    }
    string uri = "local-task";
    foreach (var a in args) {
      if (a.StartsWith("--device=")) uri = a.Substring("--device=".Length);
    }
    // The input is pinned and handed to the device without a copy.
    var x = new float[] { 1, 2, 3, 4, -1, 0.5f, 0, 2 };
    using (var instance = new Instance())
    using (var device = instance.CreateDevice(uri))
    using (var context = instance.CreateContext(device, args[0]))
    using (var mlp = context.Function("mlp"))
    using (var input = Tensor.FromArray(device, x, 2, 4))
    using (var output = (Tensor)mlp.Call(input)[0]) {
      long[] shape = output.Shape;
      float[] y = output.ToArray<float>();
      var s = new StringBuilder();
      s.AppendFormat("{0}x{1}xf32=", shape[0], shape[1]);
      for (int b = 0; b < shape[0]; ++b) {
        s.Append('[');
        for (int k = 0; k < shape[1]; ++k) {
          if (k > 0) s.Append(' ');
          // Six significant digits without trailing zeros, as C's %g.
          s.Append(((double)y[b * shape[1] + k]).ToString("G6", CultureInfo.InvariantCulture));
        }
        s.Append(']');
      }
      Console.WriteLine("EXEC @mlp on " + device.Id);
      Console.WriteLine("result[0]: hal.buffer_view");
      Console.WriteLine(s);
    }
    return 0;
  }
}
