// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TaskExecutor: the local-task driver's worker pool.
//
// Workers run posted closures (queue operations) and join parallel loops (the workgroups of a
// dispatch, numbered linearly as tile = x + X * (y + Y * z)). A loop started from one worker is
// spread over every idle worker with work stealing, so one dispatch uses all cores.
//
// Each worker is a pthread with a stack of at least 128 KiB (generated code may keep up to
// 32 KiB of locals) and, by default, denormals flushed to zero to match IREE's numerics.
// Idle workers spin briefly, then sleep on a futex.
#ifndef IREE_RT_DRIVERS_CPU_TASK_TASK_EXECUTOR_H_
#define IREE_RT_DRIVERS_CPU_TASK_TASK_EXECUTOR_H_

#include <pthread.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"

namespace iree_rt::drivers::cpu {

class ParallelLoop;
class TileCost;

// Thread-safe: every method may be called from any thread, workers included. Destruction runs
// all posted work (including work posted while draining), then joins the workers; the last
// reference must therefore not be released on one of this executor's own workers.
class TaskExecutor : public base::RefObject {
 public:
  struct Options {
    // 0 = one per online core (std::thread::hardware_concurrency, at least 1).
    uint32_t worker_count = 0;
    // Bytes of stack per worker; raised to at least kMinWorkerStackSize.
    size_t worker_stack_size = 256 * 1024;
    // Sets FTZ/DAZ (x86 MXCSR) or FZ (aarch64 FPCR) on each worker, and on a non-worker thread
    // while it takes part in ParallelFor, so a tile's result never depends on who ran it. When
    // false, workers keep the mode they inherit from the thread that calls Create().
    bool flush_denormals = true;
  };

  using TileFn = std::function<base::Status(uint32_t tile, uint32_t processor_id)>;

  static constexpr size_t kMinWorkerStackSize = 128 * 1024;
  static constexpr uint32_t kMaxWorkerCount = 4096;

  // Starts the workers. Errors: INVALID_ARGUMENT for worker_count > kMaxWorkerCount;
  // RESOURCE_EXHAUSTED when a thread cannot be created (those already started are joined).
  static base::StatusOr<base::Ref<TaskExecutor>> Create(const Options& options);

  uint32_t worker_count() const { return worker_count_; }

  // Queues |fn| to run once on some worker. Never blocks on other work and never runs |fn| on the
  // calling thread. Closures have no guaranteed order, and idle workers serve ParallelFor loops in
  // flight (whose callers wait) before them. A null |fn| is ignored.
  void Post(std::function<void()> fn);

  // Runs fn(tile, processor_id) once for every tile in [0, tile_count) and returns when all ran.
  // The calling thread takes part; idle workers join and steal tiles. processor_id is the worker
  // index on workers and worker_count() on any other thread. Calls may nest (from posted closures
  // or from inside a tile) and overlap; none waits for another, since a caller can always finish
  // its own tiles alone. Returns the first error a tile returned; once a tile fails, tiles not yet
  // started are skipped. tile_count 0 returns OK at once. |fn| is called by reference, never
  // copied, and must be safe to call concurrently. With |cost|, the loop wakes only the helpers
  // its estimated work pays for (see TileCost) and adds the caller's timing to the estimate.
  base::Status ParallelFor(uint32_t tile_count, const TileFn& fn, TileCost* cost = nullptr);

  // The calling thread's worker index, or nullopt when it is not one of this executor's workers.
  std::optional<uint32_t> CurrentWorkerIndex() const;

 protected:
  ~TaskExecutor() override;

 private:
  struct Worker {
    TaskExecutor* executor = nullptr;
    uint32_t index = 0;
    pthread_t thread{};
    bool started = false;
  };

  TaskExecutor(const Options& options, uint32_t worker_count);

  base::Status StartWorkers(size_t stack_size);
  static void* WorkerEntry(void* arg);
  void WorkerMain(uint32_t index);
  void Idle(uint32_t epoch);
  // Bumps the wake epoch (seen by spinning workers) and wakes up to |count| sleeping ones.
  void Wake(uint32_t count);

  ParallelLoop* StartLoop(uint32_t tile_count, const TileFn* fn, uint32_t helper_wakes);
  void JoinLoop(ParallelLoop* loop, uint32_t index);
  void WakeHelpers(ParallelLoop* loop);
  void Unlist(ParallelLoop* loop);
  void UnlistLocked(ParallelLoop* loop);
  // Takes one of open_joins_ without the lock; see there.
  bool TakeJoinToken();
  void ReleaseLoop(ParallelLoop* loop);

  const uint32_t worker_count_;
  const bool flush_denormals_;
  std::vector<Worker> workers_;

  // Guards the queues below; held only to push or pop, never while running work.
  std::mutex mu_;
  std::deque<std::function<void()>> posted_;
  std::vector<ParallelLoop*> listed_loops_;  // loops with tiles left that idle workers may join
  std::vector<ParallelLoop*> free_loops_;    // pool, so a ParallelFor allocates nothing
  std::vector<std::unique_ptr<ParallelLoop>> all_loops_;
  // Read without the lock by idle workers, so that a wake meant for a few of them does not send
  // every spinning one through mu_: posted_.size(), and the places left for joining workers in
  // all listed loops. A worker takes a place here before it takes the lock to join a loop, so
  // no more workers queue on mu_ than there are places.
  std::atomic<size_t> posted_count_{0};
  std::atomic<int64_t> open_joins_{0};
  std::atomic<bool> shutting_down_{false};

  // Futex word: bumped whenever work appears. Idle workers sleep until it changes.
  alignas(64) std::atomic<uint32_t> wake_epoch_{0};
  std::atomic<uint32_t> sleepers_{0};
  std::atomic<uint32_t> spinners_{0};  // workers polling the epoch in Idle()
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_TASK_TASK_EXECUTOR_H_
