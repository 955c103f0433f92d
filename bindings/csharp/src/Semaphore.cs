// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;

namespace IreeRt {

/// <summary>
/// A timeline semaphore: a 64-bit value that only grows, or fails for good. Thread-safe.
/// </summary>
public sealed class Semaphore : NativeObject {
  public Semaphore(Device device, long initialValue)
      : base(HandleKind.RT_KIND_SEMAPHORE, IreeRtNative.semaphore_create(device, initialValue)) {}

  /// <summary>The current value; throws the failure once the semaphore has failed.</summary>
  public long Value { get { return IreeRtNative.semaphore_query(this); } }

  public void Signal(long value) { IreeRtNative.semaphore_signal(this, value); }

  public void Fail(StatusCode code, string message) {
    IreeRtNative.semaphore_fail(this, (int)code, message);
  }

  /// <summary>Waits until the value reaches |value|; DeadlineExceeded after the timeout.</summary>
  public void Wait(long value, TimeSpan? timeout = null) {
    IreeRtNative.semaphore_wait(this, value, ToNanos(timeout));
  }

  internal static long ToNanos(TimeSpan? timeout) {
    return timeout.HasValue ? timeout.Value.Ticks * 100 : Kinds.InfiniteTimeout;
  }
}

}  // namespace IreeRt
