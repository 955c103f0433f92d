#include "drivers/cuda/in_flight.h"

#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

using base::Status;

void InFlight::Push(Operation operation) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    operations_.push_back(std::move(operation));
  }
  cv_.notify_one();
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
  }
  for (Operation& operation : retired) Complete(operation, fault);
}

bool InFlight::WaitAndRetire() {
  base::Ref<Event> oldest;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return stopping_ || !operations_.empty(); });
    if (operations_.empty()) return false;
    oldest = operations_.front().done;
  }
  // Errors surface again through cuEventQuery in Retire.
  context_->Activate().IgnoreError();
  context_->syms().cuEventSynchronize(oldest->handle());
  Retire();
  return true;
}

void InFlight::Complete(Operation& operation, const Status& fault) {
  Status failure = fault.ok() ? operation.failure : fault;
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
