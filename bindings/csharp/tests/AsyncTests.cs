// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace IreeRt.Tests {

/// <summary>
/// Async calls (programs compiled with --iree-execution-model=async-external) as awaitable Tasks
/// completed through iree_rt_fence_notify, and Fence.WaitAsync.
/// </summary>
[TestFixture]
public class AsyncTests : Fixture {
  readonly Context asyncContext;
  readonly Function negate;

  public AsyncTests() {
    asyncContext = Instance.CreateContext(Device, Paths.Async);
    negate = asyncContext.Function("negate");
  }

  public override void Dispose() {
    negate.Dispose();
    asyncContext.Dispose();
    base.Dispose();
  }

  static T Await<T>(Task<T> task) {
    Assert.True(task.Wait(TimeSpan.FromSeconds(60)), "the task did not complete");
    return task.Result;
  }

  // The exception a faulted task carries, unwrapped.
  static Exception Fault(Task task) {
    try {
      Assert.True(task.Wait(TimeSpan.FromSeconds(60)), "the task did not complete");
    } catch (AggregateException e) {
      return e.InnerException;
    }
    throw new AssertionException("the task did not fail");
  }

  [Test]
  public void FenceTaskCompletesWhenReachedOrFailed() {
    using (var s = new Semaphore(Device, 0))
    using (var fence = new Fence(s, 2))
    using (var empty = new Fence()) {
      Assert.True(empty.WaitAsync().Wait(TimeSpan.FromSeconds(10)), "empty fence");
      Task reached = fence.WaitAsync();
      s.Signal(1);
      Thread.Sleep(20);
      Assert.True(!reached.IsCompleted, "completed before the fence was reached");
      s.Signal(2);
      Assert.True(reached.Wait(TimeSpan.FromSeconds(10)), "reached");
      Assert.True(fence.WaitAsync().Wait(TimeSpan.FromSeconds(10)), "already reached");
    }
    using (var s = new Semaphore(Device, 0))
    using (var fence = new Fence(s, 1)) {
      Task failed = fence.WaitAsync();
      s.Fail(StatusCode.DataLoss, "disk on fire");
      var e = Fault(failed) as IreeRtException;
      Assert.True(e != null, "not an IreeRtException");
      Assert.Equal(StatusCode.DataLoss, e.Code, "code");
      Assert.True(e.Message.Contains("disk on fire"), e.Message);
    }
  }

  async Task<float[]> NegateAsync(float[] input) {
    using (var x = Tensor.FromArray(Device, input, input.Length)) {
      object[] results = await negate.CallAsync(Device, x);
      using (var y = (Tensor)results[0]) return y.ToArray<float>();
    }
  }

  [Test]
  public void Await() {
    Assert.Sequence(new float[] { -1, -2, -3, -4 }, Await(NegateAsync(new float[] { 1, 2, 3, 4 })));
  }

  [Test]
  public void ThousandCallsInFlight() {
    // Every call waits on one gate: all 1,000 are queued (none can finish) before it opens, and
    // no managed thread waits for any of them.
    const int calls = 1000;
    var inputs = new List<Tensor>();
    var tasks = new List<Task<object[]>>();
    int threadsBefore = System.Diagnostics.Process.GetCurrentProcess().Threads.Count;
    using (var gate = new Semaphore(Device, 0))
    using (var open = new Fence(gate, 1)) {
      for (int i = 0; i < calls; ++i) {
        var x = Tensor.FromArray(Device, new float[] { i + 1, i + 2, i + 3, i + 4 }, 4);
        inputs.Add(x);
        tasks.Add(negate.CallAsync(Device, open, x));
      }
      Thread.Sleep(50);
      Assert.True(tasks.All(t => !t.IsCompleted), "completed before the wait fence was reached");
      int threads = System.Diagnostics.Process.GetCurrentProcess().Threads.Count;
      Assert.True(threads < threadsBefore + 64, "threads: " + threadsBefore + " -> " + threads);
      gate.Signal(1);
      Assert.True(Task.WaitAll(tasks.ToArray(), TimeSpan.FromSeconds(60)), "not all completed");
    }
    for (int i = 0; i < calls; ++i) {
      using (var y = (Tensor)tasks[i].Result[0]) {
        Assert.Sequence(new float[] { -(i + 1), -(i + 2), -(i + 3), -(i + 4) }, y.ToArray<float>(),
                        "call " + i);
      }
      inputs[i].Dispose();
    }
  }

  [Test]
  public void FailureFaultsTheTaskWithIreeRtException() {
    var tasks = new List<Task<object[]>>();
    using (var gate = new Semaphore(Device, 0))
    using (var open = new Fence(gate, 1))
    using (var x = Tensor.FromArray(Device, new float[] { 1, 2, 3, 4 }, 4)) {
      for (int i = 0; i < 10; ++i) tasks.Add(negate.CallAsync(Device, open, x));
      gate.Fail(StatusCode.Aborted, "upstream gave up");
      foreach (var task in tasks) {
        var e = Fault(task) as IreeRtException;
        Assert.True(e != null, "not an IreeRtException");
        Assert.Equal(StatusCode.Aborted, e.Code, "code (" + e.Message + ")");
        Assert.True(e.Message.Contains("upstream gave up"), e.Message);
      }
    }
  }

  [Test]
  public void ErrorsOfTheCallItselfFaultTheTask() {
    // Missing the tensor argument: the call fails at once, as a faulted task.
    Assert.True(Fault(negate.CallAsync(Device)) is IreeRtException, "not an IreeRtException");
  }
}

}  // namespace IreeRt.Tests
