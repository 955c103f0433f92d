// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// HostQueue: orders host-executed work by semaphores without blocking the submitter.
//
// Submit() retains the wait and signal semaphores, registers a timepoint on each unmet wait and
// returns. When the last wait is met the work is handed to the executor (inline for local-sync,
// a worker for local-task); afterwards the signals are advanced, or failed with the work's error
// or a failed wait's status. Destruction cancels work still waiting (failing its signals with
// CANCELLED) and waits for work already handed to the executor.
#ifndef IREE_RT_HAL_UTILS_HOST_QUEUE_H_
#define IREE_RT_HAL_UTILS_HOST_QUEUE_H_

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "base/status.h"
#include "hal/semaphore.h"

namespace iree_rt::hal::utils {

class HostQueue {
 public:
  using Work = std::function<base::Status()>;
  // Runs a closure: inline, or later on another thread. Must not drop it.
  using Executor = std::function<void(std::function<void()>)>;

  explicit HostQueue(Executor executor);
  ~HostQueue();
  HostQueue(const HostQueue&) = delete;
  HostQueue& operator=(const HostQueue&) = delete;

  void Submit(std::span<const SemaphorePoint> wait, std::span<const SemaphorePoint> signal, Work work);

  // Runs |work| on the calling thread and signals, when every wait is already met: nothing is
  // allocated or handed to the executor. Returns false, having done nothing, when a wait is
  // pending or failed (Submit then handles it). For work cheaper than a thread hand-off.
  template <typename F>
  bool TryRunNow(std::span<const SemaphorePoint> wait, std::span<const SemaphorePoint> signal, F&& work) {
    if (!WaitsMet(wait)) return false;
    Finish(signal, work());
    return true;
  }

  // An executor that runs closures on the calling thread, turning nested submissions (work whose
  // signal releases more work) into a loop instead of recursion.
  static void RunInline(std::function<void()> closure);

 private:
  struct Operation;
  // Bookkeeping shared with the wait callbacks, which may fire after the queue is gone.
  struct Shared;
  static void OnWaitResolved(const std::shared_ptr<Shared>& shared,
                             const std::shared_ptr<Operation>& op, base::Status status);
  static void CancelWaits(Operation& op);
  static bool WaitsMet(std::span<const SemaphorePoint> wait);
  // Advances every signal, or fails them all with |status| (the work's error).
  static void Finish(std::span<const SemaphorePoint> signal, base::Status status);
  void Run(const std::shared_ptr<Operation>& op);

  Executor executor_;
  std::shared_ptr<Shared> shared_;
  // Made up front: Run and the destructor report without allocating.
  base::Status out_of_memory_;
  base::Status cancelled_;
};

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_HOST_QUEUE_H_
