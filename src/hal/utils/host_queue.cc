// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/host_queue.h"

#include <deque>
#include <new>
#include <vector>

namespace iree_rt::hal::utils {

using base::Ref;
using base::Status;

struct HostQueue::Operation {
  std::mutex mutex;
  size_t remaining = 0;
  bool dispatched = false;
  Status failure;
  std::vector<Ref<Semaphore>> wait_semaphores;
  std::vector<Semaphore::TimepointId> wait_ids;
  std::vector<Ref<Semaphore>> signal_semaphores;
  std::vector<SemaphorePoint> signal_points;  // built at submission: Run must not allocate
  Work work;
};

struct HostQueue::Shared {
  HostQueue* queue;
  std::mutex mutex;
  std::condition_variable idle_cv;
  std::set<std::shared_ptr<Operation>> waiting;  // ops with unmet waits
  size_t running = 0;                           // ops claimed for the executor, not yet finished
};

HostQueue::HostQueue(Executor executor)
    : executor_(std::move(executor)),
      shared_(std::make_shared<Shared>()),
      out_of_memory_(base::StatusCode::kResourceExhausted, "out of host memory running queue work"),
      cancelled_(base::StatusCode::kCancelled, "device destroyed with queue work still waiting") {
  shared_->queue = this;
}

HostQueue::~HostQueue() {
  // Ops are claimed (dispatched = true) only under shared_->mutex, together with the running
  // count, so every op is either cancelled here or counted and waited for below. A callback that
  // fires later finds its op claimed and never touches this queue.
  // Nothing here allocates (a destructor that throws terminates): the waiting set is taken
  // whole and the ops already claimed elsewhere are dropped from it.
  std::set<std::shared_ptr<Operation>> claimed;
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    claimed.swap(shared_->waiting);
    for (auto it = claimed.begin(); it != claimed.end();) {
      bool taken;
      {
        std::lock_guard<std::mutex> op_lock((*it)->mutex);
        taken = !(*it)->dispatched;
        (*it)->dispatched = true;
      }
      it = taken ? std::next(it) : claimed.erase(it);
    }
  }
  for (const std::shared_ptr<Operation>& op : claimed) {
    CancelWaits(*op);
    for (const Ref<Semaphore>& semaphore : op->signal_semaphores) semaphore->Fail(cancelled_);
    op->work = nullptr;
  }
  std::unique_lock<std::mutex> lock(shared_->mutex);
  shared_->idle_cv.wait(lock, [&] { return shared_->running == 0; });
}

void HostQueue::CancelWaits(Operation& op) {
  // Waits registered after the op was decided see |dispatched| and return when they fire.
  // Reads one id at a time instead of copying them: this runs where allocation must not fail.
  for (size_t i = 0; i < op.wait_semaphores.size(); ++i) {
    Semaphore::TimepointId id;
    {
      std::lock_guard<std::mutex> lock(op.mutex);
      id = op.wait_ids[i];
    }
    if (id) op.wait_semaphores[i]->CancelNotify(id);
  }
}

void HostQueue::Submit(std::span<const SemaphorePoint> wait, std::span<const SemaphorePoint> signal,
                       Work work) {
  auto op = std::make_shared<Operation>();
  op->work = std::move(work);
  for (const SemaphorePoint& point : signal) {
    op->signal_semaphores.push_back(Ref<Semaphore>::Retain(point.semaphore));
  }
  op->signal_points.assign(signal.begin(), signal.end());
  // One extra count held by Submit itself, so callbacks firing during registration cannot
  // dispatch the op before every wait is registered.
  op->remaining = wait.size() + 1;
  op->wait_ids.resize(wait.size(), 0);
  for (const SemaphorePoint& point : wait) op->wait_semaphores.push_back(Ref<Semaphore>::Retain(point.semaphore));
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->waiting.insert(op);
  }
  for (size_t i = 0; i < wait.size(); ++i) {
    Semaphore::TimepointId id = wait[i].semaphore->NotifyAt(
        wait[i].value, [shared = shared_, op](Status status) { OnWaitResolved(shared, op, std::move(status)); });
    std::lock_guard<std::mutex> lock(op->mutex);
    op->wait_ids[i] = id;
  }
  OnWaitResolved(shared_, op, Status::Ok());
}

void HostQueue::OnWaitResolved(const std::shared_ptr<Shared>& shared,
                               const std::shared_ptr<Operation>& op, Status status) {
  HostQueue* queue;
  {
    std::lock_guard<std::mutex> lock(shared->mutex);
    std::lock_guard<std::mutex> op_lock(op->mutex);
    if (op->dispatched) return;
    if (!status.ok() && op->failure.ok()) op->failure = std::move(status);
    // A failed wait decides the op at once; the other waits no longer matter.
    if (--op->remaining > 0 && op->failure.ok()) return;
    op->dispatched = true;
    shared->waiting.erase(op);
    ++shared->running;  // keeps the queue alive until Run finishes
    queue = shared->queue;
  }
  if (!op->failure.ok()) CancelWaits(*op);
  // The op is claimed and counted as running: it must run even if handing it over fails.
  try {
    queue->executor_([queue, op] { queue->Run(op); });
  } catch (const std::bad_alloc&) {
    queue->Run(op);
  }
}

bool HostQueue::WaitsMet(std::span<const SemaphorePoint> wait) {
  for (const SemaphorePoint& point : wait) {
    base::StatusOr<uint64_t> current = point.semaphore->Query();
    if (!current.ok() || *current < point.value) return false;
  }
  return true;
}

void HostQueue::Finish(std::span<const SemaphorePoint> signal, Status status) {
  for (size_t i = 0; i < signal.size() && status.ok(); ++i) {
    base::StatusOr<uint64_t> current = signal[i].semaphore->Query();
    if (!current.ok()) continue;  // already failed by someone else: nothing to add
    if (*current >= signal[i].value) continue;
    Status signaled = signal[i].semaphore->Signal(signal[i].value);
    if (!signaled.ok() && signaled.code() != base::StatusCode::kOutOfRange) status = signaled;
  }
  if (!status.ok()) {
    for (const SemaphorePoint& point : signal) point.semaphore->Fail(status);
  }
}

void HostQueue::Run(const std::shared_ptr<Operation>& op) {
  Status status = op->failure;
  // Work runs on a worker or inside whoever signaled its last wait: an exception has no caller
  // to reach there, and the signals must be decided either way.
  if (status.ok()) {
    try {
      status = op->work();
    } catch (const std::bad_alloc&) {
      status = out_of_memory_;
    }
  }
  op->work = nullptr;  // release captured resources before waking anyone
  op->wait_semaphores.clear();
  try {
    Finish(op->signal_points, std::move(status));
  } catch (const std::bad_alloc&) {  // building a signal error's message
    for (const SemaphorePoint& point : op->signal_points) point.semaphore->Fail(out_of_memory_);
  }
  op->signal_points.clear();
  op->signal_semaphores.clear();
  std::shared_ptr<Shared> shared = shared_;  // the queue may be destroyed once running hits 0
  std::lock_guard<std::mutex> lock(shared->mutex);
  if (--shared->running == 0) shared->idle_cv.notify_all();
}

void HostQueue::RunInline(std::function<void()> closure) {
  thread_local std::deque<std::function<void()>>* pending = nullptr;
  if (pending) {
    pending->push_back(std::move(closure));
    return;
  }
  std::deque<std::function<void()>> local;
  pending = &local;
  closure();
  while (!local.empty()) {
    std::function<void()> next = std::move(local.front());
    local.pop_front();
    next();
  }
  pending = nullptr;
}

}  // namespace iree_rt::hal::utils
