// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.IO;
using System.Text;

namespace IreeRt.Tests {

/// <summary>
/// 10,000 create/dispose cycles leak nothing, measured as in the Java LeakTest: 10 rounds of
/// 1,000 cycles; after each (and a full GC) the C heap's bytes in use (glibc mallinfo2, whole
/// process). The median round must grow it by less than 8 KiB (8 bytes a cycle; anything a cycle
/// creates natively is larger, and a leak grows every round; the median ignores Mono's own
/// occasional allocations). The device allocator's live bytes must return exactly to their
/// starting value.
/// </summary>
[TestFixture]
public class LeakTests {
  const int Cycles = 10000;

  static long SettledHeap() {
    long last = long.MaxValue;
    for (int i = 0; i < 20; ++i) {
      GC.Collect();
      GC.WaitForPendingFinalizers();
      long now = NativeDiagnostics.HeapInUse;
      if (now >= last) return now;
      last = now;
    }
    return last;
  }

  static long RssKiB() {
    foreach (var line in File.ReadAllLines("/proc/self/status")) {
      if (line.StartsWith("VmRSS:")) return long.Parse(line.Substring(6).Trim().Split(' ')[0]);
    }
    return -1;
  }

  static void Cycle(Instance instance, Device device, Module hal, Module program, int i) {
    using (var context = new Context(instance, hal, program))
    using (var fn = context.Function("scale_add"))
    using (var x = Tensor.FromArray(device, new float[] { i, 1, 2, 3 }, 4))
    using (var aligned = new AlignedMemory<float>(4))
    using (var y = Tensor.FromMemory(device, aligned.Memory, 4))  // zero-copy: pinned, unpinned
    using (var output = (Tensor)fn.Call(x, y, 1.0f)[0])
    using (var s = new Semaphore(device, 0))
    using (var fence = new Fence(s, 1)) {
      if (output.ToArray<float>()[0] != i) throw new AssertionException("wrong result " + i);
      s.Signal(1);
      fence.Wait();
    }
  }

  [Test]
  public void TenThousandCycles() {
    using (var instance = new Instance())
    using (var device = instance.CreateDevice("local-sync"))
    using (var hal = Module.Hal(instance, device))
    using (var program = Module.Load(instance, Paths.Module)) {
      for (int i = 0; i < 1000; ++i) Cycle(instance, device, hal, program, i);
      long heapBefore = SettledHeap();
      long bytesBefore = device.GetMemoryStatistic(MemoryStatistic.BytesAllocated);
      long rssBefore = RssKiB();
      var watch = System.Diagnostics.Stopwatch.StartNew();
      long heap = heapBefore;
      var deltas = new long[10];
      var rounds = new StringBuilder();
      for (int round = 0; round < deltas.Length; ++round) {
        for (int i = 0; i < Cycles / deltas.Length; ++i) Cycle(instance, device, hal, program, i);
        long now = SettledHeap();
        deltas[round] = now - heap;
        rounds.AppendFormat(" {0:+0;-0}", now - heap);
        heap = now;
      }
      long bytesAfter = device.GetMemoryStatistic(MemoryStatistic.BytesAllocated);
      Console.WriteLine("leak check (C#): {0} cycles in {1} ms; C heap in use {2} -> {3} bytes " +
                        "(per 1,000-cycle round:{4}); device bytes {5} -> {6}; RSS {7:+0;-0} KiB",
                        Cycles, watch.ElapsedMilliseconds, heapBefore, heap, rounds, bytesBefore,
                        bytesAfter, RssKiB() - rssBefore);
      Assert.True(heapBefore >= 0, "mallinfo2 unavailable");
      Array.Sort(deltas);
      long median = deltas[deltas.Length / 2];
      Assert.True(median < 8 << 10, "the C heap grew by " + median + " bytes in the median round:" + rounds);
      Assert.Equal(bytesBefore, bytesAfter, "device bytes allocated");
    }
  }

  [Test]
  public void InstancesAndDevicesToo() {
    for (int i = 0; i < 200; ++i) {
      using (var instance = new Instance())
      using (var device = instance.CreateDevice("local-sync")) { var id = device.Id; }
    }
    long before = SettledHeap();
    for (int i = 0; i < 2000; ++i) {
      using (var instance = new Instance())
      using (var device = instance.CreateDevice("local-sync")) { var id = device.Id; }
    }
    long after = SettledHeap();
    Console.WriteLine("leak check (C#): 2000 instance+device cycles; C heap {0:+0;-0} bytes", after - before);
    Assert.True(after - before < 256 << 10, "C heap grew by " + (after - before));
  }
}

}  // namespace IreeRt.Tests
