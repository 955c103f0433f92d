// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::GraphCommandBuffer: records directly into a CUgraph, instantiated once at Finalize and
// launched with cuGraphLaunch at every submission (recorded once, replayed many times).
//
// Dependencies follow the barriers: every node depends on the node(s) that closed the previous
// barrier section, so commands between two barriers run concurrently. A section of one node is
// its own join point; larger sections get an empty join node. Only command buffers without a
// binding table are recorded straight into graphs (addresses are fixed at record time); reusable
// ones with a table are GraphReplayCommandBuffers, which build one of these per resolved table.
// Update data is staged in pinned host memory owned by the graph.
#ifndef IREE_RT_DRIVERS_CUDA_GRAPH_COMMAND_BUFFER_H_
#define IREE_RT_DRIVERS_CUDA_GRAPH_COMMAND_BUFFER_H_

#include <cuda.h>

#include <vector>

#include "drivers/cuda/context.h"
#include "hal/command_buffer.h"

namespace iree_rt::drivers::cuda {

class GraphCommandBuffer final : public hal::CommandBuffer {
 public:
  // With |retain_buffers| false the graph borrows the buffers it records: the caller keeps them
  // alive while it runs (GraphReplayCommandBuffer, whose submissions hold their binding tables).
  static base::StatusOr<base::Ref<GraphCommandBuffer>> Create(base::Ref<Context> context,
                                                              hal::CommandBufferModeBits mode,
                                                              hal::CommandCategoryBits categories,
                                                              bool retain_buffers = true);
  ~GraphCommandBuffer() override;

  // Launches the instantiated graph on |stream|. Requires a finalized command buffer.
  base::Status Launch(CUstream stream) const;

 private:
  GraphCommandBuffer(base::Ref<Context> context, hal::CommandBufferModeBits mode,
                     hal::CommandCategoryBits categories)
      : hal::CommandBuffer(mode, categories, 0), context_(std::move(context)) {}
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

  // The device address of |ref| (a direct reference), retaining its buffer for the graph's life.
  base::StatusOr<CUdeviceptr> Address(const hal::BufferRef& ref);
  void AddedNode(CUgraphNode node) { section_.push_back(node); }

  const base::Ref<Context> context_;
  CUgraph graph_ = nullptr;
  CUgraphExec exec_ = nullptr;
  std::vector<CUgraphNode> dependencies_;  // what new nodes wait for
  std::vector<CUgraphNode> section_;       // nodes added since the last barrier
  bool retain_buffers_ = true;
  std::vector<base::Ref<hal::Buffer>> buffers_;
  std::vector<base::Ref<hal::Executable>> executables_;
  std::vector<void*> staging_;  // pinned host copies of Update sources
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_GRAPH_COMMAND_BUFFER_H_
