// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::PendingQueue: orders one device's queue operations by semaphores and issues them to the
// dispatch stream without blocking submitters.
//
// An operation is ready once each wait is either reached on the host or covered by a device
// timepoint (an event already recorded by an issued operation; the stream then waits on that
// event, with no host round trip). A ready operation submitted while nothing is parked is issued
// on the submitting thread; others are parked, and the issue thread releases them as their waits
// are met. Issuing enqueues the stream waits, the work itself, then one event per CUDA signal
// semaphore (becoming that semaphore's device timepoint) and hands the operation to InFlight,
// which advances (or fails) its signals once its last event has fired: observed by the completion
// thread (cuEventSynchronize, oldest first) or earlier by a host waiter synchronising on the
// event itself. No host callback (cuLaunchHostFunc) is used. An operation without device work
// whose waits are reached on the host completes at once if the stream has finished everything
// issued before it. Failures anywhere reach every
// signal, and through them every dependent operation; a device fault reaches them through the
// events' errors.
// Destruction fails parked operations with CANCELLED and waits for issued ones to complete.
#ifndef IREE_RT_DRIVERS_CUDA_PENDING_QUEUE_H_
#define IREE_RT_DRIVERS_CUDA_PENDING_QUEUE_H_

#include <condition_variable>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "drivers/cuda/context.h"
#include "drivers/cuda/event_pool.h"
#include "drivers/cuda/in_flight.h"
#include "hal/semaphore.h"

namespace iree_rt::drivers::cuda {

class PendingQueue {
 public:
  // Enqueues the operation's device work on the dispatch stream; runs with the context current,
  // on the submitting thread or the issue thread, never two at once. Its captures live until the
  // operation completes. A null IssueFn means the operation has no device work and nothing of it
  // is on the stream: if its waits are reached on the host and everything issued before it has
  // completed, it completes at once on the submitting thread (no event, no retirement).
  using IssueFn = std::function<base::Status(CUstream stream)>;

  PendingQueue(base::Ref<Context> context, base::Ref<EventPool> events);
  ~PendingQueue();
  PendingQueue(const PendingQueue&) = delete;
  PendingQueue& operator=(const PendingQueue&) = delete;

  // |verify| (optional) is asked once the work has run, before the signals advance
  // (InFlight::Operation::verify).
  void Submit(std::span<const hal::SemaphorePoint> wait, std::span<const hal::SemaphorePoint> signal,
              IssueFn issue, std::function<base::Status()> verify = nullptr);

 private:
  using Point = InFlight::Point;
  struct Operation {
    std::vector<Point> waits;
    std::vector<Point> signals;
    IssueFn issue;
    std::function<base::Status()> verify;
    // Host timepoints registered to wake the issue thread (cancelled once issued).
    std::vector<std::pair<hal::Semaphore*, hal::Semaphore::TimepointId>> notifications;
  };
  // Wakes the issue thread; shared with semaphore callbacks that may outlive the queue.
  struct Wakeup {
    std::mutex mutex;
    std::condition_variable cv;
    bool poked = false;
  };

  void IssueLoop();
  void CompletionLoop();
  // Outcome of looking at an operation's waits.
  enum class Readiness { kBlocked, kReady, kFailed };
  // |host_reached| (optional) tells whether every wait is reached on the host.
  Readiness Evaluate(Operation& op, std::vector<base::Ref<Event>>* device_waits, base::Status* failure,
                     bool* host_reached = nullptr);
  // Whether everything issued so far has completed; mutex_ held.
  bool StreamIdle();
  // Issues a ready operation; called with mutex_ held (issues are serialised in stream order).
  // On failure the operation is returned, for its signals to be failed without the lock.
  base::Status Issue(Operation& op, const std::vector<base::Ref<Event>>& device_waits);
  static void CancelNotifications(Operation& op);
  static void FailSignals(Operation& op, const base::Status& status);
  void Poke();

  const base::Ref<Context> context_;
  const base::Ref<EventPool> events_;
  const base::Ref<InFlight> in_flight_;
  std::shared_ptr<Wakeup> wakeup_;

  std::mutex mutex_;  // guards pending_, stopping_ and every issue to the stream
  std::list<std::unique_ptr<Operation>> pending_;
  bool stopping_ = false;
  base::Ref<Event> last_done_;  // the completion event of the last issued operation

  std::thread issue_thread_;
  std::thread completion_thread_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_PENDING_QUEUE_H_
