// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Collections.Generic;
using System.Threading;

namespace IreeRt.Tests {

/// <summary>Dispose twice is harmless; use after Dispose throws; a handle in use outlives Dispose.</summary>
[TestFixture]
public class LifecycleTests {
  [Test]
  public void DisposeTwiceAndUseAfterDispose() {
    var instance = new Instance();
    var device = instance.CreateDevice("local-sync");
    var hal = Module.Hal(instance, device);
    var program = Module.Load(instance, Paths.Module);
    var context = new Context(instance, hal, program);
    var fn = context.Function("add_i32");
    var t = Tensor.FromArray(device, new float[] { 1, 2 }, 2);
    var s = new Semaphore(device, 0);
    var fence = new Fence(s, 1);
    var all = new NativeObject[] { fence, s, t, fn, context, program, hal, device, instance };
    foreach (var o in all) {
      o.Dispose();
      o.Dispose();
      Assert.True(o.IsDisposed);
    }
    Assert.Throws<ObjectDisposedException>(() => fn.Call(1, 2));
    Assert.Throws<ObjectDisposedException>(() => context.Function("add_i32"));
    Assert.Throws<ObjectDisposedException>(() => { var x = t.Shape; });
    Assert.Throws<ObjectDisposedException>(() => t.ToArray<float>());
    Assert.Throws<ObjectDisposedException>(() => s.Signal(1));
    Assert.Throws<ObjectDisposedException>(() => fence.Wait());
    Assert.Throws<ObjectDisposedException>(() => { var n = program.Name; });
    Assert.Throws<ObjectDisposedException>(() => device.Allocate(4));
    Assert.Throws<ObjectDisposedException>(() => instance.CreateDevice("local-sync"));
    using (var i2 = new Instance()) {
      Assert.Throws<ObjectDisposedException>(() => Module.Hal(i2, device));
    }
  }

  [Test]
  public void ObjectsKeepWhatTheyNeedAlive() {
    Function fn;
    Tensor x;
    using (var instance = new Instance())
    using (var device = instance.CreateDevice("local-task"))
    using (var context = instance.CreateContext(device, Paths.Module)) {
      fn = context.Function("scale_add");
      x = Tensor.FromArray(device, new float[] { 1, 2, 3, 4 }, 4);
    }
    using (fn)
    using (x)
    using (var output = (Tensor)fn.Call(x, x, 1.0f)[0]) {
      Assert.Sequence(new float[] { 2, 4, 6, 8 }, output.ToArray<float>());
    }
  }

  [Test]
  public void TraceFileIsWrittenOnFlushAndDispose() {
    string path = System.IO.Path.GetTempFileName();
    using (var options = new InstanceOptions().SetTracePath(path))
    using (var instance = new Instance(options))
    using (var device = instance.CreateDevice("local-task"))
    using (var context = instance.CreateContext(device, Paths.Module))
    using (var fn = context.Function("scale_add"))
    using (var x = Tensor.FromArray(device, new float[] { 1, 2, 3, 4 }, 4))
    using (var output = (Tensor)fn.Call(x, x, 1.0f)[0]) {
      instance.FlushTrace();
      string text = System.IO.File.ReadAllText(path);
      Assert.True(text.StartsWith("{\"traceEvents\":["), text);
      Assert.True(text.Contains("scale_add"), text);
      Assert.True(text.Contains("\"cat\":\"dispatch\""), text);
    }
    Assert.True(System.IO.File.ReadAllText(path).EndsWith("\"displayTimeUnit\":\"ns\"}\n"));
    System.IO.File.Delete(path);
  }

  [Test]
  public void DisposeWhileAnotherThreadUsesTheHandle() {
    using (var instance = new Instance())
    using (var device = instance.CreateDevice("local-task")) {
      for (int round = 0; round < 20; ++round) {
        var s = new Semaphore(device, 0);
        var started = new ManualResetEventSlim();
        Exception error = null;
        var waiter = new Thread(() => {
          started.Set();
          try {
            s.Wait(1, TimeSpan.FromMilliseconds(20));  // holds the handle for 20 ms
          } catch (Exception e) {
            error = e;
          }
        });
        waiter.Start();
        started.Wait();
        s.Dispose();
        waiter.Join();
        var rt = error as IreeRtException;
        Assert.True(error is ObjectDisposedException ||
                    (rt != null && rt.Code == StatusCode.DeadlineExceeded), "" + error);
        Assert.Throws<ObjectDisposedException>(() => { var v = s.Value; });
      }
    }
  }

  [Test]
  public void DisposeRacesWithCalls() {
    using (var f = new Fixture("local-sync")) {
      for (int round = 0; round < 50; ++round) {
        var fn = f.Context.Function("add_i32");
        var threads = new List<Thread>();
        Exception unexpected = null;
        for (int t = 0; t < 4; ++t) {
          var th = new Thread(() => {
            for (int i = 0; i < 200; ++i) {
              try {
                Assert.Equal((object)(i + 1), fn.Call(i, 1)[0]);
              } catch (ObjectDisposedException) {
                return;
              } catch (Exception other) {
                unexpected = other;
                return;
              }
            }
          });
          threads.Add(th);
          th.Start();
        }
        Thread.Sleep(round % 3);
        fn.Dispose();
        foreach (var th in threads) th.Join();
        if (unexpected != null) throw new AssertionException("unexpected: " + unexpected);
      }
    }
  }

  [Test]
  public void FinalizersReleaseWhatWasNotDisposed() {
    using (var f = new Fixture("local-sync")) {
      long before = f.Device.GetMemoryStatistic(MemoryStatistic.BytesAllocated);
      CreateGarbage(f.Device);
      Assert.True(f.Device.GetMemoryStatistic(MemoryStatistic.BytesAllocated) > before, "allocated");
      for (int i = 0; i < 10 && f.Device.GetMemoryStatistic(MemoryStatistic.BytesAllocated) != before; ++i) {
        GC.Collect();
        GC.WaitForPendingFinalizers();
      }
      Assert.Equal(before, f.Device.GetMemoryStatistic(MemoryStatistic.BytesAllocated), "device bytes");
    }
  }

  static void CreateGarbage(Device device) {
    for (int i = 0; i < 100; ++i) Tensor.Allocate(device, ElementType.Float32, 256);
  }
}

}  // namespace IreeRt.Tests
