// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/graph.h"

#include <cstring>

#include "base/str_cat.h"
#include "drivers/cuda/buffer.h"
#include "drivers/cuda/kernel_args.h"
#include "drivers/cuda/nccl_channel.h"
#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

using base::Status;
using hal::utils::ResolvedRef;

namespace {

base::StatusOr<CUdeviceptr> Address(const ResolvedRef& ref) {
  return Buffer::ResolveDevicePointer(ref.buffer, ref.offset);
}

// A 1-D copy in unified addressing (device, managed and mapped host pointers alike).
CUDA_MEMCPY3D LinearCopy(CUdeviceptr dst, CUdeviceptr src, uint64_t length) {
  CUDA_MEMCPY3D copy = {};
  copy.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.srcDevice = src;
  copy.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.dstDevice = dst;
  copy.WidthInBytes = length;
  copy.Height = 1;
  copy.Depth = 1;
  return copy;
}

}  // namespace

base::StatusOr<std::unique_ptr<Graph>> Graph::Create(base::Ref<Context> context, bool timed) {
  RT_RETURN_IF_ERROR(context->Activate());
  std::unique_ptr<Graph> graph(new Graph(std::move(context), timed));
  const DynamicSymbols& syms = graph->context_->syms();
  RT_CUDA_RETURN_IF_ERROR(syms, cuGraphCreate(&graph->graph_, 0), "cuGraphCreate");
  if (timed) {
    RT_CUDA_RETURN_IF_ERROR(syms, cuEventCreate(&graph->placeholder_, CU_EVENT_DEFAULT), "cuEventCreate (timing)");
  }
  return graph;
}

template <typename Add, typename MakeLabel>
Status Graph::AddNode(Add&& add, MakeLabel&& label) {
  CUgraphNode node = nullptr;
  if (!timed_) {
    RT_RETURN_IF_ERROR(add(dependencies_.data(), dependencies_.size(), &node));
    section_.push_back(node);
    return Status::Ok();
  }
  const DynamicSymbols& syms = context_->syms();
  TimedNode timed;
  RT_CUDA_RETURN_IF_ERROR(syms,
                          cuGraphAddEventRecordNode(&timed.start, graph_, dependencies_.data(),
                                                    dependencies_.size(), placeholder_),
                          "cuGraphAddEventRecordNode");
  RT_RETURN_IF_ERROR(add(&timed.start, 1, &node));
  RT_CUDA_RETURN_IF_ERROR(syms, cuGraphAddEventRecordNode(&timed.end, graph_, &node, 1, placeholder_),
                          "cuGraphAddEventRecordNode");
  timed.label = label();
  section_.push_back(timed.end);
  timed_nodes_.push_back(std::move(timed));
  return Status::Ok();
}

Graph::~Graph() {
  const DynamicSymbols& syms = context_->syms();
  context_->Activate().IgnoreError();
  if (exec_) syms.cuGraphExecDestroy(exec_);
  if (graph_) syms.cuGraphDestroy(graph_);
  if (capture_stream_) syms.cuStreamDestroy(capture_stream_);
  if (placeholder_) syms.cuEventDestroy(placeholder_);
  for (void* host : staging_) syms.cuMemFreeHost(host);
}

Status Graph::Fill(const ResolvedRef& target, uint32_t pattern, uint32_t pattern_length) {
  if (target.length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(CUdeviceptr dst, Address(target));
  CUDA_MEMSET_NODE_PARAMS params = {};
  params.dst = dst;
  params.elementSize = pattern_length;
  params.width = target.length / pattern_length;
  params.height = 1;
  params.pitch = 0;
  params.value = pattern_length == 1 ? (pattern & 0xFF) : pattern_length == 2 ? (pattern & 0xFFFF) : pattern;
  return AddNode(
      [&](const CUgraphNode* deps, size_t count, CUgraphNode* node) {
        return ToStatus(context_->syms(),
                        context_->syms().cuGraphAddMemsetNode(node, graph_, deps, count, &params, context_->context()),
                        "cuGraphAddMemsetNode");
      },
      [&] { return TransferLabel("fill", target.length); });
}

Status Graph::Update(const uint8_t* source, const ResolvedRef& target) {
  if (target.length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(CUdeviceptr dst, Address(target));
  void* staging = nullptr;
  RT_CUDA_RETURN_IF_ERROR(context_->syms(), cuMemHostAlloc(&staging, target.length, CU_MEMHOSTALLOC_PORTABLE),
                          "cuMemHostAlloc (update staging)");
  staging_.push_back(staging);
  std::memcpy(staging, source, target.length);
  return AddLinearCopy(dst, reinterpret_cast<CUdeviceptr>(staging), target.length, "update");
}

Status Graph::Copy(const ResolvedRef& source, const ResolvedRef& target) {
  if (target.length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(CUdeviceptr src, Address(source));
  RT_ASSIGN_OR_RETURN(CUdeviceptr dst, Address(target));
  return AddLinearCopy(dst, src, target.length, "copy");
}

Status Graph::AddLinearCopy(CUdeviceptr dst, CUdeviceptr src, uint64_t length, const char* what) {
  CUDA_MEMCPY3D copy = LinearCopy(dst, src, length);
  return AddNode(
      [&](const CUgraphNode* deps, size_t count, CUgraphNode* node) {
        const CUresult result =
            context_->syms().cuGraphAddMemcpyNode(node, graph_, deps, count, &copy, context_->context());
        if (result == CUDA_SUCCESS) return Status::Ok();
        return ToStatus(context_->syms(), result, base::StrCat("cuGraphAddMemcpyNode (", what, ")").c_str());
      },
      [&] { return TransferLabel(what, length); });
}

Status Graph::Dispatch(hal::Executable& executable, uint32_t export_ordinal, const uint32_t workgroup_count[3],
                       const ResolvedRef* indirect_count, std::span<const uint32_t> constants,
                       std::span<const ResolvedRef> bindings) {
  const Kernel* kernel = nullptr;
  KernelArgs args;
  RT_RETURN_IF_ERROR(PrepareDispatch(executable, export_ordinal, workgroup_count, indirect_count, constants,
                                     bindings, &kernel, &args));
  if (!kernel) return Status::Ok();
  CUDA_KERNEL_NODE_PARAMS params = {};
  params.func = kernel->function;
  params.gridDimX = workgroup_count[0];
  params.gridDimY = workgroup_count[1];
  params.gridDimZ = workgroup_count[2];
  params.blockDimX = kernel->block_dims[0];
  params.blockDimY = kernel->block_dims[1];
  params.blockDimZ = kernel->block_dims[2];
  params.sharedMemBytes = kernel->shared_memory_bytes;
  params.kernelParams = args.params();
  return AddNode(
      [&](const CUgraphNode* deps, size_t count, CUgraphNode* node) {
        return ToStatus(context_->syms(), context_->syms().cuGraphAddKernelNode(node, graph_, deps, count, &params),
                        "cuGraphAddKernelNode");
      },
      [&] { return DispatchLabel(executable, export_ordinal, workgroup_count); });
}

Status Graph::Collective(hal::Channel& channel, const hal::CollectiveOp& op, uint32_t param,
                         const ResolvedRef* send, const ResolvedRef* recv, uint64_t element_count) {
  const DynamicSymbols& syms = context_->syms();
  if (!capture_stream_) {
    RT_CUDA_RETURN_IF_ERROR(syms, cuStreamCreate(&capture_stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate (capture)");
  }
  RT_CUDA_RETURN_IF_ERROR(syms, cuStreamBeginCapture(capture_stream_, CU_STREAM_CAPTURE_MODE_RELAXED),
                          "cuStreamBeginCapture");
  Status status = EnqueueCollective(channel, op, param, send, recv, element_count, capture_stream_);
  CUgraph captured = nullptr;
  Status ended = ToStatus(syms, syms.cuStreamEndCapture(capture_stream_, &captured), "cuStreamEndCapture");
  if (status.ok()) status = ended;
  if (status.ok() && !captured) status = base::InternalError(op.ToString(), ": the capture made no graph");
  if (status.ok()) {
    status = AddNode(
        [&](const CUgraphNode* deps, size_t count, CUgraphNode* node) {
          return ToStatus(syms, syms.cuGraphAddChildGraphNode(node, graph_, deps, count, captured),
                          "cuGraphAddChildGraphNode");
        },
        [&] { return CollectiveLabel(op, element_count); });
  }
  if (captured) syms.cuGraphDestroy(captured);  // the node holds a copy
  return status;
}

Status Graph::Barrier() {
  if (section_.empty()) return Status::Ok();
  if (section_.size() == 1) {
    dependencies_ = {section_.front()};
  } else {
    CUgraphNode join = nullptr;
    RT_CUDA_RETURN_IF_ERROR(context_->syms(),
                            cuGraphAddEmptyNode(&join, graph_, section_.data(), section_.size()),
                            "cuGraphAddEmptyNode");
    dependencies_ = {join};
  }
  section_.clear();
  return Status::Ok();
}

Status Graph::Instantiate() {
  RT_RETURN_IF_ERROR(context_->Activate());
  return ToStatus(context_->syms(), context_->syms().cuGraphInstantiateWithFlags(&exec_, graph_, 0),
                  "cuGraphInstantiateWithFlags");
}

Status Graph::Launch(CUstream stream, const TraceTimer::Mark& parent) {
  const DynamicSymbols& syms = context_->syms();
  if (!timed_) return ToStatus(syms, syms.cuGraphLaunch(exec_, stream), "cuGraphLaunch");
  // Fresh events per launch: the last launch's may not be resolved yet. Without a parent (its
  // event failed) the nodes record the placeholder and nothing is reported.
  TraceTimer& timer = context_->trace_timer();
  std::vector<std::pair<CUevent, CUevent>> events(timed_nodes_.size(), {placeholder_, placeholder_});
  for (size_t i = 0; i < timed_nodes_.size(); ++i) {
    if (parent) {
      CUevent start = timer.NewEvent(), end = timer.NewEvent();
      if (start && end) {
        events[i] = {start, end};
      } else {
        timer.Release(start);
        timer.Release(end);
      }
    }
    const TimedNode& node = timed_nodes_[i];
    if (syms.cuGraphExecEventRecordNodeSetEvent(exec_, node.start, events[i].first) != CUDA_SUCCESS ||
        syms.cuGraphExecEventRecordNodeSetEvent(exec_, node.end, events[i].second) != CUDA_SUCCESS) {
      if (events[i].first == placeholder_) continue;
      syms.cuGraphExecEventRecordNodeSetEvent(exec_, node.start, placeholder_);
      syms.cuGraphExecEventRecordNodeSetEvent(exec_, node.end, placeholder_);
      timer.Release(events[i].first);
      timer.Release(events[i].second);
      events[i] = {placeholder_, placeholder_};
    }
  }
  Status status = ToStatus(syms, syms.cuGraphLaunch(exec_, stream), "cuGraphLaunch");
  for (size_t i = 0; i < timed_nodes_.size(); ++i) {
    if (events[i].first == placeholder_) continue;
    if (status.ok()) {
      timer.Add(TraceTimer::Mark{events[i].first, parent.reference}, events[i].second, timed_nodes_[i].label);
    } else {
      timer.Release(events[i].first);
      timer.Release(events[i].second);
    }
  }
  return status;
}

}  // namespace iree_rt::drivers::cuda
