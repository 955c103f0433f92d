// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The main job from Java: loads the sample model (samples/models/mlp.mlir, compiled to a .vmfb by
// the build), runs it on a device through the dev.ireert bindings and prints the result as
// iree-run-module does.
//
// usage: java -cp iree_rt.jar:. ModelSample <mlp.vmfb> [--device=local-task|local-sync|cuda]
import dev.ireert.Context;
import dev.ireert.Device;
import dev.ireert.Function;
import dev.ireert.Instance;
import dev.ireert.NativeLibrary;
import dev.ireert.Tensor;
import java.math.BigDecimal;
import java.math.MathContext;

public final class ModelSample {
  public static void main(String[] args) {
    if (args.length < 1) {
      System.err.println("usage: ModelSample <mlp.vmfb> [--device=URI]");
      System.exit(2);
    }
    String uri = "local-task";
    for (String a : args) {
      if (a.startsWith("--device=")) {
        uri = a.substring("--device=".length());
      }
    }
    float[] x = {1, 2, 3, 4, -1, 0.5f, 0, 2};
    try (Instance instance = new Instance();
        Device device = instance.createDevice(uri);
        Context context = instance.createContext(device, args[0]);
        Function mlp = context.function("mlp");
        Tensor input = Tensor.fromArray(device, x, 2, 4)) {
      Object[] results = mlp.call(input);
      try (Tensor output = (Tensor) results[0]) {
        long[] shape = output.shape();
        float[] y = output.toFloatArray();
        StringBuilder s = new StringBuilder();
        s.append(shape[0]).append('x').append(shape[1]).append("xf32=");
        for (int b = 0; b < shape[0]; ++b) {
          s.append('[');
          for (int k = 0; k < shape[1]; ++k) {
            s.append(k == 0 ? "" : " ").append(format(y[(int) (b * shape[1] + k)]));
          }
          s.append(']');
        }
        System.out.println("EXEC @mlp on " + device.id());
        System.out.println("result[0]: hal.buffer_view");
        System.out.println(s);
        System.err.println("native libraries from " + NativeLibrary.loadedFrom());
      }
    }
  }

  // Six significant digits without trailing zeros, as C's %g prints these values ("3", "-0.05").
  private static String format(float v) {
    String s = new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    return s.equals("-0") ? "0" : s;
  }
}
