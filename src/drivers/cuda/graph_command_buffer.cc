// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/graph_command_buffer.h"

#include <cstring>

#include "drivers/cuda/buffer.h"
#include "drivers/cuda/executable.h"
#include "drivers/cuda/kernel_args.h"
#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

using base::Ref;
using base::Status;

namespace {

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

base::StatusOr<Ref<GraphCommandBuffer>> GraphCommandBuffer::Create(Ref<Context> context,
                                                                   hal::CommandBufferModeBits mode,
                                                                   hal::CommandCategoryBits categories,
                                                                   bool retain_buffers) {
  RT_RETURN_IF_ERROR(context->Activate());
  Ref<GraphCommandBuffer> command_buffer = base::MakeRef<GraphCommandBuffer>(context, mode, categories);
  command_buffer->retain_buffers_ = retain_buffers;
  RT_CUDA_RETURN_IF_ERROR(context->syms(), cuGraphCreate(&command_buffer->graph_, 0), "cuGraphCreate");
  return command_buffer;
}

GraphCommandBuffer::~GraphCommandBuffer() {
  const DynamicSymbols& syms = context_->syms();
  context_->Activate().IgnoreError();
  if (exec_) syms.cuGraphExecDestroy(exec_);
  if (graph_) syms.cuGraphDestroy(graph_);
  for (void* host : staging_) syms.cuMemFreeHost(host);
}

base::StatusOr<CUdeviceptr> GraphCommandBuffer::Address(const hal::BufferRef& ref) {
  // Recording may happen on any thread; every recorded command resolves an address first.
  RT_RETURN_IF_ERROR(context_->Activate());
  if (retain_buffers_) buffers_.push_back(ref.buffer);
  return Buffer::ResolveDevicePointer(ref.buffer.get(), ref.offset);
}

Status GraphCommandBuffer::FillImpl(const hal::BufferRef& target, uint32_t pattern, uint32_t pattern_length) {
  RT_ASSIGN_OR_RETURN(uint64_t length, target.buffer->ResolveRange(target.offset, target.length));
  if (length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(CUdeviceptr dst, Address(target));
  CUDA_MEMSET_NODE_PARAMS params = {};
  params.dst = dst;
  params.elementSize = pattern_length;
  params.width = length / pattern_length;
  params.height = 1;
  params.pitch = 0;
  params.value = pattern_length == 1 ? (pattern & 0xFF) : pattern_length == 2 ? (pattern & 0xFFFF) : pattern;
  CUgraphNode node = nullptr;
  RT_CUDA_RETURN_IF_ERROR(context_->syms(),
                          cuGraphAddMemsetNode(&node, graph_, dependencies_.data(), dependencies_.size(),
                                               &params, context_->context()),
                          "cuGraphAddMemsetNode");
  AddedNode(node);
  return Status::Ok();
}

Status GraphCommandBuffer::UpdateImpl(const void* source, uint64_t length, const hal::BufferRef& target) {
  if (length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(CUdeviceptr dst, Address(target));
  // Graph copies cannot read pageable memory, and the caller may reuse |source| at once.
  void* staging = nullptr;
  RT_CUDA_RETURN_IF_ERROR(context_->syms(), cuMemHostAlloc(&staging, length, CU_MEMHOSTALLOC_PORTABLE),
                          "cuMemHostAlloc (update staging)");
  staging_.push_back(staging);
  std::memcpy(staging, source, length);
  CUDA_MEMCPY3D copy = LinearCopy(dst, reinterpret_cast<CUdeviceptr>(staging), length);
  CUgraphNode node = nullptr;
  RT_CUDA_RETURN_IF_ERROR(context_->syms(),
                          cuGraphAddMemcpyNode(&node, graph_, dependencies_.data(), dependencies_.size(),
                                               &copy, context_->context()),
                          "cuGraphAddMemcpyNode (update)");
  AddedNode(node);
  return Status::Ok();
}

Status GraphCommandBuffer::CopyImpl(const hal::BufferRef& source, const hal::BufferRef& target,
                                    uint64_t length) {
  if (length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(CUdeviceptr src, Address(source));
  RT_ASSIGN_OR_RETURN(CUdeviceptr dst, Address(target));
  CUDA_MEMCPY3D copy = LinearCopy(dst, src, length);
  CUgraphNode node = nullptr;
  RT_CUDA_RETURN_IF_ERROR(context_->syms(),
                          cuGraphAddMemcpyNode(&node, graph_, dependencies_.data(), dependencies_.size(),
                                               &copy, context_->context()),
                          "cuGraphAddMemcpyNode (copy)");
  AddedNode(node);
  return Status::Ok();
}

Status GraphCommandBuffer::DispatchImpl(const Ref<hal::Executable>& executable, uint32_t export_ordinal,
                                        const hal::DispatchConfig& config, std::span<const uint32_t> constants,
                                        std::span<const hal::BufferRef> bindings, hal::DispatchFlags flags) {
  if (flags != 0) {
    return base::UnimplementedError("indirect workgroup counts are not supported by the CUDA driver");
  }
  Executable* cuda_executable = Executable::Cast(executable.get());
  if (!cuda_executable) return base::InvalidArgumentError("executable was not loaded by a CUDA device");
  const uint32_t* count = config.workgroup_count;
  if (count[0] == 0 || count[1] == 0 || count[2] == 0) return Status::Ok();
  RT_RETURN_IF_ERROR(context_->Activate());
  executables_.push_back(executable);
  std::vector<CUdeviceptr> addresses(bindings.size());
  for (size_t i = 0; i < bindings.size(); ++i) {
    RT_ASSIGN_OR_RETURN(addresses[i], Address(bindings[i]));
  }
  const Kernel& kernel = cuda_executable->kernel(export_ordinal);
  RT_RETURN_IF_ERROR(CheckBindingAlignment(addresses));
  KernelArgs args(addresses, constants);
  CUDA_KERNEL_NODE_PARAMS params = {};
  params.func = kernel.function;
  params.gridDimX = count[0];
  params.gridDimY = count[1];
  params.gridDimZ = count[2];
  params.blockDimX = kernel.block_dims[0];
  params.blockDimY = kernel.block_dims[1];
  params.blockDimZ = kernel.block_dims[2];
  params.sharedMemBytes = kernel.shared_memory_bytes;
  params.kernelParams = args.params();
  CUgraphNode node = nullptr;
  RT_CUDA_RETURN_IF_ERROR(context_->syms(),
                          cuGraphAddKernelNode(&node, graph_, dependencies_.data(), dependencies_.size(), &params),
                          "cuGraphAddKernelNode");
  AddedNode(node);
  return Status::Ok();
}

Status GraphCommandBuffer::ExecutionBarrierImpl() {
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

Status GraphCommandBuffer::FinalizeImpl() {
  RT_RETURN_IF_ERROR(context_->Activate());
  return ToStatus(context_->syms(), context_->syms().cuGraphInstantiateWithFlags(&exec_, graph_, 0),
                  "cuGraphInstantiateWithFlags");
}

Status GraphCommandBuffer::Launch(CUstream stream) const {
  return ToStatus(context_->syms(), context_->syms().cuGraphLaunch(exec_, stream), "cuGraphLaunch");
}

}  // namespace iree_rt::drivers::cuda
