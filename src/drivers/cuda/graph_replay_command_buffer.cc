// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/graph_replay_command_buffer.h"

#include <utility>

#include "drivers/cuda/buffer.h"
#include "drivers/cuda/stream_target.h"

namespace iree_rt::drivers::cuda {

using base::Ref;
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

 private:
  Status Add(const ResolvedRef& ref) {
    RT_ASSIGN_OR_RETURN(CUdeviceptr address, Buffer::ResolveDevicePointer(ref.buffer, ref.offset));
    key.push_back(address);
    key.push_back(ref.length);
    return Status::Ok();
  }
};

// Records a replay into a graph command buffer, every reference made direct.
class GraphTarget final : public hal::utils::CommandTarget {
 public:
  explicit GraphTarget(GraphCommandBuffer& graph) : graph_(graph) {}

  Status Fill(const ResolvedRef& target, uint32_t pattern, uint32_t pattern_length) override {
    return graph_.Fill(Direct(target), pattern, pattern_length);
  }
  Status Update(const uint8_t* source, const ResolvedRef& target) override {
    return graph_.Update(source, target.length, Direct(target));
  }
  Status Copy(const ResolvedRef& source, const ResolvedRef& target) override {
    return graph_.Copy(Direct(source), Direct(target), target.length);
  }
  Status Dispatch(hal::Executable& executable, uint32_t export_ordinal, const uint32_t workgroup_count[3],
                  const ResolvedRef* indirect_count, std::span<const uint32_t> constants,
                  std::span<const ResolvedRef> bindings) override {
    if (indirect_count) {
      return base::UnimplementedError("indirect workgroup counts are not supported by the CUDA driver");
    }
    hal::DispatchConfig config;
    for (int i = 0; i < 3; ++i) config.workgroup_count[i] = workgroup_count[i];
    std::vector<hal::BufferRef> refs;
    refs.reserve(bindings.size());
    for (const ResolvedRef& binding : bindings) refs.push_back(Direct(binding));
    return graph_.Dispatch(Ref<hal::Executable>::Retain(&executable), export_ordinal, config, constants,
                           refs, hal::DispatchFlag::kNone);
  }
  Status Barrier() override { return graph_.ExecutionBarrier(0, 0); }

 private:
  static hal::BufferRef Direct(const ResolvedRef& ref) {
    hal::BufferRef direct;
    direct.buffer = Ref<hal::Buffer>::Retain(ref.buffer);
    direct.offset = ref.offset;
    direct.length = ref.length;
    return direct;
  }

  GraphCommandBuffer& graph_;
};

}  // namespace

GraphReplayCommandBuffer::GraphReplayCommandBuffer(Ref<Context> context, hal::CommandBufferModeBits mode,
                                                   hal::CommandCategoryBits categories,
                                                   uint32_t binding_capacity)
    : hal::CommandBuffer(mode, categories, binding_capacity),
      context_(std::move(context)),
      deferred_(base::MakeRef<hal::utils::DeferredCommandBuffer>(mode, categories, binding_capacity)) {}

Ref<GraphReplayCommandBuffer> GraphReplayCommandBuffer::Create(Ref<Context> context,
                                                               hal::CommandBufferModeBits mode,
                                                               hal::CommandCategoryBits categories,
                                                               uint32_t binding_capacity) {
  return base::MakeRef<GraphReplayCommandBuffer>(std::move(context), mode, categories, binding_capacity);
}

// Recording is validated by hal::CommandBuffer before it reaches here, and again (identically)
// by the deferred command buffer; it happens once per command buffer.
void GraphReplayCommandBuffer::NoteDirect(const hal::BufferRef& ref) {
  if (ref.buffer && !Buffer::Cast(ref.buffer->allocated_buffer())) direct_refs_movable_ = true;
}

Status GraphReplayCommandBuffer::FillImpl(const hal::BufferRef& target, uint32_t pattern,
                                          uint32_t pattern_length) {
  NoteDirect(target);
  return deferred_->Fill(target, pattern, pattern_length);
}

Status GraphReplayCommandBuffer::UpdateImpl(const void* source, uint64_t length, const hal::BufferRef& target) {
  NoteDirect(target);
  return deferred_->Update(source, length, target);
}

Status GraphReplayCommandBuffer::CopyImpl(const hal::BufferRef& source, const hal::BufferRef& target,
                                          uint64_t length) {
  NoteDirect(source);
  NoteDirect(target);
  return deferred_->Copy(source, target, length);
}

Status GraphReplayCommandBuffer::DispatchImpl(const Ref<hal::Executable>& executable, uint32_t export_ordinal,
                                              const hal::DispatchConfig& config,
                                              std::span<const uint32_t> constants,
                                              std::span<const hal::BufferRef> bindings,
                                              hal::DispatchFlags flags) {
  for (const hal::BufferRef& binding : bindings) NoteDirect(binding);
  if (config.workgroup_count_ref.buffer) NoteDirect(config.workgroup_count_ref);
  return deferred_->Dispatch(executable, export_ordinal, config, constants, bindings, flags);
}

Status GraphReplayCommandBuffer::ExecutionBarrierImpl() { return deferred_->ExecutionBarrier(0, 0); }

Status GraphReplayCommandBuffer::FinalizeImpl() { return deferred_->Finalize(); }

Status GraphReplayCommandBuffer::ReplayOnStream(std::span<const hal::BufferBinding> binding_table,
                                                CUstream stream) const {
  StreamTarget target(*context_, stream);
  return deferred_->Replay(binding_table, target);
}

bool GraphReplayCommandBuffer::TableKey(std::span<const hal::BufferBinding> binding_table,
                                        std::vector<uint64_t>* key) {
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

Status GraphReplayCommandBuffer::Launch(std::span<const hal::BufferBinding> binding_table, CUstream stream) {
  if (stream_only_) return ReplayOnStream(binding_table, stream);
  // Same table resolution as a launch that used graph_, and nothing direct can move: the full
  // key would match too.
  const bool table_keyed = !direct_refs_movable_ && TableKey(binding_table, &scratch_key_);
  // Under a CUDA tool, every submission gets a graph of its own: compute-sanitizer (CUDA 13.0)
  // dereferences null inside cuGraphLaunch when an exec is relaunched after the pool memory its
  // nodes use was freed and allocated again at the same address. After kMaxBuilds, as usual,
  // submissions replay onto the stream.
  const bool reuse = !context_->tool_injected();
  if (reuse && table_keyed && graph_ && scratch_key_ == table_key_) return graph_->Launch(stream);
  table_key_.clear();
  KeyTarget key;
  RT_RETURN_IF_ERROR(deferred_->Replay(binding_table, key));
  if (!graph_ || key.key != key_ || !reuse) {
    if (builds_ == kMaxBuilds) {
      stream_only_ = true;
      return ReplayOnStream(binding_table, stream);
    }
    ++builds_;
    base::StatusOr<Ref<GraphCommandBuffer>> graph =
        GraphCommandBuffer::Create(context_, mode(), categories(), /*retain_buffers=*/false);
    Status status = graph.status();
    if (status.ok()) {
      GraphTarget target(**graph);
      status = deferred_->Replay(binding_table, target);
      if (status.ok()) status = (*graph)->Finalize();
    }
    if (!status.ok()) {
      // Not expressible as a graph (or not this time): the stream reports real errors itself.
      stream_only_ = true;
      return ReplayOnStream(binding_table, stream);
    }
    // An earlier graph may still be running: destroying its exec is deferred by CUDA, but its
    // staged update data must outlive it, so earlier builds live as long as this object.
    if (graph_) retired_.push_back(std::move(graph_));
    graph_ = std::move(graph).value();
    key_ = std::move(key.key);
  }
  if (table_keyed) table_key_.swap(scratch_key_);
  return graph_->Launch(stream);
}

}  // namespace iree_rt::drivers::cuda
