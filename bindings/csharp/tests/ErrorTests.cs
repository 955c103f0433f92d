// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.IO;
using System.Linq;

namespace IreeRt.Tests {

/// <summary>Bad input raises IreeRtException with the right code.</summary>
[TestFixture]
public class ErrorTests : Fixture {
  [Test]
  public void MissingFunction() {
    var e = Assert.Fails(StatusCode.NotFound, () => Context.Function("no_such_function"));
    Assert.True(e.Message.Contains("no_such_function"), e.Message);
  }

  [Test]
  public void WrongShape() {
    using (var fn = Context.Function("scale_add"))
    using (var x = Tensor.FromArray(Device, new float[] { 1, 2, 3 }, 3))
    using (var y = Tensor.FromArray(Device, new float[] { 1, 2, 3, 4 }, 4)) {
      Assert.Fails(StatusCode.InvalidArgument, () => fn.Call(x, y, 1.0f));
    }
  }

  [Test]
  public void WrongElementType() {
    using (var fn = Context.Function("scale_add"))
    using (var x = Tensor.FromArray(Device, new int[] { 1, 2, 3, 4 }, 4))
    using (var y = Tensor.FromArray(Device, new float[] { 1, 2, 3, 4 }, 4)) {
      Assert.Fails(StatusCode.InvalidArgument, () => fn.Call(x, y, 1.0f));
    }
  }

  [Test]
  public void WrongArgumentCountAndTypes() {
    using (var fn = Context.Function("add_i32")) {
      var e = Assert.Fails(StatusCode.InvalidArgument, () => fn.Call(1));
      Assert.True(e.Message.ToLowerInvariant().Contains("argument"), e.Message);
      Assert.Fails(StatusCode.InvalidArgument, () => fn.Call(1L, 2L));
      Assert.Fails(StatusCode.InvalidArgument, () => fn.Call(1.0f, 2));
      Assert.Throws<ArgumentException>(() => fn.Call("one", 2));
    }
  }

  static void AssertCorrupt(Instance instance, byte[] bytes) {
    var e = Assert.Throws<IreeRtException>(() => Module.Load(instance, bytes).Dispose());
    Assert.True(e.Code == StatusCode.InvalidArgument || e.Code == StatusCode.Incompatible ||
                e.Code == StatusCode.DataLoss || e.Code == StatusCode.OutOfRange, e.Message);
  }

  [Test]
  public void CorruptModules() {
    var good = File.ReadAllBytes(Paths.Module);
    AssertCorrupt(Instance, Enumerable.Repeat((byte)0x5A, 4096).ToArray());
    AssertCorrupt(Instance, good.Take(good.Length / 3).ToArray());
    var flipped = (byte[])good.Clone();
    for (int i = 16; i < 400 && i < flipped.Length; i += 7) flipped[i] ^= 0xFF;
    AssertCorrupt(Instance, flipped);
    Assert.Fails(StatusCode.NotFound, () => Module.Load(Instance, "/nonexistent/dir/x.vmfb"));
  }

  [Test]
  public void BadDevices() {
    Assert.Fails(StatusCode.NotFound, () => new Device(Instance, "no-such-driver"));
    Assert.Fails(StatusCode.InvalidArgument, () => new Device(Instance, "local-task://?workers=x"));
  }

  [Test]
  public void BadTensorsAreRejectedBeforeReachingNative() {
    Assert.Throws<ArgumentException>(() => Tensor.FromArray(Device, new float[3], 4));
    Assert.Throws<ArgumentException>(() => Tensor.FromArray(Device, new float[4], -1, -4));
    Assert.Throws<ArgumentException>(() => Tensor.FromArray(Device, new decimal[1], 1));
    using (var t = Tensor.FromArray(Device, new float[4], 4)) {
      Assert.Throws<InvalidOperationException>(() => t.ToArray<int>());
      Assert.Throws<ArgumentException>(() => t.ReadInto(new Span<float>(new float[3])));
    }
  }

  [Test]
  public void SemaphoresAndFences() {
    using (var s = new Semaphore(Device, 0))
    using (var fence = new Fence(s, 2)) {
      Assert.Equal(1, fence.Count);
      Assert.True(!fence.IsReached);
      Assert.Fails(StatusCode.DeadlineExceeded, () => s.Wait(1, TimeSpan.FromMilliseconds(1)));
      s.Signal(1);
      Assert.Fails(StatusCode.OutOfRange, () => s.Signal(1));
      s.Signal(2);
      Assert.True(fence.IsReached);
      fence.Wait();
      s.Fail(StatusCode.Aborted, "stopped by the test");
      var e = Assert.Fails(StatusCode.Aborted, () => s.Wait(3));
      Assert.True(e.Message.Contains("stopped by the test"), e.Message);
      Assert.Fails(StatusCode.Aborted, () => { var v = s.Value; });
    }
  }
}

}  // namespace IreeRt.Tests
