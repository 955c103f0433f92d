// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/command_buffer.h"

#include <tuple>

namespace iree_rt::hal {

using base::Ref;
using base::Status;

Status CommandBuffer::ValidateRecording(CommandCategoryBits category) const {
  if (finalized_) return base::FailedPreconditionError("command buffer is finalized; recording ended");
  if (!(categories_ & category)) {
    return base::InvalidArgumentError("command buffer was created for categories 0x", std::hex,
                                      categories_, " which lack 0x", category);
  }
  return Status::Ok();
}

Status CommandBuffer::ValidateRef(const BufferRef& ref, BufferUsageBits usage, const char* what,
                                  uint64_t length) {
  if (!ref.buffer) {
    if (ref.slot >= binding_capacity_) {
      return base::OutOfRangeError(what, " uses binding slot ", ref.slot,
                                   " but the binding capacity is ", binding_capacity_);
    }
    if (ref.slot + 1 > max_slot_used_plus_one_) max_slot_used_plus_one_ = ref.slot + 1;
    return Status::Ok();
  }
  if (!(ref.buffer->allowed_usage() & usage)) {
    return base::InvalidArgumentError(what, " buffer usage (", BufferUsageToString(ref.buffer->allowed_usage()),
                                      ") lacks ", BufferUsageToString(usage));
  }
  Status status = ref.buffer->ResolveRange(ref.offset, length).status();
  if (!status.ok()) status.Annotate(what);
  return status;
}

Status CommandBuffer::Fill(const BufferRef& target, uint32_t pattern, uint32_t pattern_length) {
  RT_RETURN_IF_ERROR(ValidateRecording(CommandCategory::kTransfer));
  RT_RETURN_IF_ERROR(Buffer::ValidateFillPattern(target.offset, target.length, pattern_length));
  RT_RETURN_IF_ERROR(ValidateRef(target, BufferUsage::kTransferTarget, "fill target", target.length));
  return FillImpl(target, pattern, pattern_length);
}

Status CommandBuffer::Update(const void* source, uint64_t length, const BufferRef& target) {
  RT_RETURN_IF_ERROR(ValidateRecording(CommandCategory::kTransfer));
  if (length == kWholeBuffer) return base::InvalidArgumentError("update needs an exact length, not WHOLE_BUFFER");
  if (!source && length) return base::InvalidArgumentError("update source is null");
  RT_RETURN_IF_ERROR(ValidateRef(target, BufferUsage::kTransferTarget, "update target", length));
  return UpdateImpl(source, length, target);
}

Status CommandBuffer::Copy(const BufferRef& source, const BufferRef& target, uint64_t length) {
  RT_RETURN_IF_ERROR(ValidateRecording(CommandCategory::kTransfer));
  if (length == kWholeBuffer) return base::InvalidArgumentError("copy needs an exact length, not WHOLE_BUFFER");
  RT_RETURN_IF_ERROR(ValidateRef(source, BufferUsage::kTransferSource, "copy source", length));
  RT_RETURN_IF_ERROR(ValidateRef(target, BufferUsage::kTransferTarget, "copy target", length));
  return CopyImpl(source, target, length);
}

Status CommandBuffer::Dispatch(const Ref<Executable>& executable, uint32_t export_ordinal,
                               const DispatchConfig& config, std::span<const uint32_t> constants,
                               std::span<const BufferRef> bindings, DispatchFlags flags) {
  RT_RETURN_IF_ERROR(ValidateRecording(CommandCategory::kDispatch));
  if (!executable) return base::InvalidArgumentError("dispatch of a null executable");
  if (export_ordinal >= executable->export_count()) {
    return base::OutOfRangeError("export ordinal ", export_ordinal, " out of range (executable has ",
                                 executable->export_count(), " exports)");
  }
  const ExportInfo& info = executable->export_info(export_ordinal);
  if (constants.size() != info.constant_count) {
    return base::InvalidArgumentError("export '", info.name, "' takes ", info.constant_count,
                                      " constants, dispatch passed ", constants.size());
  }
  if (bindings.size() != info.binding_count) {
    return base::InvalidArgumentError("export '", info.name, "' takes ", info.binding_count,
                                      " bindings, dispatch passed ", bindings.size());
  }
  const DispatchFlags indirect =
      DispatchFlag::kDynamicIndirectParameters | DispatchFlag::kStaticIndirectParameters;
  if (flags & ~indirect) return base::UnimplementedError("dispatch flags 0x", std::hex, flags, " not supported");
  if (flags & indirect) {
    RT_RETURN_IF_ERROR(ValidateRef(config.workgroup_count_ref, BufferUsage::kDispatchIndirectParameters |
                                       BufferUsage::kTransfer | BufferUsage::kDispatchStorage,
                                   "indirect workgroup count", 3 * sizeof(uint32_t)));
  }
  for (size_t i = 0; i < bindings.size(); ++i) {
    Status status = ValidateRef(bindings[i], BufferUsage::kDispatchStorage | BufferUsage::kDispatchUniformRead,
                                "dispatch binding", bindings[i].length);
    if (!status.ok()) return status.Annotate(base::StrCat("binding ", i, " of export '", info.name, "'"));
  }
  return DispatchImpl(executable, export_ordinal, config, constants, bindings, flags);
}

Status CommandBuffer::ExecutionBarrier(ExecutionStageBits source_stages, ExecutionStageBits target_stages) {
  if (finalized_) return base::FailedPreconditionError("command buffer is finalized; recording ended");
  return ExecutionBarrierImpl();
}

Status CommandBuffer::Collective(const Ref<Channel>& channel, const CollectiveOp& op, uint32_t param,
                                 const BufferRef& send, const BufferRef& recv, uint64_t element_count) {
  RT_RETURN_IF_ERROR(ValidateRecording(CommandCategory::kDispatch));
  if (!channel) return base::InvalidArgumentError(op.ToString(), " on a null channel");
  RT_ASSIGN_OR_RETURN(CollectiveBytes bytes, CollectiveByteCounts(op, channel->count(), element_count));
  for (const auto& [ref, needed, what] : {std::tuple{&send, bytes.send, "send"}, std::tuple{&recv, bytes.recv, "recv"}}) {
    if (needed && ref->length != kWholeBuffer && ref->length < needed) {
      return base::InvalidArgumentError(op.ToString(), " of ", element_count, " elements over ", channel->count(),
                                        " ranks needs ", needed, " ", what, " bytes; the range has ", ref->length);
    }
  }
  if (bytes.send) {
    Status status = ValidateRef(send, BufferUsage::kDispatchStorageRead, "collective send", bytes.send);
    if (!status.ok()) return status.Annotate(op.ToString());
  }
  if (bytes.recv) {
    Status status = ValidateRef(recv, BufferUsage::kDispatchStorageWrite, "collective recv", bytes.recv);
    if (!status.ok()) return status.Annotate(op.ToString());
  }
  return CollectiveImpl(channel, op, param, send, recv, element_count, bytes);
}

Status CommandBuffer::Finalize() {
  if (finalized_) return base::FailedPreconditionError("command buffer is already finalized");
  RT_RETURN_IF_ERROR(FinalizeImpl());
  finalized_ = true;
  return Status::Ok();
}

Status CommandBuffer::ValidateBindingTable(std::span<const BufferBinding> bindings) const {
  if (bindings.size() < max_slot_used_plus_one_) {
    return base::InvalidArgumentError("binding table has ", bindings.size(),
                                      " entries but the command buffer uses slot ",
                                      max_slot_used_plus_one_ - 1);
  }
  for (size_t i = 0; i < max_slot_used_plus_one_; ++i) {
    if (!bindings[i].buffer) continue;  // unused slots may be empty; used ones are checked at replay
    Status status = bindings[i].buffer->ResolveRange(bindings[i].offset, bindings[i].length).status();
    if (!status.ok()) return status.Annotate(base::StrCat("binding table slot ", i));
  }
  return Status::Ok();
}

}  // namespace iree_rt::hal
