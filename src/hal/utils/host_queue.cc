#include "hal/utils/host_queue.h"

#include <deque>
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
  std::vector<uint64_t> signal_values;
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
    : executor_(std::move(executor)), shared_(std::make_shared<Shared>()) {
  shared_->queue = this;
}

HostQueue::~HostQueue() {
  // Ops are claimed (dispatched = true) only under shared_->mutex, together with the running
  // count, so every op is either cancelled here or counted and waited for below. A callback that
  // fires later finds its op claimed and never touches this queue.
  std::vector<std::shared_ptr<Operation>> claimed;
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    for (const std::shared_ptr<Operation>& op : shared_->waiting) {
      std::lock_guard<std::mutex> op_lock(op->mutex);
      if (!op->dispatched) {
        op->dispatched = true;
        claimed.push_back(op);
      }
    }
    shared_->waiting.clear();
  }
  Status cancelled(base::StatusCode::kCancelled, "device destroyed with queue work still waiting");
  for (const std::shared_ptr<Operation>& op : claimed) {
    CancelWaits(*op);
    for (const Ref<Semaphore>& semaphore : op->signal_semaphores) semaphore->Fail(cancelled);
    op->work = nullptr;
  }
  std::unique_lock<std::mutex> lock(shared_->mutex);
  shared_->idle_cv.wait(lock, [&] { return shared_->running == 0; });
}

void HostQueue::CancelWaits(Operation& op) {
  // Waits registered after the op was decided see |dispatched| and return when they fire.
  std::vector<Semaphore::TimepointId> ids;
  {
    std::lock_guard<std::mutex> lock(op.mutex);
    ids = op.wait_ids;
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i]) op.wait_semaphores[i]->CancelNotify(ids[i]);
  }
}

void HostQueue::Submit(std::span<const SemaphorePoint> wait, std::span<const SemaphorePoint> signal,
                       Work work) {
  auto op = std::make_shared<Operation>();
  op->work = std::move(work);
  for (const SemaphorePoint& point : signal) {
    op->signal_semaphores.push_back(Ref<Semaphore>::Retain(point.semaphore));
    op->signal_values.push_back(point.value);
  }
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
  queue->executor_([queue, op] { queue->Run(op); });
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
  if (status.ok()) status = op->work();
  op->work = nullptr;  // release captured resources before waking anyone
  op->wait_semaphores.clear();
  std::vector<SemaphorePoint> signal(op->signal_semaphores.size());
  for (size_t i = 0; i < signal.size(); ++i) {
    signal[i] = SemaphorePoint{op->signal_semaphores[i].get(), op->signal_values[i]};
  }
  Finish(signal, std::move(status));
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
