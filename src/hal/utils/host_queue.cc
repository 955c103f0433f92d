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

HostQueue::HostQueue(Executor executor) : executor_(std::move(executor)) {}

HostQueue::~HostQueue() {
  std::set<std::shared_ptr<Operation>> waiting;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    shutting_down_ = true;
    waiting.swap(waiting_);
  }
  Status cancelled(base::StatusCode::kCancelled, "device destroyed with queue work still waiting");
  for (const std::shared_ptr<Operation>& op : waiting) {
    bool claimed = false;
    {
      std::lock_guard<std::mutex> lock(op->mutex);
      if (!op->dispatched) claimed = op->dispatched = true;
    }
    if (!claimed) continue;
    for (size_t i = 0; i < op->wait_semaphores.size(); ++i) {
      if (op->wait_ids[i]) op->wait_semaphores[i]->CancelNotify(op->wait_ids[i]);
    }
    for (const Ref<Semaphore>& semaphore : op->signal_semaphores) semaphore->Fail(cancelled);
    op->work = nullptr;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  idle_cv_.wait(lock, [&] { return running_ == 0; });
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
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_.insert(op);
  }
  for (size_t i = 0; i < wait.size(); ++i) {
    Semaphore::TimepointId id = wait[i].semaphore->NotifyAt(
        wait[i].value, [this, op](Status status) { OnWaitResolved(op, std::move(status)); });
    std::lock_guard<std::mutex> lock(op->mutex);
    op->wait_ids[i] = id;
  }
  OnWaitResolved(op, Status::Ok());
}

void HostQueue::OnWaitResolved(const std::shared_ptr<Operation>& op, Status status) {
  {
    std::lock_guard<std::mutex> lock(op->mutex);
    if (op->dispatched) return;
    if (!status.ok() && op->failure.ok()) op->failure = std::move(status);
    // A failed wait decides the op at once; the other waits no longer matter.
    if (--op->remaining > 0 && op->failure.ok()) return;
    op->dispatched = true;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_.erase(op);
    ++running_;
  }
  if (!op->failure.ok()) {
    // Waits registered after this point see |dispatched| and return when they fire.
    std::vector<Semaphore::TimepointId> ids;
    {
      std::lock_guard<std::mutex> lock(op->mutex);
      ids = op->wait_ids;
    }
    for (size_t i = 0; i < ids.size(); ++i) {
      if (ids[i]) op->wait_semaphores[i]->CancelNotify(ids[i]);
    }
  }
  executor_([this, op] { Run(op); });
}

void HostQueue::Run(const std::shared_ptr<Operation>& op) {
  Status status = op->failure;
  if (status.ok()) status = op->work();
  op->work = nullptr;  // release captured resources before waking anyone
  op->wait_semaphores.clear();
  for (size_t i = 0; i < op->signal_semaphores.size() && status.ok(); ++i) {
    base::StatusOr<uint64_t> current = op->signal_semaphores[i]->Query();
    if (!current.ok()) continue;  // already failed by someone else: nothing to add
    if (*current >= op->signal_values[i]) continue;
    Status signaled = op->signal_semaphores[i]->Signal(op->signal_values[i]);
    if (!signaled.ok() && signaled.code() != base::StatusCode::kOutOfRange) status = signaled;
  }
  if (!status.ok()) {
    for (const Ref<Semaphore>& semaphore : op->signal_semaphores) semaphore->Fail(status);
  }
  op->signal_semaphores.clear();
  std::lock_guard<std::mutex> lock(mutex_);
  if (--running_ == 0) idle_cv_.notify_all();
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
