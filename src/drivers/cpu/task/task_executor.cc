// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/task/task_executor.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <limits>
#include <thread>

#include "base/cpu_relax.h"
#include "drivers/cpu/task/flush_denormals.h"
#include "drivers/cpu/task/futex.h"
#include "drivers/cpu/task/parallel_loop.h"
#include "drivers/cpu/task/tile_cost.h"

namespace iree_rt::drivers::cpu {
namespace {

using base::Ref;
using base::Status;
using base::StatusOr;

// 15-40 us of polling (PAUSE is 15-50 ns) before a worker sleeps: work often arrives back to
// back (the next dispatch, the next queue operation), and waking a sleeper costs a futex round
// trip of about 5 us plus the scheduler's latency.
constexpr int kIdleSpins = 1000;

// Each participant that joins a loop wakes up to this many more sleepers: a wake tree.
constexpr uint32_t kWakeFanout = 2;

thread_local const TaskExecutor* t_executor = nullptr;
thread_local uint32_t t_worker_index = 0;

uint64_t ElapsedNs(std::chrono::steady_clock::time_point start) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now() - start)
                                   .count());
}

size_t RoundUpStackSize(size_t requested) {
  size_t size = std::max(requested, TaskExecutor::kMinWorkerStackSize);
  size = std::max<size_t>(size, PTHREAD_STACK_MIN);
  long page = sysconf(_SC_PAGESIZE);
  size_t page_size = page > 0 ? static_cast<size_t>(page) : 4096;
  return (size + page_size - 1) / page_size * page_size;
}

}  // namespace

StatusOr<Ref<TaskExecutor>> TaskExecutor::Create(const Options& options) {
  uint32_t count = options.worker_count;
  if (count == 0) count = std::max(1u, std::thread::hardware_concurrency());
  if (count > kMaxWorkerCount) {
    return base::InvalidArgumentError("task executor worker count ", count, " exceeds ",
                                      kMaxWorkerCount);
  }
  Ref<TaskExecutor> executor = Ref<TaskExecutor>::Adopt(new TaskExecutor(options, count));
  RT_RETURN_IF_ERROR(executor->StartWorkers(RoundUpStackSize(options.worker_stack_size)));
  return executor;
}

TaskExecutor::TaskExecutor(const Options& options, uint32_t worker_count)
    : worker_count_(worker_count), flush_denormals_(options.flush_denormals) {
  workers_.resize(worker_count);
}

TaskExecutor::~TaskExecutor() {
  // A worker cannot join itself; releasing the last reference there is a caller bug.
  assert(!CurrentWorkerIndex().has_value());
  {
    std::lock_guard<std::mutex> lock(mu_);
    shutting_down_.store(true, std::memory_order_seq_cst);
  }
  Wake(std::numeric_limits<uint32_t>::max());
  for (Worker& worker : workers_) {
    if (worker.started) pthread_join(worker.thread, nullptr);
  }
}

Status TaskExecutor::StartWorkers(size_t stack_size) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  int rc = pthread_attr_setstacksize(&attr, stack_size);
  for (uint32_t i = 0; rc == 0 && i < worker_count_; ++i) {
    Worker& worker = workers_[i];
    worker.executor = this;
    worker.index = i;
    rc = pthread_create(&worker.thread, &attr, &TaskExecutor::WorkerEntry, &worker);
    worker.started = rc == 0;
  }
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    return base::ResourceExhaustedError("cannot start ", worker_count_, " task workers with ",
                                        stack_size, "-byte stacks: ", std::strerror(rc));
  }
  return Status::Ok();
}

void* TaskExecutor::WorkerEntry(void* arg) {
  Worker* worker = static_cast<Worker*>(arg);
  worker->executor->WorkerMain(worker->index);
  return nullptr;
}

void TaskExecutor::WorkerMain(uint32_t index) {
  char name[16];
  std::snprintf(name, sizeof(name), "iree-rt-w%u", index);
#if defined(__APPLE__)
  pthread_setname_np(name);
#else
  pthread_setname_np(pthread_self(), name);
#endif
  t_executor = this;
  t_worker_index = index;
  std::optional<ScopedFlushDenormals> flush;
  if (flush_denormals_) flush.emplace();

  for (;;) {
    // Read before looking for work: anything published after the look bumps the epoch, so
    // Idle() returns at once instead of missing it.
    uint32_t epoch = wake_epoch_.load(std::memory_order_seq_cst);
    // Loops first: their callers are blocked on them, while posted work is queued anyway.
    // seq_cst pairs with the stores made before Wake() bumps the epoch: a worker that reads the
    // epoch, then misses new work here, sees that bump in Idle() and looks again.
    const bool join = TakeJoinToken();
    if (!join && posted_count_.load(std::memory_order_seq_cst) == 0 &&
        !shutting_down_.load(std::memory_order_seq_cst)) {
      Idle(epoch);
      continue;
    }
    ParallelLoop* loop = nullptr;
    std::function<void()> closure;
    {
      std::lock_guard<std::mutex> lock(mu_);
      const size_t listed = join ? listed_loops_.size() : 0;
      for (size_t n = 0; n < listed && !loop; ++n) {
        ParallelLoop* candidate = listed_loops_[(index + n) % listed];
        if (!candidate->TryJoin()) continue;
        loop = candidate;
        loop->Retain();
        if (loop->join_full()) UnlistLocked(loop);
      }
      // The loop whose place we took was unlisted meanwhile, its places with it; that
      // subtraction counted ours too, so it goes back.
      if (join && !loop) open_joins_.fetch_add(1, std::memory_order_seq_cst);
      if (!loop && !posted_.empty()) {
        closure = std::move(posted_.front());
        posted_.pop_front();
        posted_count_.store(posted_.size(), std::memory_order_seq_cst);
      } else if (!loop && shutting_down_.load(std::memory_order_relaxed)) {
        break;
      }
    }
    if (loop) {
      JoinLoop(loop, index);
    } else if (closure) {
      closure();
    } else {
      Idle(epoch);
    }
  }
  t_executor = nullptr;
}

void TaskExecutor::Idle(uint32_t epoch) {
  spinners_.fetch_add(1, std::memory_order_seq_cst);
  for (int spin = 0; spin < kIdleSpins; ++spin) {
    if (wake_epoch_.load(std::memory_order_relaxed) != epoch) {
      spinners_.fetch_sub(1, std::memory_order_relaxed);
      return;
    }
    base::CpuRelax();
  }
  // Counted as a sleeper before no longer as a spinner, and the epoch looked at after both:
  // a Wake() that counted us as spinning bumped the epoch first, so we see it and stay up.
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  spinners_.fetch_sub(1, std::memory_order_seq_cst);
  if (wake_epoch_.load(std::memory_order_seq_cst) == epoch) FutexWait(&wake_epoch_, epoch);
  sleepers_.fetch_sub(1, std::memory_order_relaxed);
}

void TaskExecutor::Wake(uint32_t count) {
  wake_epoch_.fetch_add(1, std::memory_order_seq_cst);
  // Spinning workers see the new epoch by themselves; a futex wake is a system call (and, on a
  // virtual machine, an interrupt to a halted vCPU) paid by the waker before its own work, so
  // it is spent only on sleepers the spinners cannot stand in for.
  const uint32_t spinning = spinners_.load(std::memory_order_seq_cst);
  if (count > spinning && sleepers_.load(std::memory_order_seq_cst) != 0) {
    FutexWake(&wake_epoch_, count - spinning);
  }
}

bool TaskExecutor::TakeJoinToken() {
  int64_t open = open_joins_.load(std::memory_order_seq_cst);
  while (open > 0) {
    if (open_joins_.compare_exchange_weak(open, open - 1, std::memory_order_seq_cst)) return true;
  }
  return false;
}

void TaskExecutor::Post(std::function<void()> fn) {
  if (!fn) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    posted_.push_back(std::move(fn));
    posted_count_.store(posted_.size(), std::memory_order_seq_cst);
  }
  Wake(1);
}

std::optional<uint32_t> TaskExecutor::CurrentWorkerIndex() const {
  if (t_executor != this) return std::nullopt;
  return t_worker_index;
}

Status TaskExecutor::ParallelFor(uint32_t tile_count, const TileFn& fn, TileCost* cost) {
  if (tile_count == 0) return Status::Ok();
  std::optional<uint32_t> worker = CurrentWorkerIndex();
  const uint32_t self = worker.value_or(worker_count_);
  std::optional<ScopedFlushDenormals> flush;
  if (flush_denormals_ && !worker) flush.emplace();
  if (tile_count == 1 && !cost) return fn(0, self);

  // Every worker but the caller may help, and no more than there are other tiles.
  if (tile_count == 1) {  // with |cost|: timed, so that single-workgroup dispatches have one too
    const auto start = std::chrono::steady_clock::now();
    Status status = fn(0, self);
    cost->Record(ElapsedNs(start), 1);
    return status;
  }
  uint32_t helpers = std::min(tile_count - 1, worker_count_ - (worker ? 1 : 0));
  if (cost) helpers = cost->HelpersFor(tile_count, helpers);
  ParallelLoop* loop = StartLoop(tile_count, &fn, helpers);
  WakeHelpers(loop);
  const auto start = cost ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
  uint32_t taken = loop->Run(self, self);
  if (cost) cost->Record(ElapsedNs(start), taken);
  Unlist(loop);
  Status status = loop->FinishAndWait(taken);
  ReleaseLoop(loop);
  return status;
}

ParallelLoop* TaskExecutor::StartLoop(uint32_t tile_count, const TileFn* fn,
                                      uint32_t helper_wakes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (free_loops_.empty()) {
    // Grows to the number of loops ever in flight at once, then stays; capacity is reserved
    // (before the loop is added, so a failure leaves nothing half-done) so that ReleaseLoop
    // never allocates.
    free_loops_.reserve(all_loops_.size() + 1);
    listed_loops_.reserve(all_loops_.size() + 1);
    all_loops_.push_back(std::make_unique<ParallelLoop>(worker_count_ + 1));
    free_loops_.push_back(all_loops_.back().get());
  }
  ParallelLoop* loop = free_loops_.back();
  free_loops_.pop_back();
  loop->Reset(tile_count, fn, helper_wakes);
  if (helper_wakes != 0) {
    listed_loops_.push_back(loop);
    loop->set_listed(true);
    open_joins_.fetch_add(helper_wakes, std::memory_order_seq_cst);
  }
  return loop;
}

void TaskExecutor::JoinLoop(ParallelLoop* loop, uint32_t index) {
  WakeHelpers(loop);
  uint32_t taken = loop->Run(index, index);
  // Nothing is left to claim: stop other idle workers from joining only to find that out.
  Unlist(loop);
  loop->Finish(taken);
  ReleaseLoop(loop);
}

void TaskExecutor::WakeHelpers(ParallelLoop* loop) {
  uint32_t count = loop->TakeWakes(kWakeFanout);
  if (count != 0) Wake(count);
}

void TaskExecutor::Unlist(ParallelLoop* loop) {
  if (!loop->listed()) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (loop->listed()) UnlistLocked(loop);
}

void TaskExecutor::UnlistLocked(ParallelLoop* loop) {
  auto it = std::find(listed_loops_.begin(), listed_loops_.end(), loop);
  *it = listed_loops_.back();
  listed_loops_.pop_back();
  loop->set_listed(false);
  open_joins_.fetch_sub(loop->TakeJoins(), std::memory_order_seq_cst);
}

void TaskExecutor::ReleaseLoop(ParallelLoop* loop) {
  if (!loop->Release()) return;
  std::lock_guard<std::mutex> lock(mu_);
  free_loops_.push_back(loop);
}

}  // namespace iree_rt::drivers::cpu
