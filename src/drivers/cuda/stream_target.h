// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::StreamTarget: issues a replayed command buffer onto a CUDA stream (stream command
// buffer mode, and binding-table command buffers in graph mode). Commands run in stream order,
// so barriers need no work. Indirect workgroup counts are UNIMPLEMENTED: the grid must be known
// on the host at launch. When given a traced parent span (tracing on), every command gets its
// own device span inside it (cuda::TraceTimer).
#ifndef IREE_RT_DRIVERS_CUDA_STREAM_TARGET_H_
#define IREE_RT_DRIVERS_CUDA_STREAM_TARGET_H_

#include <cuda.h>

#include "drivers/cuda/context.h"
#include "drivers/cuda/trace_timer.h"
#include "hal/utils/deferred_command_buffer.h"

namespace iree_rt::drivers::cuda {

class StreamTarget final : public hal::utils::CommandTarget {
 public:
  StreamTarget(const Context& context, CUstream stream, TraceTimer::Mark parent = {})
      : context_(context), stream_(stream), parent_(std::move(parent)) {}

  base::Status Fill(const hal::utils::ResolvedRef& target, uint32_t pattern,
                    uint32_t pattern_length) override;
  base::Status Update(const uint8_t* source, const hal::utils::ResolvedRef& target) override;
  base::Status Copy(const hal::utils::ResolvedRef& source, const hal::utils::ResolvedRef& target) override;
  base::Status Dispatch(hal::Executable& executable, uint32_t export_ordinal,
                        const uint32_t workgroup_count[3], const hal::utils::ResolvedRef* indirect_count,
                        std::span<const uint32_t> constants,
                        std::span<const hal::utils::ResolvedRef> bindings) override;
  base::Status Barrier() override { return base::Status::Ok(); }
  base::Status Collective(hal::Channel& channel, const hal::CollectiveOp& op, uint32_t param,
                          const hal::utils::ResolvedRef* send, const hal::utils::ResolvedRef* recv,
                          uint64_t element_count) override;

 private:
  // Runs |issue|, inside a device span labelled by |label()| when tracing.
  template <typename Issue, typename MakeLabel>
  base::Status Timed(Issue&& issue, MakeLabel&& label);

  const Context& context_;
  CUstream stream_;
  const TraceTimer::Mark parent_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_STREAM_TARGET_H_
