// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::Buffer: a range of memory a device can use, possibly a subspan of a larger allocation.
//
// Root buffers are made by an Allocator (or imported); subspans reference their root and add an
// offset. All offsets in the public methods are relative to this buffer's own range. Host access
// (Map/Read/Write/Fill/Copy) is validated here, once, against memory type, usage and access bits;
// drivers only provide MapImpl for their root buffers.
//
// Thread-safety: the properties are immutable; host access to disjoint ranges may run concurrently.
#ifndef IREE_RT_HAL_BUFFER_H_
#define IREE_RT_HAL_BUFFER_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "base/memory_budget.h"
#include "base/ref_object.h"
#include "base/status.h"
#include "hal/transient_storage.h"

namespace iree_rt::hal {

// Memory type bits (values fixed by the compiler's HAL dialect; see hal_abi_facts.md §1.4.1).
using MemoryTypeBits = uint32_t;
namespace MemoryType {
inline constexpr MemoryTypeBits kNone = 0;
inline constexpr MemoryTypeBits kOptimal = 0x0001;
inline constexpr MemoryTypeBits kHostVisible = 0x0002;
inline constexpr MemoryTypeBits kHostCoherent = 0x0004;
inline constexpr MemoryTypeBits kHostCached = 0x0008;
inline constexpr MemoryTypeBits kHostLocal = 0x0046;
inline constexpr MemoryTypeBits kDeviceVisible = 0x0010;
inline constexpr MemoryTypeBits kDeviceLocal = 0x0030;
}  // namespace MemoryType

// Buffer usage bits (§1.4.3).
using BufferUsageBits = uint32_t;
namespace BufferUsage {
inline constexpr BufferUsageBits kNone = 0;
inline constexpr BufferUsageBits kTransferSource = 0x1;
inline constexpr BufferUsageBits kTransferTarget = 0x2;
inline constexpr BufferUsageBits kTransfer = 0x3;
inline constexpr BufferUsageBits kDispatchIndirectParameters = 0x100;
inline constexpr BufferUsageBits kDispatchUniformRead = 0x200;
inline constexpr BufferUsageBits kDispatchStorageRead = 0x400;
inline constexpr BufferUsageBits kDispatchStorageWrite = 0x800;
inline constexpr BufferUsageBits kDispatchStorage = 0xC00;
inline constexpr BufferUsageBits kDispatchImage = 0x3000;
inline constexpr BufferUsageBits kDispatch = 0x3F00;
inline constexpr BufferUsageBits kSharingExport = 0x10000;
inline constexpr BufferUsageBits kSharingReplicate = 0x20000;
inline constexpr BufferUsageBits kSharingConcurrent = 0x40000;
inline constexpr BufferUsageBits kSharingImmutable = 0x80000;
inline constexpr BufferUsageBits kMappingScoped = 0x1000000;
inline constexpr BufferUsageBits kMappingPersistent = 0x2000000;
inline constexpr BufferUsageBits kMappingOptional = 0x4000000;
inline constexpr BufferUsageBits kMappingAccessRandom = 0x8000000;
inline constexpr BufferUsageBits kMappingAccessSequentialWrite = 0x10000000;
inline constexpr BufferUsageBits kMapping = 0x9000000;
inline constexpr BufferUsageBits kDefault = 0xC03;
}  // namespace BufferUsage

// Memory access bits (§1.4.2).
using MemoryAccessBits = uint32_t;
namespace MemoryAccess {
inline constexpr MemoryAccessBits kNone = 0;
inline constexpr MemoryAccessBits kRead = 0x1;
inline constexpr MemoryAccessBits kWrite = 0x2;
inline constexpr MemoryAccessBits kDiscard = 0x4;
inline constexpr MemoryAccessBits kDiscardWrite = 0x6;
inline constexpr MemoryAccessBits kAll = 0x7;
}  // namespace MemoryAccess

// Length meaning "to the end of the buffer" in ranges and binding tables.
inline constexpr uint64_t kWholeBuffer = ~uint64_t{0};

// What an allocation asks for. Zero fields mean "the allocator's default".
struct BufferParams {
  MemoryTypeBits type = MemoryType::kDeviceLocal;
  BufferUsageBits usage = BufferUsage::kDefault;
  MemoryAccessBits access = MemoryAccess::kAll;
};

// The alignment dispatches assume of a binding's address (CPU kernels load with aligned vector
// instructions): imported host memory must meet it to be bound as is.
inline constexpr uintptr_t kBindingAlignment = 64;

std::string MemoryTypeToString(MemoryTypeBits bits);
std::string BufferUsageToString(BufferUsageBits bits);

class Buffer : public base::RefObject {
 public:
  MemoryTypeBits memory_type() const { return memory_type_; }
  BufferUsageBits allowed_usage() const { return allowed_usage_; }
  MemoryAccessBits allowed_access() const { return allowed_access_; }
  // Bytes visible through this buffer.
  uint64_t byte_length() const { return byte_length_; }
  // Offset of this buffer's first byte inside its root allocation.
  uint64_t byte_offset() const { return byte_offset_; }
  // The root allocation: this buffer itself unless it is a subspan.
  Buffer* allocated_buffer() { return root_ ? root_.get() : this; }
  // On a root buffer made by QueueAlloca: what queue_dealloca releases; null otherwise.
  virtual TransientStorage* transient_storage() { return nullptr; }

  // A view of [offset, offset+length) of |buffer| (length may be kWholeBuffer). The view retains
  // the root allocation. OUT_OF_RANGE if the range does not fit.
  static base::StatusOr<base::Ref<Buffer>> Subspan(const base::Ref<Buffer>& buffer, uint64_t offset,
                                                   uint64_t length);

  // Resolves a (offset, length) pair against this buffer (kWholeBuffer = to the end) and checks it.
  // Inline: every binding of every dispatch is resolved; only the error is built out of line.
  base::StatusOr<uint64_t> ResolveRange(uint64_t offset, uint64_t length) const {
    if (offset <= byte_length_) {
      if (length == kWholeBuffer) return byte_length_ - offset;
      if (length <= byte_length_ - offset) return length;
    }
    return RangeError(offset, length);
  }

  // Returns a host pointer to [offset, offset+length) of this buffer, valid while the buffer lives.
  // Needs HOST_VISIBLE memory, a MAPPING usage bit and |access| within allowed_access().
  base::StatusOr<uint8_t*> Map(MemoryAccessBits access, uint64_t offset, uint64_t length);

  // Host transfers through Map. Lengths must fit; Fill patterns are 1, 2 or 4 bytes and offset and
  // length must be multiples of the pattern size.
  base::Status Read(uint64_t offset, void* target, uint64_t length);
  base::Status Write(uint64_t offset, const void* source, uint64_t length);
  base::Status Fill(uint64_t offset, uint64_t length, uint32_t pattern, uint32_t pattern_length);
  static base::Status Copy(Buffer& source, uint64_t source_offset, Buffer& target,
                           uint64_t target_offset, uint64_t length);

  // The root allocation's preserve count, which programs use to learn whether they own the last
  // use of an allocation (buffer.allocation.* exports). It starts at 1.
  void AllocationPreserve() { allocated_buffer()->preserve_count_.fetch_add(1); }
  // Decrements the count; true when this call took it from 1 to 0.
  bool AllocationDiscard();
  bool AllocationIsTerminal() { return allocated_buffer()->preserve_count_.load() == 1; }

  // Validates a fill's pattern length and alignment (shared by queue and command buffer fills).
  static base::Status ValidateFillPattern(uint64_t offset, uint64_t length, uint32_t pattern_length);

  // Makes the root allocation hold |charge| (its share of a context's memory budget) until it is
  // destroyed. Called by whoever allocated it, before the buffer is shared.
  void AttachCharge(base::MemoryCharge charge) { allocated_buffer()->charge_ = std::move(charge); }

 protected:
  // Root buffer.
  Buffer(MemoryTypeBits type, BufferUsageBits usage, MemoryAccessBits access, uint64_t length);

 private:
  friend class SubspanBuffer;
  // OUT_OF_RANGE naming the (offset, length) that ResolveRange refused.
  base::Status RangeError(uint64_t offset, uint64_t length) const;
  // Host address of byte |offset| of the root allocation. Called only on root buffers with a range
  // already checked; may fail (e.g. a decommitted transient buffer, non-mappable device memory).
  virtual base::StatusOr<uint8_t*> MapImpl(uint64_t offset, uint64_t length) = 0;

  MemoryTypeBits memory_type_;
  BufferUsageBits allowed_usage_;
  MemoryAccessBits allowed_access_;
  uint64_t byte_offset_ = 0;
  uint64_t byte_length_;
  base::Ref<Buffer> root_;
  std::atomic<uint32_t> preserve_count_{1};  // meaningful on root buffers only
  base::MemoryCharge charge_;                 // root buffers only
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_BUFFER_H_
