// cuda::PendingQueue: orders one device's queue operations by semaphores and issues them to the
// dispatch stream without blocking submitters.
//
// Submit() parks an operation until each wait is either reached on the host or covered by a
// device timepoint (an event already recorded by an issued operation; the stream then waits on
// that event, with no host round trip). The issue thread releases ready operations in
// submission order: stream waits, the work itself, then one event per CUDA signal semaphore
// (becoming that semaphore's device timepoint). Completion is observed by cuLaunchHostFunc on
// the callback stream; that callback only queues the operation for the completion thread, which
// advances (or, if any wait failed, fails) the signals and releases the operation's resources.
// Failures anywhere reach every signal, and through them every dependent operation.
//
// A device fault (which stops CUDA from running host callbacks) is detected by polling the stream
// when completions stall, and fails every in-flight operation's signals.
// Destruction fails parked operations with CANCELLED and waits for issued ones to complete.
#ifndef IREE_RT_DRIVERS_CUDA_PENDING_QUEUE_H_
#define IREE_RT_DRIVERS_CUDA_PENDING_QUEUE_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <unordered_set>
#include <vector>

#include "drivers/cuda/context.h"
#include "drivers/cuda/event_pool.h"
#include "hal/semaphore.h"

namespace iree_rt::drivers::cuda {

class PendingQueue {
 public:
  // Enqueues the operation's device work on the dispatch stream; runs on the issue thread with
  // the context current. Its captures live until the operation completes.
  using IssueFn = std::function<base::Status(CUstream stream)>;

  PendingQueue(base::Ref<Context> context, base::Ref<EventPool> events);
  ~PendingQueue();
  PendingQueue(const PendingQueue&) = delete;
  PendingQueue& operator=(const PendingQueue&) = delete;

  void Submit(std::span<const hal::SemaphorePoint> wait, std::span<const hal::SemaphorePoint> signal,
              IssueFn issue);

 private:
  struct Point {
    base::Ref<hal::Semaphore> semaphore;
    uint64_t value;
  };
  struct Operation {
    std::vector<Point> waits;
    std::vector<Point> signals;
    IssueFn issue;
    // Host timepoints registered to wake the issue thread (cancelled once issued).
    std::vector<std::pair<hal::Semaphore*, hal::Semaphore::TimepointId>> notifications;
    std::vector<base::Ref<Event>> events;  // kept until completion
    PendingQueue* queue = nullptr;
  };
  // Wakes the issue thread; shared with semaphore callbacks that may outlive the queue.
  struct Wakeup {
    std::mutex mutex;
    std::condition_variable cv;
    bool poked = false;
  };

  void IssueLoop();
  void CompletionLoop();
  // After a quiet interval with work in flight: if the stream reports a device fault (a sticky
  // error, after which CUDA never runs the host callbacks), fails every in-flight operation's
  // signals with it instead of letting waiters hang. The operations are left allocated.
  void CheckForDeviceFault(std::unique_lock<std::mutex>& lock);
  // Outcome of looking at an operation's waits.
  enum class Readiness { kBlocked, kReady, kFailed };
  Readiness Evaluate(Operation& op, std::vector<base::Ref<Event>>* device_waits, base::Status* failure);
  base::Status Issue(Operation& op, const std::vector<base::Ref<Event>>& device_waits);
  static void CancelNotifications(Operation& op);
  static void FailSignals(Operation& op, const base::Status& status);
  static void CUDA_CB OnHostFunc(void* user_data);
  void Poke();

  const base::Ref<Context> context_;
  const base::Ref<EventPool> events_;
  std::shared_ptr<Wakeup> wakeup_;

  std::mutex mutex_;  // guards pending_, stopping_
  std::list<std::unique_ptr<Operation>> pending_;
  bool stopping_ = false;

  std::mutex completion_mutex_;  // guards completed_, in_flight_, completion_stopping_
  std::condition_variable completion_cv_;
  std::deque<Operation*> completed_;
  // Issued operations whose host callback has not run yet.
  std::unordered_set<Operation*> in_flight_;
  bool completion_stopping_ = false;

  std::thread issue_thread_;
  std::thread completion_thread_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_PENDING_QUEUE_H_
