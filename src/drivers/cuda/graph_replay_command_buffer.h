// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::GraphReplayCommandBuffer: a reusable command buffer with a binding table, in graph mode.
//
// Compiled programs record each command buffer once (memoized) with its buffers in table slots,
// then submit it at every call with that call's buffers. Recording goes to a deferred command
// buffer; a submission resolves the table and launches a CUDA graph of the replay
// (GraphCommandBuffer), built at the first submission and rebuilt only when the resolved
// addresses or lengths differ from the last build's. Pool allocations usually land at the same
// addresses call after call, so a program's calls launch one graph each instead of one kernel
// launch per dispatch. A command buffer whose table keeps moving stops rebuilding after
// kMaxBuilds and replays onto the stream like stream mode; so does one the graph cannot express.
//
// Finding the graph is cheap on the common path: when no recorded direct reference can move (all
// are plain CUDA buffers) and the table resolves as at the last launch, the commands are not
// walked at all; otherwise every reference is resolved and compared.
//
// Thread-safety: recording as for any command buffer; Launch is serialized by the device's
// pending queue (one issue at a time), which is what makes the cache safe without a lock.
#ifndef IREE_RT_DRIVERS_CUDA_GRAPH_REPLAY_COMMAND_BUFFER_H_
#define IREE_RT_DRIVERS_CUDA_GRAPH_REPLAY_COMMAND_BUFFER_H_

#include <cuda.h>

#include <span>
#include <vector>

#include "drivers/cuda/context.h"
#include "drivers/cuda/graph_command_buffer.h"
#include "hal/command_buffer.h"
#include "hal/utils/deferred_command_buffer.h"

namespace iree_rt::drivers::cuda {

class GraphReplayCommandBuffer final : public hal::CommandBuffer {
 public:
  static base::Ref<GraphReplayCommandBuffer> Create(base::Ref<Context> context,
                                                    hal::CommandBufferModeBits mode,
                                                    hal::CommandCategoryBits categories,
                                                    uint32_t binding_capacity);

  // Runs the commands with |binding_table| on |stream|. The caller keeps the table's buffers and
  // this command buffer alive until the work completes.
  base::Status Launch(std::span<const hal::BufferBinding> binding_table, CUstream stream);

 private:
  GraphReplayCommandBuffer(base::Ref<Context> context, hal::CommandBufferModeBits mode,
                           hal::CommandCategoryBits categories, uint32_t binding_capacity);
  template <typename T, typename... Args>
  friend base::Ref<T> base::MakeRef(Args&&... args);

  base::Status FillImpl(const hal::BufferRef& target, uint32_t pattern, uint32_t pattern_length) override;
  base::Status UpdateImpl(const void* source, uint64_t length, const hal::BufferRef& target) override;
  base::Status CopyImpl(const hal::BufferRef& source, const hal::BufferRef& target, uint64_t length) override;
  base::Status DispatchImpl(const base::Ref<hal::Executable>& executable, uint32_t export_ordinal,
                            const hal::DispatchConfig& config, std::span<const uint32_t> constants,
                            std::span<const hal::BufferRef> bindings, hal::DispatchFlags flags) override;
  base::Status ExecutionBarrierImpl() override;
  base::Status FinalizeImpl() override;

  // Notes a recorded direct reference whose device address may change between submissions.
  void NoteDirect(const hal::BufferRef& ref);
  // The resolved address, offset, length and buffer size of every table entry; false if one does
  // not resolve (the full replay then reports it).
  static bool TableKey(std::span<const hal::BufferBinding> binding_table, std::vector<uint64_t>* key);
  base::Status ReplayOnStream(std::span<const hal::BufferBinding> binding_table, CUstream stream) const;

  // Rebuilds allowed before falling back to stream replay for good.
  static constexpr int kMaxBuilds = 8;

  const base::Ref<Context> context_;
  const base::Ref<hal::utils::DeferredCommandBuffer> deferred_;
  bool direct_refs_movable_ = false;  // set while recording
  // Launch only:
  std::vector<uint64_t> key_;                           // addresses and lengths graph_ was built for
  std::vector<uint64_t> table_key_;                     // a table known to resolve to key_
  std::vector<uint64_t> scratch_key_;
  base::Ref<GraphCommandBuffer> graph_;
  std::vector<base::Ref<GraphCommandBuffer>> retired_;  // earlier builds, possibly still running
  int builds_ = 0;
  bool stream_only_ = false;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_GRAPH_REPLAY_COMMAND_BUFFER_H_
