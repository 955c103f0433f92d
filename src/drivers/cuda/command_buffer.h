// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::CommandBuffer: every command buffer of a CUDA device, and the one place that decides how
// a submission runs.
//
// Recording is a deferred command buffer's (validated once, by hal::CommandBuffer). A submission
// then either replays the commands onto the stream (StreamTarget: stream mode) or launches a CUDA
// graph of them (graph mode, the default). Graphs are built at the first launch by replaying into
// a cuda::Graph, and rebuilt only when the resolved addresses or lengths differ from the last
// build's: compiled programs record each command buffer once and submit it at every call with
// that call's binding table, and pool allocations usually land at the same addresses call after
// call, so a call launches one graph instead of one kernel per dispatch. A command buffer whose
// table keeps moving stops rebuilding after kMaxBuilds and replays onto the stream like stream
// mode; so does one the graph cannot express.
//
// Finding the graph is cheap on the common path: when no recorded direct reference can move (all
// are plain CUDA buffers, not queue allocas) and the table resolves as at the last launch, the
// commands are not walked at all; otherwise every reference is resolved and compared.
//
// Thread-safety: recording as for any command buffer; Launch is serialized by the device's
// pending queue (one issue at a time), which is what makes the graph cache safe without a lock.
#ifndef IREE_RT_DRIVERS_CUDA_COMMAND_BUFFER_H_
#define IREE_RT_DRIVERS_CUDA_COMMAND_BUFFER_H_

#include <cuda.h>

#include <memory>
#include <span>
#include <vector>

#include "drivers/cuda/context.h"
#include "drivers/cuda/graph.h"
#include "drivers/cuda/nccl_channel.h"
#include "hal/utils/deferred_command_buffer.h"

namespace iree_rt::drivers::cuda {

class CommandBuffer final : public hal::utils::DeferredCommandBuffer {
 public:
  enum class Execution { kStream, kGraph };

  CommandBuffer(base::Ref<Context> context, Execution execution, hal::CommandBufferModeBits mode,
                hal::CommandCategoryBits categories, uint32_t binding_capacity)
      : hal::utils::DeferredCommandBuffer(mode, categories, binding_capacity),
        context_(std::move(context)),
        use_graphs_(execution == Execution::kGraph) {}

  const void* type_tag() const override { return &kTypeTag; }
  // |command_buffer| as a cuda::CommandBuffer; null if another driver made it.
  static CommandBuffer* Cast(hal::CommandBuffer* command_buffer) {
    return command_buffer && command_buffer->type_tag() == &kTypeTag ? static_cast<CommandBuffer*>(command_buffer)
                                                                     : nullptr;
  }

  // Runs the commands with |binding_table| on |stream|. The caller keeps the table's buffers and
  // this command buffer alive until the work completes. When tracing, the work gets a device span
  // ("command buffer") with the commands' spans inside it and the submission's flow |flow| ending
  // at it.
  base::Status Launch(std::span<const hal::BufferBinding> binding_table, CUstream stream, uint64_t flow = 0);

  // Whether the recorded commands hold collectives; then, once a submission has run, whether
  // their channels are still sound (a communicator aborted by its watchdog fails the submission).
  bool has_collectives() const { return !channels_.empty(); }
  base::Status CollectiveHealth() const;

 private:
  static constexpr char kTypeTag = 0;
  // Rebuilds allowed before falling back to stream replay for good.
  static constexpr int kMaxBuilds = 8;

  // Refuses at record time what neither a stream nor a graph can run.
  base::Status DispatchImpl(const base::Ref<hal::Executable>& executable, uint32_t export_ordinal,
                            const hal::DispatchConfig& config, std::span<const uint32_t> constants,
                            std::span<const hal::BufferRef> bindings, hal::DispatchFlags flags) override;
  // Refuses channels of other drivers and what NCCL cannot run.
  base::Status CollectiveImpl(const base::Ref<hal::Channel>& channel, const hal::CollectiveOp& op, uint32_t param,
                              const hal::BufferRef& send, const hal::BufferRef& recv, uint64_t element_count,
                              const hal::CollectiveBytes& bytes) override;
  base::Status FinalizeImpl() override;

  base::Status ReplayOnStream(std::span<const hal::BufferBinding> binding_table, CUstream stream,
                              const TraceTimer::Mark& span) const;
  base::Status LaunchGraph(std::span<const hal::BufferBinding> binding_table, CUstream stream,
                           const TraceTimer::Mark& span);
  // The resolved address, offset, length and buffer size of every table entry; false if one does
  // not resolve (the full replay then reports it).
  static bool TableKey(std::span<const hal::BufferBinding> binding_table, std::vector<uint64_t>* key);

  const base::Ref<Context> context_;
  const bool use_graphs_;
  std::vector<NcclChannel*> channels_;  // of the recorded collectives (set at Finalize)
  bool direct_refs_movable_ = false;  // set at Finalize
  // Launch only:
  std::vector<uint64_t> key_;          // addresses and lengths graph_ was built for
  std::vector<uint64_t> table_key_;    // a table known to resolve to key_
  std::vector<uint64_t> scratch_key_;
  std::unique_ptr<Graph> graph_;
  // Earlier builds, possibly still running: their staged update data must outlive them.
  std::vector<std::unique_ptr<Graph>> retired_;
  int builds_ = 0;
  bool stream_only_ = false;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_COMMAND_BUFFER_H_
