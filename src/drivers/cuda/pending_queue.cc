#include "drivers/cuda/pending_queue.h"

#include <chrono>

#include "drivers/cuda/semaphore.h"
#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

using base::Ref;
using base::Status;

PendingQueue::PendingQueue(Ref<Context> context, Ref<EventPool> events)
    : context_(std::move(context)), events_(std::move(events)), wakeup_(std::make_shared<Wakeup>()) {
  issue_thread_ = std::thread([this] { IssueLoop(); });
  completion_thread_ = std::thread([this] { CompletionLoop(); });
}

PendingQueue::~PendingQueue() {
  std::list<std::unique_ptr<Operation>> cancelled;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    cancelled.swap(pending_);
  }
  Poke();
  issue_thread_.join();
  for (std::unique_ptr<Operation>& op : cancelled) {
    CancelNotifications(*op);
    FailSignals(*op, base::MakeStatus(base::StatusCode::kCancelled,
                                      "the CUDA device was destroyed before the operation's waits were met"));
  }
  // Issued operations complete through host callbacks; let them drain, then stop.
  if (context_->Activate().ok()) {
    context_->syms().cuStreamSynchronize(context_->dispatch_stream());
    context_->syms().cuStreamSynchronize(context_->callback_stream());
  }
  {
    std::lock_guard<std::mutex> lock(completion_mutex_);
    completion_stopping_ = true;
  }
  completion_cv_.notify_all();
  completion_thread_.join();
}

void PendingQueue::Poke() {
  {
    std::lock_guard<std::mutex> lock(wakeup_->mutex);
    wakeup_->poked = true;
  }
  wakeup_->cv.notify_one();
}

void PendingQueue::Submit(std::span<const hal::SemaphorePoint> wait,
                          std::span<const hal::SemaphorePoint> signal, IssueFn issue) {
  auto op = std::make_unique<Operation>();
  op->queue = this;
  op->issue = std::move(issue);
  for (const hal::SemaphorePoint& point : wait) {
    op->waits.push_back({Ref<hal::Semaphore>::Retain(point.semaphore), point.value});
  }
  for (const hal::SemaphorePoint& point : signal) {
    op->signals.push_back({Ref<hal::Semaphore>::Retain(point.semaphore), point.value});
  }
  // Registered before the operation is visible to the issue thread, which owns it afterwards.
  for (const Point& point : op->waits) {
    hal::Semaphore::TimepointId id =
        point.semaphore->NotifyAt(point.value, [wakeup = wakeup_](Status) {
          {
            std::lock_guard<std::mutex> lock(wakeup->mutex);
            wakeup->poked = true;
          }
          wakeup->cv.notify_one();
        });
    op->notifications.emplace_back(point.semaphore.get(), id);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.push_back(std::move(op));
  }
  Poke();
}

PendingQueue::Readiness PendingQueue::Evaluate(Operation& op, std::vector<Ref<Event>>* device_waits,
                                               Status* failure) {
  device_waits->clear();
  // Any failed wait decides the operation, whatever the other waits are doing.
  std::vector<uint64_t> values;
  values.reserve(op.waits.size());
  for (const Point& wait : op.waits) {
    base::StatusOr<uint64_t> value = wait.semaphore->Query();
    if (!value.ok()) {
      *failure = value.status();
      return Readiness::kFailed;
    }
    values.push_back(*value);
  }
  for (size_t i = 0; i < op.waits.size(); ++i) {
    const Point& wait = op.waits[i];
    if (values[i] >= wait.value) continue;
    if (Semaphore* cuda_semaphore = Semaphore::Cast(wait.semaphore.get())) {
      if (Ref<Event> event = cuda_semaphore->FindDeviceTimepoint(wait.value)) {
        device_waits->push_back(std::move(event));
        continue;
      }
    }
    return Readiness::kBlocked;
  }
  return Readiness::kReady;
}

void PendingQueue::IssueLoop() {
  Status bound = context_->Activate();
  while (true) {
    {
      std::unique_lock<std::mutex> lock(wakeup_->mutex);
      wakeup_->cv.wait(lock, [&] { return wakeup_->poked; });
      wakeup_->poked = false;
    }
    // Issue everything that is ready; each issue may make later operations ready.
    while (true) {
      std::unique_ptr<Operation> op;
      std::vector<Ref<Event>> device_waits;
      Status failure;
      Readiness readiness = Readiness::kBlocked;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_) return;
        for (auto it = pending_.begin(); it != pending_.end(); ++it) {
          readiness = Evaluate(**it, &device_waits, &failure);
          if (readiness != Readiness::kBlocked) {
            op = std::move(*it);
            pending_.erase(it);
            break;
          }
        }
      }
      if (!op) break;
      CancelNotifications(*op);
      if (readiness == Readiness::kFailed) {
        FailSignals(*op, failure);
        continue;
      }
      // Once the host callback is launched it owns the operation (it may run before Issue returns).
      Operation* raw = op.release();
      Status status = bound.ok() ? Issue(*raw, device_waits) : bound;
      if (!status.ok()) {
        op.reset(raw);  // never launched: still ours
        FailSignals(*op, status);
      }
    }
  }
}

Status PendingQueue::Issue(Operation& op, const std::vector<Ref<Event>>& device_waits) {
  const DynamicSymbols& syms = context_->syms();
  CUstream stream = context_->dispatch_stream();
  for (const Ref<Event>& event : device_waits) {
    RT_CUDA_RETURN_IF_ERROR(syms, cuStreamWaitEvent(stream, event->handle(), 0), "cuStreamWaitEvent");
    op.events.push_back(event);
  }
  if (op.issue) RT_RETURN_IF_ERROR(op.issue(stream));
  Ref<Event> last;
  for (const Point& signal : op.signals) {
    Semaphore* cuda_semaphore = Semaphore::Cast(signal.semaphore.get());
    if (!cuda_semaphore) continue;
    RT_ASSIGN_OR_RETURN(last, events_->Acquire());
    RT_CUDA_RETURN_IF_ERROR(syms, cuEventRecord(last->handle(), stream), "cuEventRecord");
    cuda_semaphore->AddDeviceTimepoint(signal.value, last);
    op.events.push_back(last);
  }
  if (!last) {
    RT_ASSIGN_OR_RETURN(last, events_->Acquire());
    RT_CUDA_RETURN_IF_ERROR(syms, cuEventRecord(last->handle(), stream), "cuEventRecord");
    op.events.push_back(last);
  }
  // Completion is observed on the callback stream so host callbacks never stall dispatches.
  RT_CUDA_RETURN_IF_ERROR(syms, cuStreamWaitEvent(context_->callback_stream(), last->handle(), 0),
                          "cuStreamWaitEvent (callback stream)");
  {
    std::lock_guard<std::mutex> lock(completion_mutex_);
    in_flight_.insert(&op);
  }
  CUresult result = syms.cuLaunchHostFunc(context_->callback_stream(), &PendingQueue::OnHostFunc, &op);
  if (result != CUDA_SUCCESS) {
    std::lock_guard<std::mutex> lock(completion_mutex_);
    in_flight_.erase(&op);
    return ToStatus(syms, result, "cuLaunchHostFunc");
  }
  return Status::Ok();
}

void CUDA_CB PendingQueue::OnHostFunc(void* user_data) {
  // Runs on a CUDA-owned thread where CUDA calls are forbidden: only hand the operation over.
  auto* op = static_cast<Operation*>(user_data);
  PendingQueue* queue = op->queue;
  {
    std::lock_guard<std::mutex> lock(queue->completion_mutex_);
    queue->in_flight_.erase(op);
    queue->completed_.push_back(op);
  }
  queue->completion_cv_.notify_one();
}

void PendingQueue::CompletionLoop() {
  context_->Activate().IgnoreError();
  while (true) {
    Operation* raw = nullptr;
    {
      std::unique_lock<std::mutex> lock(completion_mutex_);
      while (completed_.empty()) {
        if (completion_stopping_ && in_flight_.empty()) return;
        if (completion_stopping_) {
          // Callbacks that never arrive (a context lost to a device fault) must not hang
          // destruction; their operations are leaked rather than freed under the GPU.
          if (completion_cv_.wait_for(lock, std::chrono::seconds(5)) == std::cv_status::timeout &&
              completed_.empty()) {
            return;
          }
        } else if (completion_cv_.wait_for(lock, std::chrono::seconds(1)) == std::cv_status::timeout &&
                   completed_.empty() && !in_flight_.empty()) {
          CheckForDeviceFault(lock);
        }
      }
      raw = completed_.front();
      completed_.pop_front();
    }
    std::unique_ptr<Operation> op(raw);
    // Stream waits on device timepoints do not see a failed timeline; check it here.
    Status failure;
    for (const Point& wait : op->waits) {
      base::StatusOr<uint64_t> value = wait.semaphore->Query();
      if (!value.ok()) {
        failure = value.status();
        break;
      }
    }
    // Resources go first: a waiter woken by the signal may expect its buffers released.
    std::vector<Point> signals = std::move(op->signals);
    op.reset();
    for (const Point& signal : signals) {
      if (!failure.ok()) {
        signal.semaphore->Fail(failure);
      } else {
        signal.semaphore->Signal(signal.value).IgnoreError();
      }
    }
  }
}

void PendingQueue::CheckForDeviceFault(std::unique_lock<std::mutex>& lock) {
  lock.unlock();
  const CUresult result = context_->syms().cuStreamQuery(context_->dispatch_stream());
  lock.lock();
  if (result == CUDA_SUCCESS || result == CUDA_ERROR_NOT_READY) return;
  const Status fault = ToStatus(context_->syms(), result, "device fault detected on the dispatch stream");
  std::unordered_set<Operation*> abandoned;
  abandoned.swap(in_flight_);
  lock.unlock();
  // Should a callback still arrive, its operation completes normally against failed timelines.
  for (Operation* op : abandoned) FailSignals(*op, fault);
  lock.lock();
}

void PendingQueue::CancelNotifications(Operation& op) {
  for (auto& [semaphore, id] : op.notifications) semaphore->CancelNotify(id);
  op.notifications.clear();
}

void PendingQueue::FailSignals(Operation& op, const Status& status) {
  for (const Point& signal : op.signals) signal.semaphore->Fail(status);
}

}  // namespace iree_rt::drivers::cuda
