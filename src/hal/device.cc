// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/device.h"

#include <cstring>
#include <memory>
#include <vector>

#include "base/glob.h"
#include "hal/staging_pool.h"
#include "hal/utils/transient_buffer.h"

namespace iree_rt::hal {

using base::Ref;
using base::Status;
using base::StatusOr;

Device::Device(std::string id, Ref<Allocator> allocator)
    : id_(std::move(id)), allocator_(std::move(allocator)), staging_pool_(base::MakeRef<StagingPool>()) {
  if (allocator_) allocator_->set_trace_name(id_);
}

Device::~Device() = default;

Status Device::ValidateLists(SemaphoreList wait, SemaphoreList signal) const {
  for (const SemaphorePoint& point : wait) {
    if (!point.semaphore) return base::InvalidArgumentError("null semaphore in the wait list");
  }
  for (const SemaphorePoint& point : signal) {
    if (!point.semaphore) return base::InvalidArgumentError("null semaphore in the signal list");
  }
  return Status::Ok();
}

StatusOr<int64_t> Device::QueryI64(std::string_view category, std::string_view key) {
  // Every driver answers the id query the same way, so programs select devices uniformly.
  if (category == "hal.device.id") return base::GlobMatch(key, id_) ? 1 : 0;
  return QueryI64Impl(category, key);
}

StatusOr<Ref<CommandBuffer>> Device::CreateCommandBuffer(CommandBufferModeBits mode,
                                                         CommandCategoryBits categories,
                                                         QueueAffinity affinity,
                                                         uint32_t binding_capacity) {
  if (mode & ~CommandBufferMode::kKnownBits) {
    return base::InvalidArgumentError("unknown command buffer mode bits 0x", std::hex, mode);
  }
  if ((mode & CommandBufferMode::kAllowInlineExecution) && !(mode & CommandBufferMode::kOneShot)) {
    return base::InvalidArgumentError("ALLOW_INLINE_EXECUTION requires ONE_SHOT");
  }
  if (categories == 0 || (categories & ~CommandCategory::kAny)) {
    return base::InvalidArgumentError("command categories 0x", std::hex, categories,
                                      " must be a non-empty mix of TRANSFER and DISPATCH");
  }
  if (affinity == 0) return base::InvalidArgumentError("queue affinity selects no queue");
  return CreateCommandBufferImpl(mode, categories, binding_capacity);
}

StatusOr<Ref<Semaphore>> Device::CreateSemaphore(uint64_t initial_value) {
  return CreateSemaphoreImpl(initial_value);
}

StatusOr<Ref<ExecutableCache>> Device::CreateExecutableCache() { return CreateExecutableCacheImpl(); }

StatusOr<Ref<Buffer>> Device::QueueAlloca(QueueAffinity affinity, SemaphoreList wait,
                                          SemaphoreList signal, const BufferParams& params,
                                          uint64_t size, uint64_t flags) {
  RT_RETURN_IF_ERROR(ValidateLists(wait, signal));
  BufferParams canonical = params;
  if (canonical.access == MemoryAccess::kNone) canonical.access = MemoryAccess::kAll;
  return QueueAllocaImpl(wait, signal, canonical, size, flags);
}

Status Device::QueueDealloca(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                             const Ref<Buffer>& buffer, uint64_t flags) {
  RT_RETURN_IF_ERROR(ValidateLists(wait, signal));
  if (!buffer) return base::InvalidArgumentError("dealloca of a null buffer");
  return QueueDeallocaImpl(wait, signal, buffer, flags);
}

Status Device::QueueFill(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                         const Ref<Buffer>& target, uint64_t offset, uint64_t length,
                         uint32_t pattern, uint32_t pattern_length) {
  RT_RETURN_IF_ERROR(ValidateLists(wait, signal));
  if (!target) return base::InvalidArgumentError("fill of a null buffer");
  RT_RETURN_IF_ERROR(Buffer::ValidateFillPattern(offset, length, pattern_length));
  RT_ASSIGN_OR_RETURN(uint64_t resolved, target->ResolveRange(offset, length));
  return QueueTransferImpl(wait, signal, [&](CommandBuffer& cb) {
    return cb.Fill(BufferRef{target, 0, offset, resolved}, pattern, pattern_length);
  });
}

Status Device::QueueUpdate(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                           const void* source, uint64_t length, const Ref<Buffer>& target,
                           uint64_t target_offset) {
  RT_RETURN_IF_ERROR(ValidateLists(wait, signal));
  if (!target) return base::InvalidArgumentError("update of a null buffer");
  RT_RETURN_IF_ERROR(target->ResolveRange(target_offset, length).status());
  // The command buffer copies |source| while recording, so the caller may reuse it on return.
  return QueueTransferImpl(wait, signal, [&](CommandBuffer& cb) {
    return cb.Update(source, length, BufferRef{target, 0, target_offset, length});
  });
}

Status Device::QueueCopy(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                         const Ref<Buffer>& source, uint64_t source_offset, const Ref<Buffer>& target,
                         uint64_t target_offset, uint64_t length) {
  RT_RETURN_IF_ERROR(ValidateLists(wait, signal));
  if (!source || !target) return base::InvalidArgumentError("copy with a null buffer");
  return QueueTransferImpl(wait, signal, [&](CommandBuffer& cb) {
    return cb.Copy(BufferRef{source, 0, source_offset, length},
                   BufferRef{target, 0, target_offset, length}, length);
  });
}

Status Device::QueueWrite(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                          const Ref<Buffer>& source, uint64_t source_offset, const Ref<File>& target,
                          uint64_t target_offset, uint64_t length) {
  RT_RETURN_IF_ERROR(ValidateLists(wait, signal));
  if (!source || !target) return base::InvalidArgumentError("queue write with a null file or buffer");
  if (!target->writable()) return base::MakeStatus(base::StatusCode::kPermissionDenied, "file is read-only");
  RT_RETURN_IF_ERROR(source->ResolveRange(source_offset, length).status());
  if (length == 0) return QueueExecuteImpl(wait, signal, nullptr, {});
  if (source->memory_type() & MemoryType::kHostVisible) {
    return QueueHostCallImpl(wait, signal, [=]() -> Status {
      RT_ASSIGN_OR_RETURN(uint8_t* ptr, source->Map(MemoryAccess::kRead, source_offset, length));
      return target->Write(target_offset, ptr, length);
    });
  }
  // Device memory the host cannot map: copied in queue order into host-visible staging (pinned on
  // CUDA), then written to the file on a host thread.
  RT_ASSIGN_OR_RETURN(Ref<Buffer> staging, staging_pool_->Take(allocator(), length));
  RT_ASSIGN_OR_RETURN(Ref<Semaphore> staged, CreateSemaphore(0));
  const SemaphorePoint copied{staged.get(), 1};
  Status status = QueueCopy(affinity, wait, SemaphoreList(&copied, 1), source, source_offset, staging, 0, length);
  if (status.ok()) {
    status = QueueHostCallImpl(SemaphoreList(&copied, 1), signal, [=, pool = staging_pool_]() mutable -> Status {
      RT_ASSIGN_OR_RETURN(uint8_t* ptr, staging->Map(MemoryAccess::kRead, 0, length));
      RT_RETURN_IF_ERROR(target->Write(target_offset, ptr, length));
      pool->Give(std::move(staging));
      return Status::Ok();
    });
  }
  if (!status.ok()) {
    for (const SemaphorePoint& point : signal) point.semaphore->Fail(status);
  }
  return status;
}

Status Device::QueueBarrier(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal) {
  RT_RETURN_IF_ERROR(ValidateLists(wait, signal));
  return QueueExecuteImpl(wait, signal, nullptr, {});
}

Status Device::QueueExecute(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                            const Ref<CommandBuffer>& command_buffer,
                            std::span<const BufferBinding> binding_table) {
  RT_RETURN_IF_ERROR(ValidateLists(wait, signal));
  if (command_buffer) {
    if (!command_buffer->is_finalized()) {
      return base::FailedPreconditionError("command buffer must be finalized before submission");
    }
    RT_RETURN_IF_ERROR(command_buffer->ValidateBindingTable(binding_table));
  }
  return QueueExecuteImpl(wait, signal, command_buffer, binding_table);
}

Status Device::QueueHostCall(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                             HostCall call) {
  RT_RETURN_IF_ERROR(ValidateLists(wait, signal));
  if (!call) return base::InvalidArgumentError("null host call");
  return QueueHostCallImpl(wait, signal, std::move(call));
}

StatusOr<Ref<Buffer>> Device::QueueAllocaImpl(SemaphoreList wait, SemaphoreList signal,
                                              const BufferParams& params, uint64_t size,
                                              uint64_t flags) {
  // Storage is committed now: host memory needs no ordering, and the handle must exist at once.
  RT_ASSIGN_OR_RETURN(Ref<Buffer> buffer, allocator_->AllocateTransient(params, size, flags));
  RT_RETURN_IF_ERROR(QueueExecuteImpl(wait, signal, nullptr, {}));
  return buffer;
}

Status Device::QueueDeallocaImpl(SemaphoreList wait, SemaphoreList signal, const Ref<Buffer>& buffer,
                                 uint64_t flags) {
  Buffer* root = buffer->allocated_buffer();
  TransientStorage* transient = root->transient_storage();
  if (!transient || (transient->alloca_flags() & AllocaFlag::kIndeterminateLifetime)) {
    return QueueExecuteImpl(wait, signal, nullptr, {});
  }
  Ref<Buffer> retained = Ref<Buffer>::Retain(root);  // keeps |transient| alive
  return QueueHostCallImpl(wait, signal, [retained, transient]() {
    transient->Decommit();
    return Status::Ok();
  });
}

Status Device::QueueTransferImpl(SemaphoreList wait, SemaphoreList signal,
                                 const std::function<Status(CommandBuffer&)>& record) {
  RT_ASSIGN_OR_RETURN(Ref<CommandBuffer> cb,
                      CreateCommandBufferImpl(CommandBufferMode::kOneShot, CommandCategory::kTransfer, 0));
  RT_RETURN_IF_ERROR(record(*cb));
  RT_RETURN_IF_ERROR(cb->Finalize());
  return QueueExecuteImpl(wait, signal, cb, {});
}

base::StatusOr<base::Ref<Channel>> Device::CreateChannel(QueueAffinity affinity, const ChannelParams& params) {
  (void)affinity;  // one queue per device
  RT_ASSIGN_OR_RETURN(ResolvedChannel resolved, ResolveChannel(params, channel_config_, id_));
  std::string key = base::StrCat(resolved.rank, "/", resolved.count, "/", params.flags, "/", resolved.rendezvous,
                                 "/", params.group, "/");
  key.append(resolved.id.begin(), resolved.id.end());
  std::lock_guard<std::mutex> lock(channels_mutex_);
  auto it = channels_.find(key);
  if (it != channels_.end()) return it->second;
  RT_ASSIGN_OR_RETURN(base::Ref<Channel> channel, CreateChannelImpl(resolved));
  channels_.emplace(std::move(key), channel);
  return channel;
}

base::StatusOr<base::Ref<Channel>> Device::CreateChannelImpl(const ResolvedChannel&) {
  return base::UnimplementedError("device '", id_, "' has no collective channels");
}

}  // namespace iree_rt::hal
