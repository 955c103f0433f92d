// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/in_flight.h"

#include <chrono>
#include <thread>

#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

using base::Status;

void InFlight::Push(Operation operation) {
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    operations_.push_back(std::move(operation));
    size_.store(operations_.size(), std::memory_order_relaxed);
    wake = parked_;
  }
  // Only a parked thread needs the (syscall) wake-up; a spinning one sees size_.
  if (wake) cv_.notify_one();
}

bool InFlight::empty() {
  std::lock_guard<std::mutex> lock(mutex_);
  return operations_.empty();
}

void InFlight::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
}

void InFlight::Retire() {
  std::vector<Operation> retired;
  Status fault;
  context_->Activate().IgnoreError();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    while (!operations_.empty()) {
      const CUresult result = context_->syms().cuEventQuery(operations_.front().done->handle());
      if (result == CUDA_ERROR_NOT_READY) break;
      if (result != CUDA_SUCCESS) {
        // Sticky: nothing still in flight will ever complete.
        fault = ToStatus(context_->syms(), result, "device fault detected on the dispatch stream");
        for (Operation& operation : operations_) retired.push_back(std::move(operation));
        operations_.clear();
        break;
      }
      retired.push_back(std::move(operations_.front()));
      operations_.pop_front();
    }
    size_.store(operations_.size(), std::memory_order_relaxed);
  }
  for (Operation& operation : retired) Complete(operation, fault);
}

void InFlight::RetireThrough(const Event* done) {
  std::vector<Operation> retired;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t count = 0;
    while (count < operations_.size() && operations_[count].done.get() != done) ++count;
    if (count == operations_.size()) return;
    for (size_t i = 0; i <= count; ++i) {
      retired.push_back(std::move(operations_.front()));
      operations_.pop_front();
    }
    size_.store(operations_.size(), std::memory_order_relaxed);
  }
  for (Operation& operation : retired) Complete(operation, Status::Ok());
}

bool InFlight::WaitAndRetire() {
  using Clock = std::chrono::steady_clock;
  // Back-to-back synchronous calls leave the queue empty for a few microseconds between them:
  // spinning that long before parking spares each submission a futex wake-up.
  const Clock::time_point spin_until = Clock::now() + kSpinBeforeParking;
  while (size_.load(std::memory_order_relaxed) == 0 && Clock::now() < spin_until) std::this_thread::yield();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    parked_ = true;
    cv_.wait(lock, [&] { return stopping_ || !operations_.empty(); });
    parked_ = false;
    if (operations_.empty()) return false;
  }
  // A synchronous caller usually waits for this work itself within microseconds, and then
  // retires it; meanwhile stay off the driver (a second thread spinning in it slows the
  // submitter's launches), polling only now and then so that other work still retires.
  const Clock::time_point grace_until = Clock::now() + kGrace;
  Clock::time_point next_poll = Clock::now() + kPollWhileHostWaits;
  while (size_.load(std::memory_order_relaxed) != 0) {
    const Clock::time_point now = Clock::now();
    if (host_syncs_.load(std::memory_order_acquire) > 0) {
      if (now >= next_poll) {
        Retire();
        next_poll = now + kPollWhileHostWaits;
      }
    } else if (now >= grace_until) {
      break;
    }
    std::this_thread::yield();
  }
  base::Ref<Event> oldest;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (operations_.empty()) return true;
    oldest = operations_.front().done;
  }
  // Errors surface again through cuEventQuery in Retire.
  context_->Activate().IgnoreError();
  context_->syms().cuEventSynchronize(oldest->handle());
  // A host waiter that synchronised too retires now; give it the lead for a moment.
  const Clock::time_point yield_until = Clock::now() + kYieldToHostWaiter;
  while (host_syncs_.load(std::memory_order_acquire) > 0 && Clock::now() < yield_until) std::this_thread::yield();
  Retire();
  return true;
}

void InFlight::Complete(Operation& operation, const Status& fault) {
  Status failure = fault.ok() ? operation.failure : fault;
  if (failure.ok() && operation.verify) failure = operation.verify();
  operation.verify = nullptr;
  for (const Point& wait : operation.waits) {
    if (!failure.ok()) break;
    base::StatusOr<uint64_t> value = wait.semaphore->Query();
    if (!value.ok()) failure = value.status();
  }
  operation.resources = nullptr;
  operation.events.clear();
  operation.done = nullptr;
  for (const Point& signal : operation.signals) {
    if (!failure.ok()) {
      signal.semaphore->Fail(failure);
    } else {
      signal.semaphore->Signal(signal.value).IgnoreError();
    }
  }
}

}  // namespace iree_rt::drivers::cuda
