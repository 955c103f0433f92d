// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/command_buffer.h"

#include <utility>

#include "base/trace.h"
#include "drivers/cuda/buffer.h"
#include "drivers/cuda/cupti_tracer.h"
#include "drivers/cuda/executable.h"
#include "drivers/cuda/nccl_channel.h"
#include "drivers/cuda/stream_target.h"

namespace iree_rt::drivers::cuda {

using base::Status;
using hal::utils::ResolvedRef;

namespace {

// Collects every resolved device address and length of a replay: equal keys give equal graphs
// (everything else a graph holds is fixed at record time).
class KeyTarget final : public hal::utils::CommandTarget {
 public:
  std::vector<uint64_t> key;

  Status Fill(const ResolvedRef& target, uint32_t, uint32_t) override { return Add(target); }
  Status Update(const uint8_t*, const ResolvedRef& target) override { return Add(target); }
  Status Copy(const ResolvedRef& source, const ResolvedRef& target) override {
    RT_RETURN_IF_ERROR(Add(source));
    return Add(target);
  }
  Status Dispatch(hal::Executable&, uint32_t, const uint32_t[3], const ResolvedRef* indirect_count,
                  std::span<const uint32_t>, std::span<const ResolvedRef> bindings) override {
    if (indirect_count) RT_RETURN_IF_ERROR(Add(*indirect_count));
    for (const ResolvedRef& binding : bindings) RT_RETURN_IF_ERROR(Add(binding));
    return Status::Ok();
  }
  Status Barrier() override { return Status::Ok(); }
  Status Collective(hal::Channel&, const hal::CollectiveOp&, uint32_t, const ResolvedRef* send,
                    const ResolvedRef* recv, uint64_t) override {
    if (send) RT_RETURN_IF_ERROR(Add(*send));
    if (recv) RT_RETURN_IF_ERROR(Add(*recv));
    return Status::Ok();
  }

 private:
  Status Add(const ResolvedRef& ref) {
    RT_ASSIGN_OR_RETURN(CUdeviceptr address, Buffer::ResolveDevicePointer(ref.buffer, ref.offset));
    key.push_back(address);
    key.push_back(ref.length);
    return Status::Ok();
  }
};

}  // namespace

Status CommandBuffer::DispatchImpl(const base::Ref<hal::Executable>& executable, uint32_t export_ordinal,
                                   const hal::DispatchConfig& config, std::span<const uint32_t> constants,
                                   std::span<const hal::BufferRef> bindings, hal::DispatchFlags flags) {
  if (flags != hal::DispatchFlag::kNone) {
    return base::UnimplementedError(
        "indirect workgroup counts are not supported by the CUDA driver (the grid must be known on the "
        "host at launch)");
  }
  if (!Executable::Cast(executable.get())) {
    return base::InvalidArgumentError("executable was not loaded by a CUDA device");
  }
  return DeferredCommandBuffer::DispatchImpl(executable, export_ordinal, config, constants, bindings, flags);
}

Status CommandBuffer::CollectiveImpl(const base::Ref<hal::Channel>& channel, const hal::CollectiveOp& op,
                                     uint32_t param, const hal::BufferRef& send, const hal::BufferRef& recv,
                                     uint64_t element_count, const hal::CollectiveBytes& bytes) {
  if (!NcclChannel::Cast(channel.get())) {
    return base::InvalidArgumentError(op.ToString(), ": the channel was not created by a CUDA device");
  }
  RT_RETURN_IF_ERROR(NcclChannel::CheckSupported(op));
  return DeferredCommandBuffer::CollectiveImpl(channel, op, param, send, recv, element_count, bytes);
}

Status CommandBuffer::FinalizeImpl() {
  // A queue alloca's storage may sit elsewhere at the next submission.
  direct_refs_movable_ =
      AnyDirectRef([](hal::Buffer& buffer) { return Buffer::Cast(buffer.allocated_buffer()) == nullptr; });
  for (hal::Channel* channel : channels()) channels_.push_back(NcclChannel::Cast(channel));
  return DeferredCommandBuffer::FinalizeImpl();
}

Status CommandBuffer::ReplayOnStream(std::span<const hal::BufferBinding> binding_table, CUstream stream,
                                     const TraceTimer::Mark& span) const {
  StreamTarget target(*context_, stream, span);
  return Replay(binding_table, target);
}

bool CommandBuffer::TableKey(std::span<const hal::BufferBinding> binding_table, std::vector<uint64_t>* key) {
  key->clear();
  for (const hal::BufferBinding& binding : binding_table) {
    uint64_t address = 0, size = 0;
    if (binding.buffer) {
      base::StatusOr<CUdeviceptr> resolved = Buffer::ResolveDevicePointer(binding.buffer.get(), binding.offset);
      if (!resolved.ok()) return false;
      address = *resolved;
      size = binding.buffer->byte_length();
    }
    key->insert(key->end(), {address, binding.offset, binding.length, size});
  }
  return true;
}

Status CommandBuffer::Launch(std::span<const hal::BufferBinding> binding_table, CUstream stream, uint64_t flow) {
  RT_RETURN_IF_ERROR(CollectiveHealth());
  // Traced by CUPTI where it runs (nothing added to the work), else by CUDA events.
  CuptiTracer* cupti = CuptiTracer::Get();  // null unless tracing
  const uint64_t submission = cupti ? cupti->BeginSubmission() : 0;
  TraceTimer& timer = context_->trace_timer();
  TraceTimer::Mark span = cupti ? TraceTimer::Mark{} : timer.BeginSubmission(stream);  // empty unless tracing
  Status status = (!use_graphs_ || stream_only_) ? ReplayOnStream(binding_table, stream, span)
                                                 : LaunchGraph(binding_table, stream, span);
  if (cupti) cupti->EndSubmission(submission, static_cast<int>(context_->device()), flow);
  if (span) timer.End(stream, std::move(span), {"queue", "command buffer", ""}, flow);
  RT_RETURN_IF_ERROR(status);
  for (NcclChannel* channel : channels_) RT_RETURN_IF_ERROR(channel->Watch(stream));
  return Status::Ok();
}

Status CommandBuffer::CollectiveHealth() const {
  for (const NcclChannel* channel : channels_) RT_RETURN_IF_ERROR(channel->health());
  return Status::Ok();
}

Status CommandBuffer::LaunchGraph(std::span<const hal::BufferBinding> binding_table, CUstream stream,
                                  const TraceTimer::Mark& span) {
  // Same table resolution as a launch that used graph_, and nothing direct can move: the full
  // key would match too.
  const bool table_keyed = !direct_refs_movable_ && TableKey(binding_table, &scratch_key_);
  // Under a CUDA tool, every submission gets a graph of its own: compute-sanitizer (CUDA 13.0)
  // dereferences null inside cuGraphLaunch when an exec is relaunched after the pool memory its
  // nodes use was freed and allocated again at the same address. After kMaxBuilds, as usual,
  // submissions replay onto the stream.
  const bool reuse = !context_->tool_injected();
  // A graph is timed when built while tracing; switching tracing builds the other kind.
  const bool timed = base::trace::Enabled() && !CuptiTracer::Active();
  const bool same_timing = graph_ && graph_->timed() == timed;
  if (reuse && table_keyed && same_timing && scratch_key_ == table_key_) return graph_->Launch(stream, span);
  table_key_.clear();
  // A one-shot command buffer runs once: its graph is built without comparing keys.
  const bool one_shot = (mode() & hal::CommandBufferMode::kOneShot) != 0;
  KeyTarget key;
  if (!one_shot) RT_RETURN_IF_ERROR(Replay(binding_table, key));
  if (!same_timing || key.key != key_ || !reuse) {
    if (builds_ == kMaxBuilds) {
      stream_only_ = true;
      return ReplayOnStream(binding_table, stream, span);
    }
    ++builds_;
    base::StatusOr<std::unique_ptr<Graph>> graph = Graph::Create(context_, timed);
    Status status = graph.status();
    if (status.ok()) status = Replay(binding_table, **graph);
    if (status.ok()) status = (*graph)->Instantiate();
    if (!status.ok()) {
      // Not expressible as a graph (or not this time): the stream reports real errors itself.
      stream_only_ = true;
      return ReplayOnStream(binding_table, stream, span);
    }
    if (graph_) retired_.push_back(std::move(graph_));
    graph_ = std::move(graph).value();
    key_ = std::move(key.key);
  }
  if (table_keyed) table_key_.swap(scratch_key_);
  return graph_->Launch(stream, span);
}

}  // namespace iree_rt::drivers::cuda
