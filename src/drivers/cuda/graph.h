// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::Graph: a CUDA graph built from one replay of a command buffer, then instantiated once and
// launched any number of times.
//
// It is a replay target: every reference arrives resolved (binding tables already applied and
// bounds already checked when the command was recorded), so building a graph validates nothing
// twice. Dependencies follow the barriers: every node depends on the node(s) that closed the
// previous barrier section, so commands between two barriers run concurrently. A section of one
// node is its own join point; larger sections get an empty join node. The graph borrows the
// buffers and executables it records (the command buffer and the submission hold them); update
// data is staged in pinned host memory that the graph owns, since graph copies cannot read
// pageable memory and the recorded data may go away.
//
// A graph built while tracing is on is timed: every node sits between two event-record nodes,
// which each launch points at fresh timing events and hands to cuda::TraceTimer as spans inside
// the submission's span. An untimed graph has no extra node.
#ifndef IREE_RT_DRIVERS_CUDA_GRAPH_H_
#define IREE_RT_DRIVERS_CUDA_GRAPH_H_

#include <cuda.h>

#include <memory>
#include <vector>

#include "drivers/cuda/context.h"
#include "drivers/cuda/trace_timer.h"
#include "hal/utils/deferred_command_buffer.h"

namespace iree_rt::drivers::cuda {

class Graph final : public hal::utils::CommandTarget {
 public:
  static base::StatusOr<std::unique_ptr<Graph>> Create(base::Ref<Context> context, bool timed);
  ~Graph() override;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  base::Status Fill(const hal::utils::ResolvedRef& target, uint32_t pattern,
                    uint32_t pattern_length) override;
  base::Status Update(const uint8_t* source, const hal::utils::ResolvedRef& target) override;
  base::Status Copy(const hal::utils::ResolvedRef& source, const hal::utils::ResolvedRef& target) override;
  base::Status Dispatch(hal::Executable& executable, uint32_t export_ordinal,
                        const uint32_t workgroup_count[3], const hal::utils::ResolvedRef* indirect_count,
                        std::span<const uint32_t> constants,
                        std::span<const hal::utils::ResolvedRef> bindings) override;
  base::Status Barrier() override;
  // NCCL's kernels captured from a side stream into a child graph node.
  base::Status Collective(hal::Channel& channel, const hal::CollectiveOp& op, uint32_t param,
                          const hal::utils::ResolvedRef* send, const hal::utils::ResolvedRef* recv,
                          uint64_t element_count) override;

  // Ends building. Only an instantiated graph can be launched.
  base::Status Instantiate();
  // Launches on |stream|; a timed graph records its spans inside |parent| (when not empty).
  base::Status Launch(CUstream stream, const TraceTimer::Mark& parent);
  bool timed() const { return timed_; }

 private:
  struct TimedNode {
    CUgraphNode start = nullptr, end = nullptr;
    TraceTimer::Label label;
  };
  Graph(base::Ref<Context> context, bool timed) : context_(std::move(context)), timed_(timed) {}
  // Adds the node |add| makes (given its dependencies) to the current section, between two
  // event-record nodes when timed.
  template <typename Add, typename MakeLabel>
  base::Status AddNode(Add&& add, MakeLabel&& label);
  // A 1-D copy node (update data staged, or a buffer copy); |what| names it in errors and traces.
  base::Status AddLinearCopy(CUdeviceptr dst, CUdeviceptr src, uint64_t length, const char* what);

  const base::Ref<Context> context_;
  CUgraph graph_ = nullptr;
  CUgraphExec exec_ = nullptr;
  std::vector<CUgraphNode> dependencies_;  // what new nodes wait for
  std::vector<CUgraphNode> section_;       // nodes added since the last barrier
  std::vector<void*> staging_;             // pinned host copies of update data
  CUstream capture_stream_ = nullptr;      // made at the first collective
  const bool timed_;
  CUevent placeholder_ = nullptr;          // what event-record nodes hold until a launch
  std::vector<TimedNode> timed_nodes_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_GRAPH_H_
