// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.IO;
using System.Linq;
using System.Text;

namespace IreeRt.Tests {

/// <summary>
/// Parameter sets and the io_parameters module, on tests/unit/modules/programs/parameters.mlir:
/// main(x) = x * w + b and padded() read scope "model"; splat() and splat64() the unscoped
/// scope.
/// </summary>
[TestFixture]
public class ParametersTests : IDisposable {
  static readonly float[] W = { 1, 2, 3, 4 };  // 2x2, row-major
  static readonly float[] B = { 0.5f, -0.5f };
  static readonly int[] Padded = { 1, 2, 3, 4 };

  readonly Instance instance = new Instance();
  readonly Device device;

  public ParametersTests() { device = instance.CreateDevice("local-sync"); }

  public void Dispose() {
    device.Dispose();
    instance.Dispose();
  }

  static byte[] Bytes<T>(params T[] values) where T : struct {
    var bytes = new byte[System.Buffer.ByteLength(values)];
    System.Buffer.BlockCopy(values, 0, bytes, 0, bytes.Length);
    return bytes;
  }

  /// <summary>The model as a .safetensors file: header length, JSON, then the tensors.</summary>
  static byte[] Safetensors() {
    string json = "{\"w\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]}," +
                  "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[16,24]}," +
                  "\"padded\":{\"dtype\":\"I32\",\"shape\":[4],\"data_offsets\":[24,40]}}";
    json += new string(' ', (8 - json.Length % 8) % 8);
    var header = Encoding.UTF8.GetBytes(json);
    var file = new MemoryStream();
    file.Write(BitConverter.GetBytes((long)header.Length), 0, 8);
    file.Write(header, 0, header.Length);
    foreach (var part in new[] { Bytes(W), Bytes(B), Bytes(Padded) }) file.Write(part, 0, part.Length);
    return file.ToArray();
  }

  /// <summary>The unscoped splats: 7.0f over 16 bytes, the 8-byte pattern -1 over 24.</summary>
  Parameters Splats() {
    return Parameters.Create(instance, null)
        .AddSplat("splat", Bytes(7.0f), 16)
        .AddSplat("splat64", Bytes(-1L), 24);
  }

  Context Open(params Parameters[] sets) {
    using (var hal = Module.Hal(instance, device))
    using (var parameters = Module.IoParameters(instance, sets))
    using (var program = Module.Load(instance, Paths.Parameters)) {
      return new Context(instance, hal, parameters, program);
    }
  }

  T[] Call<T>(Context context, string name, T[] input, params long[] shape) where T : struct {
    using (var f = context.Function(name))
    using (var x = Tensor.FromArray(device, input, shape))
    using (var result = (Tensor)f.Call(x)[0]) {
      return result.ToArray<T>();
    }
  }

  static float[] Affine(float[] x, float[] w, float[] b) {
    return new[] { x[0] * w[0] + x[1] * w[2] + b[0], x[0] * w[1] + x[1] * w[3] + b[1] };
  }

  void ExpectModelAndSplats(Context context) {
    var x = new float[] { 2, -1 };
    Assert.Sequence(Affine(x, W, B), Call(context, "main", x, 1, 2), "main");
    Assert.Sequence(Padded, Call(context, "padded", new int[4], 4), "padded");
    Assert.Sequence(new float[] { 7, 7, 7, 7 }, Call(context, "splat", new float[4], 4), "splat");
    Assert.Sequence(new long[] { -1, -1, -1 }, Call(context, "splat64", new long[3], 3), "splat64");
  }

  [Test]
  public void FromCopiedArrays() {
    using (var model = Parameters.Create(instance, "model")
               .AddMemory("w", Bytes(W)).AddMemory("b", Bytes(B)).AddMemory("padded", Bytes(Padded)))
    using (var unscoped = Splats())
    using (var context = Open(model, unscoped)) {
      Assert.Equal("model", model.Scope);
      Assert.Equal("", unscoped.Scope);
      Assert.Sequence(new[] { "w:16", "b:8", "padded:16" },
                      model.Entries.Select(e => e.Key + ":" + e.Value), "entries");
      ExpectModelAndSplats(context);
    }
  }

  [Test]
  public void FromPinnedMemoryInPlace() {
    using (var w = new AlignedMemory<byte>(16))
    using (var b = new AlignedMemory<byte>(8))
    using (var padded = new AlignedMemory<byte>(16)) {
      Bytes(W).CopyTo(w.Memory);
      Bytes(B).CopyTo(b.Memory);
      Bytes(Padded).CopyTo(padded.Memory);
      using (var model = Parameters.Create(instance, "model").AddMemory("w", w.Memory)
                 .AddMemory("b", b.Memory).AddMemory("padded", padded.Memory))
      using (var unscoped = Splats())
      using (var context = Open(model, unscoped)) {
        ExpectModelAndSplats(context);
        // A CPU device reads aligned caller memory in place: the program sees the change.
        var changed = new float[] { 1, 2, 3, 14 };
        Bytes(changed).CopyTo(w.Memory);
        var x = new float[] { 1, 1 };
        Assert.Sequence(Affine(x, changed, B), Call(context, "main", x, 1, 2), "main after change");
      }
    }
  }

  [Test]
  public void FromFilesInEveryMode() {
    string path = Path.Combine(Path.GetTempPath(), "iree_rt_params_" + Guid.NewGuid() + ".safetensors");
    File.WriteAllBytes(path, Safetensors());
    try {
      foreach (ParameterMode mode in Enum.GetValues(typeof(ParameterMode))) {
        using (var model = Parameters.Create(instance, "model").AddFile(path, mode))
        using (var unscoped = Splats())
        using (var context = Open(model, unscoped)) {
          Assert.Equal(3, model.Entries.Count, "entries");
          ExpectModelAndSplats(context);
        }
      }
    } finally {
      File.Delete(path);
    }
  }

  [Test]
  public void FromArchivesInMemory() {
    foreach (bool copied in new[] { true, false }) {
      using (var model = Parameters.Create(instance, "model"))
      using (var unscoped = Splats()) {
        if (copied) model.AddArchive("safetensors", Safetensors());
        else model.AddArchive("safetensors", new Memory<byte>(Safetensors()));
        using (var context = Open(model, unscoped)) ExpectModelAndSplats(context);
      }
    }
  }

  [Test]
  public void Errors() {
    using (var model = Parameters.Create(instance, "model").AddMemory("w", Bytes(W)))
    using (var other = Parameters.Create(instance, "model")) {
      var e = Assert.Fails(StatusCode.AlreadyExists,
                           () => model.AddMemory("w", new Memory<byte>(Bytes(W))));
      Assert.True(e.Message.Contains("parameter 'w' of scope 'model' is in both"), e.Message);
      e = Assert.Fails(StatusCode.InvalidArgument, () => model.AddArchive("zip", Safetensors()));
      Assert.True(e.Message.Contains("unknown parameter archive format 'zip'"), e.Message);
      Assert.Fails(StatusCode.InvalidArgument, () => model.AddSplat("s", new byte[3], 9));
      e = Assert.Fails(StatusCode.InvalidArgument, () => Module.IoParameters(instance, model, other));
      Assert.True(e.Message.Contains("scope 'model'"), e.Message);
      // The program needs "b", which the set lacks: its initializer fails, naming it.
      using (var unscoped = Splats()) {
        e = Assert.Fails(StatusCode.NotFound, () => Open(model, unscoped).Dispose());
        Assert.True(e.Message.Contains("no parameter 'b' in scope 'model'"), e.Message);
      }
      // The set is frozen once a module has it.
      Assert.Fails(StatusCode.FailedPrecondition, () => model.AddMemory("b", Bytes(B)));
    }
    var closed = Parameters.Create(instance, "model");
    closed.Dispose();
    Assert.Throws<ObjectDisposedException>(() => closed.AddMemory("w", Bytes(W)));
  }
}

}  // namespace IreeRt.Tests
