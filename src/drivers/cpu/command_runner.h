// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cpu::CommandRunner: executes a replayed command buffer on the host. Transfers run on the calling
// thread; each dispatch's workgroups run inline (local-sync) or are spread over the task executor's
// workers (local-task). Commands run in order, which satisfies every barrier.
#ifndef IREE_RT_DRIVERS_CPU_COMMAND_RUNNER_H_
#define IREE_RT_DRIVERS_CPU_COMMAND_RUNNER_H_

#include <string>
#include <string_view>
#include <vector>

#include "drivers/cpu/task/task_executor.h"
#include "hal/utils/deferred_command_buffer.h"

namespace iree_rt::drivers::cpu {

class Executable;

class CommandRunner final : public hal::utils::CommandTarget {
 public:
  // |executor| may be null: dispatches then run on the calling thread. |trace_track| (0: none)
  // is the base::trace device track that gets every dispatch and transfer, timed on the thread
  // that runs the command buffer (the workgroups' fan-out included). With an executor, each
  // thread that ran a dispatch's workgroups also gets a span on its own track
  // ("<trace_device> worker <n>", "... caller" for the thread that started the dispatch): from
  // its first workgroup's start to its last one's end, with the workgroup count it ran.
  explicit CommandRunner(TaskExecutor* executor, uint32_t trace_track = 0, std::string_view trace_device = {})
      : executor_(executor), trace_track_(trace_track), trace_device_(trace_device) {}

  base::Status Fill(const hal::utils::ResolvedRef& target, uint32_t pattern,
                    uint32_t pattern_length) override;
  base::Status Update(const uint8_t* source, const hal::utils::ResolvedRef& target) override;
  base::Status Copy(const hal::utils::ResolvedRef& source,
                    const hal::utils::ResolvedRef& target) override;
  base::Status Dispatch(hal::Executable& executable, uint32_t export_ordinal,
                        const uint32_t workgroup_count[3], const hal::utils::ResolvedRef* indirect_count,
                        std::span<const uint32_t> constants,
                        std::span<const hal::utils::ResolvedRef> bindings) override;
  base::Status Barrier() override { return base::Status::Ok(); }
  // On the calling thread, through the channel's host memory exchange.
  base::Status Collective(hal::Channel& channel, const hal::CollectiveOp& op, uint32_t param,
                          const hal::utils::ResolvedRef* send, const hal::utils::ResolvedRef* recv,
                          uint64_t element_count) override;

 private:
  base::Status RunDispatch(const Executable& executable, uint32_t export_ordinal,
                           const uint32_t count[3], std::span<const uint32_t> constants,
                           std::span<const hal::utils::ResolvedRef> bindings);
  // RunDispatch's fan-out over the executor when tracing: records each thread's span.
  base::Status RunTraced(const std::string& name, uint32_t tile_count, const TaskExecutor::TileFn& run_tile,
                         TileCost* cost);
  // The track of processor |processor_id| (a worker, or the caller at worker_count()).
  uint32_t WorkerTrack(uint32_t processor_id);

  TaskExecutor* executor_;
  uint32_t trace_track_;
  std::string_view trace_device_;
  std::vector<uint32_t> worker_tracks_;  // by processor id, registered at first use
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_COMMAND_RUNNER_H_
