// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// DeferredCommandBuffer: records commands into memory and replays them at submission onto a
// CommandTarget, with every buffer reference resolved against the submission's binding table and
// bounds-checked. CPU drivers execute the replay directly; GPU stream modes translate it.
#ifndef IREE_RT_HAL_UTILS_DEFERRED_COMMAND_BUFFER_H_
#define IREE_RT_HAL_UTILS_DEFERRED_COMMAND_BUFFER_H_

#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "hal/command_buffer.h"

namespace iree_rt::hal::utils {

// A buffer range after binding-table resolution: |buffer| is borrowed for the replay.
struct ResolvedRef {
  Buffer* buffer = nullptr;
  uint64_t offset = 0;
  uint64_t length = 0;
};

// What a replay drives. Commands between barriers may be executed concurrently by the target.
class CommandTarget {
 public:
  virtual ~CommandTarget() = default;
  virtual base::Status Fill(const ResolvedRef& target, uint32_t pattern, uint32_t pattern_length) = 0;
  virtual base::Status Update(const uint8_t* source, const ResolvedRef& target) = 0;
  virtual base::Status Copy(const ResolvedRef& source, const ResolvedRef& target) = 0;
  // |indirect_count| is set when the workgroup count must be read from a buffer at execution.
  virtual base::Status Dispatch(Executable& executable, uint32_t export_ordinal,
                                const uint32_t workgroup_count[3], const ResolvedRef* indirect_count,
                                std::span<const uint32_t> constants,
                                std::span<const ResolvedRef> bindings) = 0;
  virtual base::Status Barrier() = 0;
  // |send| / |recv| are null where the kind uses no such buffer. Targets without channels
  // refuse it.
  virtual base::Status Collective(Channel& channel, const CollectiveOp& op, uint32_t param,
                                  const ResolvedRef* send, const ResolvedRef* recv, uint64_t element_count);
};

// Drivers whose submissions need more than a replay (CUDA's graphs) derive from it, keep
// recording as it is and give themselves a type tag of their own.
class DeferredCommandBuffer : public CommandBuffer {
 public:
  DeferredCommandBuffer(CommandBufferModeBits mode, CommandCategoryBits categories,
                        uint32_t binding_capacity)
      : CommandBuffer(mode, categories, binding_capacity) {}

  const void* type_tag() const override { return &kTypeTag; }
  // |command_buffer| as a DeferredCommandBuffer; null if it is another kind.
  static DeferredCommandBuffer* Cast(CommandBuffer* command_buffer) {
    return command_buffer && command_buffer->type_tag() == &kTypeTag
               ? static_cast<DeferredCommandBuffer*>(command_buffer)
               : nullptr;
  }

  // Replays every command in order. Stops at, and returns, the first error.
  base::Status Replay(std::span<const BufferBinding> binding_table, CommandTarget& target) const;

  size_t command_count() const { return commands_.size(); }
  // Whether some recorded direct reference (not a binding-table slot) has a buffer for which
  // |match| is true.
  bool AnyDirectRef(bool (*match)(Buffer& buffer)) const;
  // The distinct channels of the recorded collectives (borrowed: the commands hold them).
  std::vector<Channel*> channels() const;
  // At most one workgroup of work in all: direct dispatches and barriers only, whose workgroup
  // counts multiply out to <= 1 in total. Such a buffer costs less to run than to hand off.
  bool single_workgroup() const { return !has_other_work_ && workgroup_total_ <= 1; }

  // What one workgroup of an export costs on one thread, in ns; 0 when not known yet.
  using WorkgroupCostFn = uint64_t (*)(const Executable& executable, uint32_t export_ordinal);
  // Estimated time to replay every command on one thread, or nullopt when some command's cost
  // is unknown (an indirect dispatch, a dispatch |cost| knows nothing of, a transfer over a
  // whole-buffer range). Transfers count at kTransferBytesPerNs.
  std::optional<uint64_t> EstimateSerialNs(WorkgroupCostFn cost) const;
  static constexpr uint64_t kTransferBytesPerNs = 4;

 protected:
  base::Status FillImpl(const BufferRef& target, uint32_t pattern, uint32_t pattern_length) override;
  base::Status UpdateImpl(const void* source, uint64_t length, const BufferRef& target) override;
  base::Status CopyImpl(const BufferRef& source, const BufferRef& target, uint64_t length) override;
  base::Status DispatchImpl(const base::Ref<Executable>& executable, uint32_t export_ordinal,
                            const DispatchConfig& config, std::span<const uint32_t> constants,
                            std::span<const BufferRef> bindings, DispatchFlags flags) override;
  base::Status ExecutionBarrierImpl() override;
  base::Status CollectiveImpl(const base::Ref<Channel>& channel, const CollectiveOp& op, uint32_t param,
                              const BufferRef& send, const BufferRef& recv, uint64_t element_count,
                              const CollectiveBytes& bytes) override;
  base::Status FinalizeImpl() override { return base::Status::Ok(); }

 private:
  static constexpr char kTypeTag = 0;
  struct FillCmd { BufferRef target; uint32_t pattern; uint32_t pattern_length; };
  struct UpdateCmd { std::vector<uint8_t> data; BufferRef target; };
  struct CopyCmd { BufferRef source; BufferRef target; uint64_t length; };
  struct DispatchCmd {
    base::Ref<Executable> executable;
    uint32_t export_ordinal;
    DispatchConfig config;
    bool indirect;
    std::vector<uint32_t> constants;
    std::vector<BufferRef> bindings;
  };
  struct BarrierCmd {};
  struct CollectiveCmd {
    base::Ref<Channel> channel;
    CollectiveOp op;
    uint32_t param;
    BufferRef send;
    BufferRef recv;
    uint64_t element_count;
    CollectiveBytes bytes;
  };
  using Command = std::variant<FillCmd, UpdateCmd, CopyCmd, DispatchCmd, BarrierCmd, CollectiveCmd>;

  std::vector<Command> commands_;
  uint64_t workgroup_total_ = 0;  // of the direct dispatches, saturating
  bool has_other_work_ = false;   // fills, updates, copies or indirect dispatches
};

// Resolves |ref| (direct or slot) with |length| (kWholeBuffer = to the end of the range).
base::StatusOr<ResolvedRef> ResolveBufferRef(const BufferRef& ref, uint64_t length,
                                             std::span<const BufferBinding> binding_table);

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_DEFERRED_COMMAND_BUFFER_H_
