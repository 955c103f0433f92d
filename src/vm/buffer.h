// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::Buffer ("vm.buffer"): a fixed-length byte array that programs allocate, read and write,
// and the object behind every rodata segment (read-only, aliasing the module's bytes).
//
// Every accessor checks bounds without overflow and returns OUT_OF_RANGE naming the range;
// writes to a read-only buffer are PERMISSION_DENIED. Not internally synchronized.
#ifndef IREE_RT_VM_BUFFER_H_
#define IREE_RT_VM_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "base/memory_budget.h"
#include "base/ref_object.h"
#include "base/status.h"
#include "vm/limits.h"
#include "vm/ref.h"

namespace iree_rt::vm {

class Buffer : public base::RefObject {
 public:
  enum Access : uint32_t {
    kMutable = 1u << 0,
    kOriginModule = 1u << 1,
    kOriginGuest = 1u << 2,
    kOriginHost = 1u << 3,
  };

  // A zero-filled mutable buffer; |alignment| 0 means 16. Alignment must be a power of two.
  // With a |quota| (a program's allocation), |length| is checked against its allocation size
  // limit and charged to its memory budget until the buffer is destroyed.
  static base::StatusOr<base::Ref<Buffer>> Allocate(uint64_t length, uint32_t alignment,
                                                     uint32_t access = kMutable | kOriginGuest,
                                                     const ContextQuota* quota = nullptr);
  // A read-only buffer over |data|, kept valid by |keep_alive| (the module) while referenced.
  static base::Ref<Buffer> WrapReadOnly(std::span<const uint8_t> data,
                                        base::Ref<base::RefObject> keep_alive,
                                        uint32_t access = kOriginModule);
  // A mutable buffer over memory the caller owns (a dispatch's binding): valid while |keep_alive|
  // is held, or, with null, for as long as the caller keeps |data| alive and drops every ref
  // to the buffer before freeing it.
  static base::Ref<Buffer> WrapMutable(std::span<uint8_t> data,
                                       base::Ref<base::RefObject> keep_alive,
                                       uint32_t access = kMutable | kOriginHost);
  // A new mutable buffer holding bytes [offset, offset+length) of |source|.
  static base::StatusOr<base::Ref<Buffer>> Clone(const Buffer& source, uint64_t offset,
                                                  uint64_t length, uint32_t alignment,
                                                  const ContextQuota* quota = nullptr);

  uint64_t length() const { return length_; }
  uint32_t access() const { return access_; }
  bool is_mutable() const { return (access_ & kMutable) != 0; }
  std::span<const uint8_t> bytes() const { return {data_, static_cast<size_t>(length_)}; }

  // Byte ranges: OUT_OF_RANGE unless offset + length <= this->length().
  base::StatusOr<std::span<const uint8_t>> ReadRange(uint64_t offset, uint64_t length) const;
  // Also PERMISSION_DENIED when read-only.
  base::StatusOr<std::span<uint8_t>> WriteRange(uint64_t offset, uint64_t length);

  // Element access: byte offset = index * element_size (the buffer.load/store/fill ops).
  template <typename T>
  base::StatusOr<T> Load(uint64_t element_index) const;
  template <typename T>
  base::Status Store(uint64_t element_index, T value);
  template <typename T>
  base::Status Fill(uint64_t element_offset, uint64_t element_count, T value);

  // buffer.copy: byte ranges, may overlap.
  static base::Status Copy(const Buffer& source, uint64_t source_offset, Buffer& target,
                           uint64_t target_offset, uint64_t length);
  // buffer.compare: true if the byte ranges are equal.
  static base::StatusOr<bool> Compare(const Buffer& lhs, uint64_t lhs_offset, const Buffer& rhs,
                                      uint64_t rhs_offset, uint64_t length);
  // buffer.hash: SipHash-2-4 keyed with bytes 00 01 .. 0F over the byte range.
  base::StatusOr<int64_t> Hash(uint64_t offset, uint64_t length) const;

  ~Buffer() override;

 private:
  Buffer() = default;

  uint8_t* data_ = nullptr;
  uint64_t length_ = 0;
  uint32_t access_ = 0;
  void* allocation_ = nullptr;  // owned storage, or null when aliasing
  base::Ref<base::RefObject> keep_alive_;
  base::MemoryCharge charge_;
};

extern const RefType kBufferType;  // "vm.buffer"
template <>
inline const RefType* RefTypeOf<Buffer>() { return &kBufferType; }

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_BUFFER_H_
