// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cpu::CommandRunner: executes a replayed command buffer on the host. Transfers run on the calling
// thread; each dispatch's workgroups run inline (local-sync) or are spread over the task executor's
// workers (local-task). Commands run in order, which satisfies every barrier.
#ifndef IREE_RT_DRIVERS_CPU_COMMAND_RUNNER_H_
#define IREE_RT_DRIVERS_CPU_COMMAND_RUNNER_H_

#include "drivers/cpu/task/task_executor.h"
#include "hal/utils/deferred_command_buffer.h"

namespace iree_rt::drivers::cpu {

class Executable;

class CommandRunner final : public hal::utils::CommandTarget {
 public:
  // |executor| may be null: dispatches then run on the calling thread. |trace_track| (0: none)
  // is the base::trace device track that gets every dispatch and transfer, timed on the thread
  // that runs the command buffer (the workgroups' fan-out included).
  explicit CommandRunner(TaskExecutor* executor, uint32_t trace_track = 0)
      : executor_(executor), trace_track_(trace_track) {}

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

  TaskExecutor* executor_;
  uint32_t trace_track_;
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_COMMAND_RUNNER_H_
