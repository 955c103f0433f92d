// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::InFlight: the operations one queue has issued to its dispatch stream, in stream order,
// and their retirement: once an operation's completion event has fired, its resources are
// released and its signals advanced (or failed, if a wait's timeline failed meanwhile: waits
// honoured on the device through events do not see a failed timeline).
//
// Retire() never blocks and may be called by anyone who knows the stream has moved on: the
// queue's completion thread (WaitAndRetire) and host waiters that synchronised on an event
// themselves (cuda::Semaphore), so a host wait needs no thread hop and no cuLaunchHostFunc.
// A CUDA error from an event (a device fault is sticky) fails every in-flight operation's
// signals with it, so no waiter hangs.
//
// Ref-counted because device timepoints (held by semaphores) may outlive the queue.
// Thread-safety: every method may be called from any thread.
#ifndef IREE_RT_DRIVERS_CUDA_IN_FLIGHT_H_
#define IREE_RT_DRIVERS_CUDA_IN_FLIGHT_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "base/ref_object.h"
#include "drivers/cuda/context.h"
#include "drivers/cuda/event_pool.h"
#include "hal/semaphore.h"

namespace iree_rt::drivers::cuda {

class InFlight final : public base::RefObject {
 public:
  struct Point {
    base::Ref<hal::Semaphore> semaphore;
    uint64_t value;
  };
  struct Operation {
    base::Ref<Event> done;  // recorded on the stream after the operation's work
    std::vector<Point> waits;
    std::vector<Point> signals;
    base::Status failure;  // the work failed to enqueue: its signals fail
    // Released before the signals advance: a woken waiter may expect its buffers released.
    std::vector<base::Ref<Event>> events;
    // The issue function, kept for what it captures (never called again).
    std::function<base::Status(CUstream)> resources;
    // Asked once the event has fired: work that ran but failed (a collective whose communicator
    // was aborted) fails the signals with its status.
    std::function<base::Status()> verify;
  };

  explicit InFlight(base::Ref<Context> context) : context_(std::move(context)) {}

  const Context& context() const { return *context_; }

  void Push(Operation operation);
  // Retires every leading operation whose event has completed.
  void Retire();
  // Retires the operations up to the one whose completion event is |done|, which the caller saw
  // complete (so, by stream order, have they all); nothing if that one is already retired.
  void RetireThrough(const Event* done);
  // Blocks until the oldest operation's event completes (or fails), then retires. Returns false
  // once Stop() was called and nothing is in flight.
  bool WaitAndRetire();
  // Bracket a host waiter's own cuEventSynchronize + Retire: the completion thread then lets the
  // waiter retire first instead of racing it (the loser would sleep on the timeline's futex).
  void BeginHostSync() { host_syncs_.fetch_add(1, std::memory_order_relaxed); }
  void EndHostSync() { host_syncs_.fetch_sub(1, std::memory_order_release); }
  void Stop();
  bool empty();

 private:
  static void Complete(Operation& operation, const base::Status& fault);

  static constexpr std::chrono::microseconds kSpinBeforeParking{200};
  static constexpr std::chrono::microseconds kYieldToHostWaiter{20};
  static constexpr std::chrono::microseconds kGrace{50};
  static constexpr std::chrono::microseconds kPollWhileHostWaits{200};

  const base::Ref<Context> context_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Operation> operations_;
  bool stopping_ = false;
  bool parked_ = false;  // the completion thread waits on cv_: a push must wake it
  std::atomic<size_t> size_{0};  // operations_.size(), read without the lock
  std::atomic<int> host_syncs_{0};
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_IN_FLIGHT_H_
