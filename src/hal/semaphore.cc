// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/semaphore.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

namespace iree_rt::hal {

using base::Status;
using base::StatusOr;

StatusOr<uint64_t> Semaphore::Query() { return QueryImpl(); }

Status Semaphore::Signal(uint64_t value) { return SignalImpl(value); }

void Semaphore::Fail(Status status) {
  if (status.ok()) status = Status(base::StatusCode::kUnknown, "semaphore failed");
  FailImpl(std::move(status));
}

Status Semaphore::Wait(uint64_t value, int64_t timeout_ns) { return WaitImpl(value, timeout_ns); }

Semaphore::TimepointId Semaphore::NotifyAt(uint64_t value, Callback callback) {
  return NotifyAtImpl(value, std::move(callback));
}

bool Semaphore::CancelNotify(TimepointId id) { return CancelNotifyImpl(id); }

namespace {

// Shared between the waiting thread and the callbacks, which may outlive the wait on timeout.
struct MultiWaitState {
  std::mutex mutex;
  std::condition_variable cv;
  size_t remaining;
  bool decided = false;
  Status result;
};

}  // namespace

Status WaitSemaphores(WaitMode mode, std::span<const SemaphorePoint> points, int64_t timeout_ns) {
  for (const SemaphorePoint& point : points) {
    if (!point.semaphore) return base::InvalidArgumentError("null semaphore in wait list");
  }
  if (points.empty()) return Status::Ok();
  if (points.size() == 1) return points[0].semaphore->Wait(points[0].value, timeout_ns);

  // Poll first: the common case is already satisfied and needs no callbacks.
  size_t reached = 0;
  for (const SemaphorePoint& point : points) {
    StatusOr<uint64_t> value = point.semaphore->Query();
    if (!value.ok()) return value.status();
    if (*value >= point.value) {
      if (mode == WaitMode::kAny) return Status::Ok();
      ++reached;
    }
  }
  if (reached == points.size()) return Status::Ok();
  if (timeout_ns <= 0) return base::DeadlineExceededError("semaphore wait timed out");

  auto state = std::make_shared<MultiWaitState>();
  state->remaining = mode == WaitMode::kAll ? points.size() : 1;
  std::vector<Semaphore::TimepointId> ids;
  ids.reserve(points.size());
  for (const SemaphorePoint& point : points) {
    ids.push_back(point.semaphore->NotifyAt(point.value, [state](Status status) {
      std::lock_guard<std::mutex> lock(state->mutex);
      if (state->decided) return;
      if (!status.ok()) {
        state->result = std::move(status);
        state->decided = true;
      } else if (--state->remaining == 0) {
        state->decided = true;
      }
      if (state->decided) state->cv.notify_all();
    }));
  }
  bool decided;
  {
    std::unique_lock<std::mutex> lock(state->mutex);
    auto pred = [&] { return state->decided; };
    if (timeout_ns == kInfiniteTimeout) {
      state->cv.wait(lock, pred);
    } else {
      state->cv.wait_for(lock, std::chrono::nanoseconds(timeout_ns), pred);
    }
    decided = state->decided;
  }
  // Unregister what did not fire, so repeated timed-out waits do not pile up callbacks.
  for (size_t i = 0; i < points.size(); ++i) points[i].semaphore->CancelNotify(ids[i]);
  if (!decided) return base::DeadlineExceededError("semaphore wait timed out");
  std::lock_guard<std::mutex> lock(state->mutex);
  return state->result;
}

}  // namespace iree_rt::hal
