// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/graph.h"

#include <cstring>

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

base::StatusOr<std::unique_ptr<Graph>> Graph::Create(base::Ref<Context> context) {
  RT_RETURN_IF_ERROR(context->Activate());
  std::unique_ptr<Graph> graph(new Graph(std::move(context)));
  RT_CUDA_RETURN_IF_ERROR(graph->context_->syms(), cuGraphCreate(&graph->graph_, 0), "cuGraphCreate");
  return graph;
}

Graph::~Graph() {
  const DynamicSymbols& syms = context_->syms();
  context_->Activate().IgnoreError();
  if (exec_) syms.cuGraphExecDestroy(exec_);
  if (graph_) syms.cuGraphDestroy(graph_);
  if (capture_stream_) syms.cuStreamDestroy(capture_stream_);
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
  CUgraphNode node = nullptr;
  RT_CUDA_RETURN_IF_ERROR(context_->syms(),
                          cuGraphAddMemsetNode(&node, graph_, dependencies_.data(), dependencies_.size(),
                                               &params, context_->context()),
                          "cuGraphAddMemsetNode");
  section_.push_back(node);
  return Status::Ok();
}

Status Graph::Update(const uint8_t* source, const ResolvedRef& target) {
  if (target.length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(CUdeviceptr dst, Address(target));
  void* staging = nullptr;
  RT_CUDA_RETURN_IF_ERROR(context_->syms(), cuMemHostAlloc(&staging, target.length, CU_MEMHOSTALLOC_PORTABLE),
                          "cuMemHostAlloc (update staging)");
  staging_.push_back(staging);
  std::memcpy(staging, source, target.length);
  CUDA_MEMCPY3D copy = LinearCopy(dst, reinterpret_cast<CUdeviceptr>(staging), target.length);
  CUgraphNode node = nullptr;
  RT_CUDA_RETURN_IF_ERROR(context_->syms(),
                          cuGraphAddMemcpyNode(&node, graph_, dependencies_.data(), dependencies_.size(),
                                               &copy, context_->context()),
                          "cuGraphAddMemcpyNode (update)");
  section_.push_back(node);
  return Status::Ok();
}

Status Graph::Copy(const ResolvedRef& source, const ResolvedRef& target) {
  if (target.length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(CUdeviceptr src, Address(source));
  RT_ASSIGN_OR_RETURN(CUdeviceptr dst, Address(target));
  CUDA_MEMCPY3D copy = LinearCopy(dst, src, target.length);
  CUgraphNode node = nullptr;
  RT_CUDA_RETURN_IF_ERROR(context_->syms(),
                          cuGraphAddMemcpyNode(&node, graph_, dependencies_.data(), dependencies_.size(),
                                               &copy, context_->context()),
                          "cuGraphAddMemcpyNode (copy)");
  section_.push_back(node);
  return Status::Ok();
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
  CUgraphNode node = nullptr;
  RT_CUDA_RETURN_IF_ERROR(context_->syms(),
                          cuGraphAddKernelNode(&node, graph_, dependencies_.data(), dependencies_.size(), &params),
                          "cuGraphAddKernelNode");
  section_.push_back(node);
  return Status::Ok();
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
  CUgraphNode node = nullptr;
  if (status.ok()) {
    status = ToStatus(syms,
                      syms.cuGraphAddChildGraphNode(&node, graph_, dependencies_.data(), dependencies_.size(), captured),
                      "cuGraphAddChildGraphNode");
  }
  if (captured) syms.cuGraphDestroy(captured);  // the node holds a copy
  RT_RETURN_IF_ERROR(status);
  section_.push_back(node);
  return Status::Ok();
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

Status Graph::Launch(CUstream stream) const {
  return ToStatus(context_->syms(), context_->syms().cuGraphLaunch(exec_, stream), "cuGraphLaunch");
}

}  // namespace iree_rt::drivers::cuda
