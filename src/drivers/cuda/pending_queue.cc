// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/pending_queue.h"

#include "drivers/cuda/semaphore.h"
#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

using base::Ref;
using base::Status;

PendingQueue::PendingQueue(Ref<Context> context, Ref<EventPool> events)
    : context_(std::move(context)),
      events_(std::move(events)),
      in_flight_(base::MakeRef<InFlight>(context_)),
      wakeup_(std::make_shared<Wakeup>()) {
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
  // Issued operations complete (or fail with a device fault) on the completion thread.
  if (context_->Activate().ok()) context_->syms().cuStreamSynchronize(context_->dispatch_stream());
  in_flight_->Stop();
  completion_thread_.join();
  in_flight_->Retire();
}

void PendingQueue::Poke() {
  {
    std::lock_guard<std::mutex> lock(wakeup_->mutex);
    wakeup_->poked = true;
  }
  wakeup_->cv.notify_one();
}

void PendingQueue::Submit(std::span<const hal::SemaphorePoint> wait,
                          std::span<const hal::SemaphorePoint> signal, IssueFn issue,
                          std::function<Status()> verify) {
  auto op = std::make_unique<Operation>();
  op->issue = std::move(issue);
  op->verify = std::move(verify);
  op->waits.reserve(wait.size());
  for (const hal::SemaphorePoint& point : wait) {
    op->waits.push_back({Ref<hal::Semaphore>::Retain(point.semaphore), point.value});
  }
  op->signals.reserve(signal.size());
  for (const hal::SemaphorePoint& point : signal) {
    op->signals.push_back({Ref<hal::Semaphore>::Retain(point.semaphore), point.value});
  }
  // Ready now and nothing parked ahead of it: issue here, sparing the hop to the issue thread.
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (pending_.empty() && !stopping_) {
      std::vector<Ref<Event>> device_waits;
      Status failure;
      bool host_reached = false;
      Readiness readiness = Evaluate(*op, &device_waits, &failure, &host_reached);
      if (readiness == Readiness::kReady && !op->issue && host_reached && StreamIdle()) {
        // Nothing to order on the device: complete here, without an event.
        lock.unlock();
        for (const Point& point : op->signals) point.semaphore->Signal(point.value).IgnoreError();
        return;
      }
      if (readiness == Readiness::kReady) {
        failure = Issue(*op, device_waits);
        if (failure.ok()) return;
        readiness = Readiness::kFailed;
      }
      if (readiness == Readiness::kFailed) {
        lock.unlock();
        FailSignals(*op, failure);
        return;
      }
    }
  }
  // Registered before the operation is visible to the issue thread, which owns it afterwards; a
  // signal landing in between pokes a scan that runs after the push below.
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

bool PendingQueue::StreamIdle() {
  if (!last_done_) return true;
  if (!context_->Activate().ok()) return false;
  if (context_->syms().cuEventQuery(last_done_->handle()) != CUDA_SUCCESS) return false;
  last_done_ = nullptr;
  return true;
}

PendingQueue::Readiness PendingQueue::Evaluate(Operation& op, std::vector<Ref<Event>>* device_waits,
                                               Status* failure, bool* host_reached) {
  device_waits->clear();
  if (host_reached) *host_reached = true;
  // Any failed wait decides the operation, whatever the other waits are doing.
  // Values on the stack for the usual handful of waits (no heap allocation per operation).
  constexpr size_t kInline = 8;
  uint64_t inline_values[kInline];
  std::vector<uint64_t> heap_values;
  uint64_t* values = inline_values;
  if (op.waits.size() > kInline) {
    heap_values.resize(op.waits.size());
    values = heap_values.data();
  }
  for (size_t i = 0; i < op.waits.size(); ++i) {
    base::StatusOr<uint64_t> value = op.waits[i].semaphore->Query();
    if (!value.ok()) {
      *failure = value.status();
      return Readiness::kFailed;
    }
    values[i] = *value;
  }
  for (size_t i = 0; i < op.waits.size(); ++i) {
    const Point& wait = op.waits[i];
    if (values[i] >= wait.value) continue;
    if (host_reached) *host_reached = false;
    if (Semaphore* cuda_semaphore = Semaphore::Cast(wait.semaphore.get())) {
      InFlight* issuer = nullptr;
      if (Ref<Event> event = cuda_semaphore->FindDeviceTimepoint(wait.value, &issuer)) {
        // Recorded on this stream: stream order already puts it first.
        if (issuer != in_flight_.get()) device_waits->push_back(std::move(event));
        continue;
      }
    }
    return Readiness::kBlocked;
  }
  return Readiness::kReady;
}

void PendingQueue::IssueLoop() {
  context_->Activate().IgnoreError();
  while (true) {
    {
      std::unique_lock<std::mutex> lock(wakeup_->mutex);
      wakeup_->cv.wait(lock, [&] { return wakeup_->poked; });
      wakeup_->poked = false;
    }
    // Issue everything that is ready; each issue may make parked operations ready.
    while (true) {
      std::unique_ptr<Operation> failed;
      Status failure;
      bool issued = false;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_) return;
        std::vector<Ref<Event>> device_waits;
        for (auto it = pending_.begin(); it != pending_.end(); ++it) {
          const Readiness readiness = Evaluate(**it, &device_waits, &failure);
          if (readiness == Readiness::kBlocked) continue;
          std::unique_ptr<Operation> op = std::move(*it);
          pending_.erase(it);
          CancelNotifications(*op);
          if (readiness == Readiness::kReady) failure = Issue(*op, device_waits);
          if (failure.ok()) {
            issued = true;
          } else {
            failed = std::move(op);
          }
          break;
        }
      }
      if (failed) {
        FailSignals(*failed, failure);
        continue;
      }
      if (!issued) break;
    }
  }
}

Status PendingQueue::Issue(Operation& op, const std::vector<Ref<Event>>& device_waits) {
  RT_RETURN_IF_ERROR(context_->Activate());
  const DynamicSymbols& syms = context_->syms();
  CUstream stream = context_->dispatch_stream();
  InFlight::Operation issued;
  for (const Ref<Event>& event : device_waits) {
    RT_CUDA_RETURN_IF_ERROR(syms, cuStreamWaitEvent(stream, event->handle(), 0), "cuStreamWaitEvent");
    issued.events.push_back(event);
  }
  // Work that fails to enqueue may have enqueued part of itself: its resources are still released
  // only once the stream has passed this point, and its signals then fail.
  if (op.issue) issued.failure = op.issue(stream);
  // One event serves as every signal's device timepoint and as the completion point.
  RT_ASSIGN_OR_RETURN(issued.done, events_->Acquire());
  RT_CUDA_RETURN_IF_ERROR(syms, cuEventRecord(issued.done->handle(), stream), "cuEventRecord");
  last_done_ = issued.done;
  if (issued.failure.ok()) {
    for (const Point& signal : op.signals) {
      if (Semaphore* cuda_semaphore = Semaphore::Cast(signal.semaphore.get())) {
        cuda_semaphore->AddDeviceTimepoint(signal.value, issued.done, in_flight_);
      }
    }
  }
  issued.waits = std::move(op.waits);
  issued.signals = std::move(op.signals);
  issued.resources = std::move(op.issue);
  issued.verify = std::move(op.verify);
  in_flight_->Push(std::move(issued));
  return Status::Ok();
}

void PendingQueue::CompletionLoop() {
  context_->Activate().IgnoreError();
  while (in_flight_->WaitAndRetire()) {
  }
}

void PendingQueue::CancelNotifications(Operation& op) {
  for (auto& [semaphore, id] : op.notifications) semaphore->CancelNotify(id);
  op.notifications.clear();
}

void PendingQueue::FailSignals(Operation& op, const Status& status) {
  for (const Point& signal : op.signals) signal.semaphore->Fail(status);
}

}  // namespace iree_rt::drivers::cuda
