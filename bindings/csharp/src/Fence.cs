// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Threading.Tasks;

namespace IreeRt {

/// <summary>A set of (semaphore, value) timepoints. Thread-safe.</summary>
public sealed class Fence : NativeObject {
  public Fence() : base(HandleKind.RT_KIND_FENCE, IreeRtNative.fence_create()) {}

  public Fence(Semaphore semaphore, long value) : this() { Insert(semaphore, value); }

  public Fence Insert(Semaphore semaphore, long value) {
    IreeRtNative.fence_insert(this, semaphore, value);
    return this;
  }

  public int Count { get { return (int)IreeRtNative.fence_size(this); } }

  /// <summary>Whether every timepoint is reached; throws a failed semaphore's failure.</summary>
  public bool IsReached {
    get {
      try {
        IreeRtNative.fence_query(this);
        return true;
      } catch (IreeRtException e) when (e.Code == StatusCode.Deferred) {
        return false;
      }
    }
  }

  public void Signal() { IreeRtNative.fence_signal(this); }

  public void Fail(StatusCode code, string message) {
    IreeRtNative.fence_fail(this, (int)code, message);
  }

  public void Wait(TimeSpan? timeout = null) {
    IreeRtNative.fence_wait(this, Semaphore.ToNanos(timeout));
  }

  /// <summary>
  /// A task that completes once every timepoint is reached, or faults with an IreeRtException
  /// carrying a failed semaphore's code and message; awaitable, and no thread waits meanwhile.
  /// Continuations never run on a runtime thread. Keep this fence (or its semaphores) undisposed
  /// until then: semaphores destroyed first fault it with Cancelled.
  /// </summary>
  public Task WaitAsync() {
    var source = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
    FenceCompletion.Register(this, (code, message) => {
      if (code == StatusCode.Ok) source.TrySetResult(true);
      else source.TrySetException(new IreeRtException(code, message));
    });
    return source.Task;
  }
}

}  // namespace IreeRt
