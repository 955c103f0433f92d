// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Linq;
using System.Runtime.InteropServices;

namespace IreeRt.Tests {

/// <summary>An instance, a device and a context over the test module.</summary>
public class Fixture : IDisposable {
  public readonly Instance Instance;
  public readonly Device Device;
  public readonly Context Context;

  public Fixture(string uri = "local-task") {
    Instance = new Instance();
    Device = Instance.CreateDevice(uri);
    Context = Instance.CreateContext(Device, Paths.Module);
  }

  public virtual void Dispose() {
    Context.Dispose();
    Device.Dispose();
    Instance.Dispose();
  }
}

/// <summary>Loading a compiled module and calling its functions with scalars and tensors.</summary>
[TestFixture]
public class CallTests : Fixture {
  [Test]
  public void VersionAndDrivers() {
    Assert.True(Instance.Version.Contains("ABI 1."), Instance.Version);
    // The assembly carries the library's package version (both generated from CMake's).
    var assembly = typeof(Instance).Assembly;
    string package = Instance.Version.Split(' ')[0];
    Assert.Equal(package + ".0", assembly.GetName().Version.ToString(), "AssemblyVersion");
    var info = (System.Reflection.AssemblyInformationalVersionAttribute)Attribute.GetCustomAttribute(
        assembly, typeof(System.Reflection.AssemblyInformationalVersionAttribute));
    Assert.True(info != null, "no AssemblyInformationalVersion");
    Assert.Equal(package, info.InformationalVersion, "AssemblyInformationalVersion");
    // The glue was loaded by absolute path from IreeRt.dll's own folder (no MONO_PATH needed).
    Assert.Equal(System.IO.Path.Combine(System.IO.Path.GetDirectoryName(assembly.Location),
                                        "libiree_rt_csharp.so"),
                 NativeDiagnostics.NativeLibraryPath, "NativeLibraryPath");
    Assert.True(Instance.DriverNames.Contains("local-task"));
    Assert.True(Instance.Devices().Any(d => d.Uri.StartsWith("local-")));
    Assert.Equal("local-task", Device.Id);
  }

  [Test]
  public void ModuleReflection() {
    using (var m = Instance.LoadModule(Paths.Module)) {
      Assert.True(m.FunctionNames.Contains("add_i32"));
      Assert.Equal("0ii_i", m.Signature("add_i32"));
      Assert.Equal("0rrf_r", m.Signature("scale_add"));
    }
    using (var fn = Context.Function("add_i32")) {
      Assert.Equal("add_i32", fn.Name);
      Assert.Equal("0ii_i", fn.Signature);
    }
  }

  [Test]
  public void Scalars() {
    using (var add = Context.Function("add_i32"))
    using (var mul = Context.Function("mul_f32")) {
      Assert.Sequence(new object[] { 42 }, add.Call(2, 40));
      Assert.Sequence(new object[] { int.MinValue + 1 }, add.Call(int.MaxValue, 2));  // wraps
      Assert.Sequence(new object[] { 6.0f }, mul.Call(1.5f, 4.0f));
    }
  }

  [Test]
  public void TensorsFromSpansAreCopied() {
    var data = new float[] { 1, 2, 3, 4 };
    using (var fn = Context.Function("scale_add"))
    using (var x = Tensor.FromSpan<float>(Device, data, 4))
    using (var y = Tensor.FromSpan<float>(Device, new float[] { 1, 1, 1, 1 }, 4)) {
      data[0] = 100;  // copied: no effect
      var r = fn.Call(x, y, 2.0f);
      Assert.Equal(1, r.Length);
      using (var output = (Tensor)r[0]) {
        Assert.Sequence(new long[] { 4 }, output.Shape);
        Assert.Equal(ElementType.Float32, output.ElementType);
        Assert.Equal(16L, output.ByteLength);
        Assert.Sequence(new float[] { 3, 5, 7, 9 }, output.ToArray<float>());
      }
    }
  }

  [Test]
  public void UnalignedArraysAreCopied() {
    for (int offset = 0; offset < 16; ++offset) {
      var xs = new float[20];
      for (int i = 0; i < 4; ++i) xs[offset + i] = i + 1;
      using (var fn = Context.Function("scale_add"))
      using (var x = Tensor.FromMemory(Device, new Memory<float>(xs, offset, 4), 4)) {
        xs[offset] = 100;  // copied unless 64-byte aligned
        using (var output = (Tensor)fn.Call(x, x, 1.0f)[0]) {
          var got = output.ToArray<float>();
          Assert.True(got[0] == 2 || got[0] == 200, "first element " + got[0]);
          Assert.Sequence(new float[] { 4, 6, 8 }, got.Skip(1));
        }
      }
    }
  }

  [Test]
  public void AlignedMemoryIsNotCopied() {
    using (var xm = new AlignedMemory<float>(4))
    using (var ym = new AlignedMemory<float>(4))
    using (var fn = Context.Function("scale_add")) {
      var xs = xm.GetSpan();
      for (int i = 0; i < 4; ++i) xs[i] = i + 1;
      using (var x = Tensor.FromMemory(Device, xm.Memory, 4))
      using (var y = Tensor.FromMemory(Device, ym.Memory, 4)) {
        xs = xm.GetSpan();
        xs[0] = 10;  // the program reads the caller's memory
        using (var output = (Tensor)fn.Call(x, y, 1.0f)[0]) {
          var target = new float[6];
          output.ReadInto(new Span<float>(target, 1, 5));
          Assert.Equal(0f, target[0]);
          Assert.Equal(10f, target[1]);
          Assert.Equal(4f, target[4]);
          target = new float[4];
          output.ReadInto<float>(target);
          Assert.Equal(10f, target[0]);
          Assert.Equal(4f, target[3]);
        }
        // Writes through the tensor's buffer land in the caller's memory.
        x.Buffer.Write(4, MemoryMarshal.AsBytes(new ReadOnlySpan<float>(new float[] { 7 })));
        Assert.Equal(7f, xm.GetSpan()[1]);
      }
    }
  }

  [Test]
  public void DynamicShapesAndTwoResults() {
    using (var fn = Context.Function("add_scalar_i32"))
    using (var x = Tensor.FromArray(Device, new int[] { 1, 2, 3 }, 3)) {
      var r = fn.Call(x, 5);
      Assert.Equal(2, r.Length);
      using (var output = (Tensor)r[0]) Assert.Sequence(new int[] { 6, 7, 8 }, output.ToArray<int>());
      Assert.Equal((object)3L, r[1]);
    }
  }

  [Test]
  public void InvocationReusesLists() {
    using (var fn = Context.Function("add_i32"))
    using (var inv = fn.CreateInvocation()) {
      for (int i = 0; i < 1000; ++i) {
        inv.Reset().Arg(i).Arg(3 * i).Invoke();
        Assert.Equal(1, inv.ResultCount);
        Assert.Equal(4 * i, inv.ResultInt(0));
      }
    }
  }

  [Test]
  public void InvocationFloatsAndTensors() {
    using (var mul = Context.Function("mul_f32"))
    using (var scale = Context.Function("scale_add"))
    using (var dyn = Context.Function("add_scalar_i32"))
    using (var m = mul.CreateInvocation())
    using (var s = scale.CreateInvocation())
    using (var d = dyn.CreateInvocation())
    using (var x = Tensor.FromArray(Device, new float[] { 1, 2, 3, 4 }, 4))
    using (var xi = Tensor.FromArray(Device, new int[] { 1, 2, 3 }, 3)) {
      Assert.Equal(-7.5f, m.Reset().Arg(2.5f).Arg(-3f).Invoke().ResultFloat(0));
      Assert.Equal(-7.5, m.ResultDouble(0));  // f32 read as f64
      for (int i = 0; i < 3; ++i) {  // the list path, then back to the scalar path
        using (var output = s.Reset().Arg(x).Arg(x).Arg(0.5f).Invoke().ResultTensor(0)) {
          Assert.Sequence(new float[] { 1.5f, 3, 4.5f, 6 }, output.ToArray<float>());
        }
        Assert.Equal(12f, m.Reset().Arg(3f).Arg(4f).Invoke().ResultFloat(0));
      }
      d.Reset().Arg(xi).Arg(10).Invoke();
      Assert.Equal(2, d.ResultCount);
      Assert.Equal(3L, d.ResultLong(1));
      using (var output = d.ResultTensor(0)) Assert.Sequence(new int[] { 11, 12, 13 }, output.ToArray<int>());
      Assert.Throws<IreeRtException>(() => m.Reset().Arg(1).Invoke());
    }
    var closed = Context.Function("add_i32").CreateInvocation();
    closed.Dispose();
    closed.Dispose();
    Assert.Throws<ObjectDisposedException>(() => closed.Reset());
  }

  [Test]
  public void SampleModel() {
    using (var hal = Module.Hal(Instance, Device))
    using (var mlp = Module.Load(Instance, Paths.Mlp))
    using (var ctx = new Context(Instance, hal, mlp))
    using (var fn = ctx.Function("mlp"))
    using (var x = Tensor.FromArray(Device, new float[] { 1, 2, 3, 4, -1, 0.5f, 0, 2 }, 2, 4))
    using (var y = (Tensor)fn.Call(x)[0]) {
      Assert.Sequence(new long[] { 2, 3 }, y.Shape);
      var expected = new float[] { 3f, -4.15f, -0.05f, 0.4375f, -0.15f, -0.1125f };
      var got = y.ToArray<float>();
      for (int i = 0; i < 6; ++i) Assert.True(Math.Abs(expected[i] - got[i]) < 1e-5, "element " + i);
    }
  }

  [Test]
  public void LocalSyncDevice() {
    using (var sync = new Fixture("local-sync"))
    using (var fn = sync.Context.Function("add_i32")) {
      Assert.Sequence(new object[] { 5 }, fn.Call(2, 3));
    }
  }
}

}  // namespace IreeRt.Tests
