// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/deferred_command_buffer.h"

#include <algorithm>
#include <cstring>

#include "base/inline_vector.h"

namespace iree_rt::hal::utils {

using base::Status;
using base::StatusOr;

StatusOr<ResolvedRef> ResolveBufferRef(const BufferRef& ref, uint64_t length,
                                       std::span<const BufferBinding> binding_table) {
  Buffer* buffer = ref.buffer.get();
  uint64_t base_offset = 0;
  uint64_t available = 0;
  if (buffer) {
    available = buffer->byte_length();
  } else {
    if (ref.slot >= binding_table.size()) {
      return base::OutOfRangeError("binding slot ", ref.slot, " is past the binding table (",
                                   binding_table.size(), " entries)");
    }
    const BufferBinding& binding = binding_table[ref.slot];
    if (!binding.buffer) return base::InvalidArgumentError("binding table slot ", ref.slot, " is empty");
    buffer = binding.buffer.get();
    RT_ASSIGN_OR_RETURN(available, buffer->ResolveRange(binding.offset, binding.length));
    base_offset = binding.offset;
  }
  if (ref.offset > available) {
    return base::OutOfRangeError("offset ", ref.offset, " is past the end of a ", available, "-byte range");
  }
  uint64_t resolved = length == kWholeBuffer ? available - ref.offset : length;
  if (resolved > available - ref.offset) {
    return base::OutOfRangeError("range [", ref.offset, ", +", resolved, ") overruns a ", available,
                                 "-byte range");
  }
  return ResolvedRef{buffer, base_offset + ref.offset, resolved};
}

Status DeferredCommandBuffer::FillImpl(const BufferRef& target, uint32_t pattern, uint32_t pattern_length) {
  has_other_work_ = true;
  commands_.emplace_back(FillCmd{target, pattern, pattern_length});
  return Status::Ok();
}

Status DeferredCommandBuffer::UpdateImpl(const void* source, uint64_t length, const BufferRef& target) {
  const auto* bytes = static_cast<const uint8_t*>(source);
  has_other_work_ = true;
  UpdateCmd cmd{std::vector<uint8_t>(bytes, bytes + length), target};
  cmd.target.length = length;
  commands_.emplace_back(std::move(cmd));
  return Status::Ok();
}

Status DeferredCommandBuffer::CopyImpl(const BufferRef& source, const BufferRef& target, uint64_t length) {
  has_other_work_ = true;
  commands_.emplace_back(CopyCmd{source, target, length});
  return Status::Ok();
}

Status DeferredCommandBuffer::DispatchImpl(const base::Ref<Executable>& executable,
                                           uint32_t export_ordinal, const DispatchConfig& config,
                                           std::span<const uint32_t> constants,
                                           std::span<const BufferRef> bindings, DispatchFlags flags) {
  const DispatchFlags indirect =
      DispatchFlag::kDynamicIndirectParameters | DispatchFlag::kStaticIndirectParameters;
  if (flags & indirect) {
    has_other_work_ = true;
  } else {
    const uint64_t count = uint64_t{config.workgroup_count[0]} * config.workgroup_count[1] *
                           config.workgroup_count[2];
    workgroup_total_ = std::min<uint64_t>(workgroup_total_ + count, uint64_t{1} << 62);
  }
  commands_.emplace_back(DispatchCmd{executable, export_ordinal, config, (flags & indirect) != 0,
                                     {constants.begin(), constants.end()},
                                     {bindings.begin(), bindings.end()}});
  return Status::Ok();
}

Status CommandTarget::Collective(Channel&, const CollectiveOp& op, uint32_t, const ResolvedRef*,
                                 const ResolvedRef*, uint64_t) {
  return base::UnimplementedError(op.ToString(), ": this device runs no collectives");
}

Status DeferredCommandBuffer::CollectiveImpl(const base::Ref<Channel>& channel, const CollectiveOp& op,
                                             uint32_t param, const BufferRef& send, const BufferRef& recv,
                                             uint64_t element_count, const CollectiveBytes& bytes) {
  has_other_work_ = true;
  commands_.emplace_back(CollectiveCmd{channel, op, param, send, recv, element_count, bytes});
  return Status::Ok();
}

Status DeferredCommandBuffer::ExecutionBarrierImpl() {
  commands_.emplace_back(BarrierCmd{});
  return Status::Ok();
}

bool DeferredCommandBuffer::AnyDirectRef(bool (*match)(Buffer& buffer)) const {
  auto direct = [&](const BufferRef& ref) { return ref.buffer && match(*ref.buffer); };
  for (const Command& command : commands_) {
    if (const auto* dispatch = std::get_if<DispatchCmd>(&command)) {
      if (dispatch->indirect && direct(dispatch->config.workgroup_count_ref)) return true;
      for (const BufferRef& binding : dispatch->bindings) {
        if (direct(binding)) return true;
      }
    } else if (const auto* fill = std::get_if<FillCmd>(&command)) {
      if (direct(fill->target)) return true;
    } else if (const auto* update = std::get_if<UpdateCmd>(&command)) {
      if (direct(update->target)) return true;
    } else if (const auto* copy = std::get_if<CopyCmd>(&command)) {
      if (direct(copy->source) || direct(copy->target)) return true;
    } else if (const auto* collective = std::get_if<CollectiveCmd>(&command)) {
      if (direct(collective->send) || direct(collective->recv)) return true;
    }
  }
  return false;
}

std::vector<Channel*> DeferredCommandBuffer::channels() const {
  std::vector<Channel*> found;
  for (const Command& command : commands_) {
    if (const auto* collective = std::get_if<CollectiveCmd>(&command)) {
      if (std::find(found.begin(), found.end(), collective->channel.get()) == found.end()) {
        found.push_back(collective->channel.get());
      }
    }
  }
  return found;
}

std::optional<uint64_t> DeferredCommandBuffer::EstimateSerialNs(WorkgroupCostFn cost) const {
  uint64_t total = 0;
  auto transfer = [&](uint64_t bytes) {
    if (bytes == kWholeBuffer) return false;
    total += bytes / kTransferBytesPerNs;
    return true;
  };
  for (const Command& command : commands_) {
    if (const auto* dispatch = std::get_if<DispatchCmd>(&command)) {
      if (dispatch->indirect) return std::nullopt;
      const uint64_t ns = cost(*dispatch->executable, dispatch->export_ordinal);
      if (ns == 0) return std::nullopt;
      const uint32_t* count = dispatch->config.workgroup_count;
      // Each factor is below 2^32 and ns below 2^32 (TileCost), so saturate rather than wrap.
      const uint64_t workgroups = uint64_t{count[0]} * count[1];
      const uint64_t limit = UINT64_MAX / 2;
      if (workgroups != 0 && count[2] > limit / workgroups) return std::nullopt;
      const uint64_t all = workgroups * count[2];
      if (all != 0 && ns > (limit - total) / all) return std::nullopt;
      total += ns * all;
    } else if (const auto* fill = std::get_if<FillCmd>(&command)) {
      if (!transfer(fill->target.length)) return std::nullopt;
    } else if (const auto* update = std::get_if<UpdateCmd>(&command)) {
      if (!transfer(update->data.size())) return std::nullopt;
    } else if (const auto* copy = std::get_if<CopyCmd>(&command)) {
      if (!transfer(copy->length)) return std::nullopt;
    } else if (std::holds_alternative<CollectiveCmd>(command)) {
      return std::nullopt;  // waits on peers: never worth running inline
    }
    if (total > UINT64_MAX / 2) return std::nullopt;
  }
  return total;
}

Status DeferredCommandBuffer::Replay(std::span<const BufferBinding> table, CommandTarget& target) const {
  base::InlineVector<ResolvedRef, 8> bindings;  // reused across dispatches
  for (size_t index = 0; index < commands_.size(); ++index) {
    const Command& command = commands_[index];
    Status status;
    if (const auto* fill = std::get_if<FillCmd>(&command)) {
      StatusOr<ResolvedRef> ref = ResolveBufferRef(fill->target, fill->target.length, table);
      status = ref.ok() ? target.Fill(*ref, fill->pattern, fill->pattern_length) : ref.status();
    } else if (const auto* update = std::get_if<UpdateCmd>(&command)) {
      StatusOr<ResolvedRef> ref = ResolveBufferRef(update->target, update->data.size(), table);
      status = ref.ok() ? target.Update(update->data.data(), *ref) : ref.status();
    } else if (const auto* copy = std::get_if<CopyCmd>(&command)) {
      StatusOr<ResolvedRef> source = ResolveBufferRef(copy->source, copy->length, table);
      StatusOr<ResolvedRef> dest = ResolveBufferRef(copy->target, copy->length, table);
      status = !source.ok() ? source.status() : !dest.ok() ? dest.status() : target.Copy(*source, *dest);
    } else if (const auto* dispatch = std::get_if<DispatchCmd>(&command)) {
      bindings.clear();
      for (const BufferRef& binding : dispatch->bindings) {
        StatusOr<ResolvedRef> ref = ResolveBufferRef(binding, binding.length, table);
        if (!ref.ok()) {
          status = ref.status();
          break;
        }
        bindings.push_back(*ref);
      }
      ResolvedRef indirect;
      if (status.ok() && dispatch->indirect) {
        StatusOr<ResolvedRef> ref =
            ResolveBufferRef(dispatch->config.workgroup_count_ref, 3 * sizeof(uint32_t), table);
        if (ref.ok()) indirect = *ref; else status = ref.status();
      }
      if (status.ok()) {
        status = target.Dispatch(*dispatch->executable, dispatch->export_ordinal,
                                 dispatch->config.workgroup_count, dispatch->indirect ? &indirect : nullptr,
                                 dispatch->constants, bindings);
      }
    } else if (const auto* collective = std::get_if<CollectiveCmd>(&command)) {
      ResolvedRef send, recv;
      if (collective->bytes.send) {
        StatusOr<ResolvedRef> ref = ResolveBufferRef(collective->send, collective->bytes.send, table);
        if (ref.ok()) send = *ref; else status = ref.status();
      }
      if (status.ok() && collective->bytes.recv) {
        StatusOr<ResolvedRef> ref = ResolveBufferRef(collective->recv, collective->bytes.recv, table);
        if (ref.ok()) recv = *ref; else status = ref.status();
      }
      if (status.ok()) {
        status = target.Collective(*collective->channel, collective->op, collective->param,
                                   collective->bytes.send ? &send : nullptr,
                                   collective->bytes.recv ? &recv : nullptr, collective->element_count);
      }
    } else {
      status = target.Barrier();
    }
    if (!status.ok()) return status.Annotate(base::StrCat("command ", index, " of the command buffer"));
  }
  return Status::Ok();
}

}  // namespace iree_rt::hal::utils
