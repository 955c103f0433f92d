// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::CommandBuffer: a recorded sequence of transfers and dispatches, submitted with
// Device::QueueExecute.
//
// Buffers are referenced directly (BufferRef::buffer) or through a binding-table slot
// (BufferRef::buffer == null, BufferRef::slot < binding_capacity) resolved at submission, so one
// reusable command buffer can run with different buffers. Commands between two execution barriers
// may run concurrently; barriers order everything before against everything after.
//
// Recording is validated here once: state, categories, ranges, usage bits, export signatures.
// Thread-safety: recording must be externally synchronized; a finalized command buffer may be
// submitted from any thread, and a reusable one many times at once.
#ifndef IREE_RT_HAL_COMMAND_BUFFER_H_
#define IREE_RT_HAL_COMMAND_BUFFER_H_

#include <cstdint>
#include <span>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/buffer.h"
#include "hal/channel.h"
#include "hal/executable.h"

namespace iree_rt::hal {

// Command buffer modes (§1.4.4).
using CommandBufferModeBits = uint32_t;
namespace CommandBufferMode {
inline constexpr CommandBufferModeBits kDefault = 0;  // reusable
inline constexpr CommandBufferModeBits kOneShot = 0x1;
inline constexpr CommandBufferModeBits kAllowInlineExecution = 0x10;
inline constexpr CommandBufferModeBits kUnvalidated = 0x20;
inline constexpr CommandBufferModeBits kKnownBits = 0x1F1;
}  // namespace CommandBufferMode

using CommandCategoryBits = uint32_t;
namespace CommandCategory {
inline constexpr CommandCategoryBits kTransfer = 0x1;
inline constexpr CommandCategoryBits kDispatch = 0x2;
inline constexpr CommandCategoryBits kAny = 0x3;
}  // namespace CommandCategory

using ExecutionStageBits = uint32_t;
using DispatchFlags = uint64_t;
namespace DispatchFlag {
inline constexpr DispatchFlags kNone = 0;
inline constexpr DispatchFlags kDynamicIndirectParameters = 1u << 0;
inline constexpr DispatchFlags kStaticIndirectParameters = 1u << 1;
}  // namespace DispatchFlag

// A buffer range, given directly or as a binding-table slot.
struct BufferRef {
  base::Ref<Buffer> buffer;  // null: use |slot|
  uint32_t slot = 0;
  uint64_t offset = 0;
  uint64_t length = kWholeBuffer;
};

// One binding-table entry, supplied at submission.
struct BufferBinding {
  base::Ref<Buffer> buffer;
  uint64_t offset = 0;
  uint64_t length = kWholeBuffer;
};

struct DispatchConfig {
  uint32_t workgroup_count[3] = {1, 1, 1};
  // With an indirect flag, three u32 workgroup counts are read from here instead.
  BufferRef workgroup_count_ref;
};

class CommandBuffer : public base::RefObject {
 public:
  CommandBufferModeBits mode() const { return mode_; }
  CommandCategoryBits categories() const { return categories_; }
  uint32_t binding_capacity() const { return binding_capacity_; }
  bool is_finalized() const { return finalized_; }
  // Identifies the concrete class for cheap down-casts on the submit path (a dynamic_cast costs
  // more than the rest of a small submission's bookkeeping): the address of a static of it.
  virtual const void* type_tag() const { return nullptr; }

  base::Status Fill(const BufferRef& target, uint32_t pattern, uint32_t pattern_length);
  // Copies |source| (length bytes) now; the caller may reuse its memory at once.
  base::Status Update(const void* source, uint64_t length, const BufferRef& target);
  base::Status Copy(const BufferRef& source, const BufferRef& target, uint64_t length);
  base::Status Dispatch(const base::Ref<Executable>& executable, uint32_t export_ordinal,
                        const DispatchConfig& config, std::span<const uint32_t> constants,
                        std::span<const BufferRef> bindings, DispatchFlags flags);
  base::Status ExecutionBarrier(ExecutionStageBits source_stages, ExecutionStageBits target_stages);
  // hal.command_buffer.collective over |channel|: |send| and |recv| as the kind uses them (an
  // unused one is ignored), |element_count| as the compiler fills it (CollectiveByteCounts).
  base::Status Collective(const base::Ref<Channel>& channel, const CollectiveOp& op, uint32_t param,
                          const BufferRef& send, const BufferRef& recv, uint64_t element_count);
  // Ends recording. Only finalized command buffers can be submitted.
  base::Status Finalize();

  // Checks a submission's binding table against the slots this command buffer uses.
  base::Status ValidateBindingTable(std::span<const BufferBinding> bindings) const;

 protected:
  CommandBuffer(CommandBufferModeBits mode, CommandCategoryBits categories, uint32_t binding_capacity)
      : mode_(mode), categories_(categories), binding_capacity_(binding_capacity) {}

 private:
  base::Status ValidateRecording(CommandCategoryBits category) const;
  base::Status ValidateRef(const BufferRef& ref, BufferUsageBits usage, const char* what,
                           uint64_t length);

  virtual base::Status FillImpl(const BufferRef& target, uint32_t pattern, uint32_t pattern_length) = 0;
  virtual base::Status UpdateImpl(const void* source, uint64_t length, const BufferRef& target) = 0;
  virtual base::Status CopyImpl(const BufferRef& source, const BufferRef& target, uint64_t length) = 0;
  virtual base::Status DispatchImpl(const base::Ref<Executable>& executable, uint32_t export_ordinal,
                                    const DispatchConfig& config, std::span<const uint32_t> constants,
                                    std::span<const BufferRef> bindings, DispatchFlags flags) = 0;
  virtual base::Status ExecutionBarrierImpl() = 0;
  // |bytes|: what the op reads from |send| and writes to |recv| (0: unused).
  virtual base::Status CollectiveImpl(const base::Ref<Channel>& channel, const CollectiveOp& op, uint32_t param,
                                      const BufferRef& send, const BufferRef& recv, uint64_t element_count,
                                      const CollectiveBytes& bytes) = 0;
  virtual base::Status FinalizeImpl() = 0;

  const CommandBufferModeBits mode_;
  const CommandCategoryBits categories_;
  const uint32_t binding_capacity_;
  bool finalized_ = false;
  uint32_t max_slot_used_plus_one_ = 0;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_COMMAND_BUFFER_H_
