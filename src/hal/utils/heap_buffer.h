// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// HeapBuffer: a root buffer in host memory, either owned (aligned heap allocation) or imported
// (caller memory released through a callback). Used by host-memory allocators. An owned buffer
// made for QueueAlloca is its own TransientStorage: one object, where other allocators' buffers
// get a utils::TransientBuffer wrapper.
#ifndef IREE_RT_HAL_UTILS_HEAP_BUFFER_H_
#define IREE_RT_HAL_UTILS_HEAP_BUFFER_H_

#include <atomic>
#include <cstddef>
#include <utility>
#include <functional>

#include "hal/buffer.h"
#include "hal/transient_storage.h"

namespace iree_rt::hal::utils {

// Alignment of owned allocations: a cache line, and what generated code assumes for bindings.
inline constexpr size_t kHeapBufferAlignment = 64;

class HeapBuffer final : public Buffer, public TransientStorage {
 public:
  // Called with the byte count when an owned buffer is freed (allocator statistics).
  // (A function pointer and the object it reports to, retained: a std::function holding a
  // reference would allocate on every buffer.)
  struct FreeObserver {
    FreeObserver() = default;
    FreeObserver(std::nullptr_t) {}  // NOLINT: implicit, "no observer"
    FreeObserver(void (*fn)(base::RefObject*, uint64_t), base::Ref<base::RefObject> object)
        : on_free(fn), owner(std::move(object)) {}
    void (*on_free)(base::RefObject* owner, uint64_t bytes) = nullptr;
    base::Ref<base::RefObject> owner;
    void operator()(uint64_t bytes) const {
      if (on_free) on_free(owner.get(), bytes);
    }
  };

  // Allocates |size| zero-initialized bytes. RESOURCE_EXHAUSTED if the heap refuses.
  static base::StatusOr<base::Ref<HeapBuffer>> Allocate(MemoryTypeBits type, BufferUsageBits usage,
                                                        MemoryAccessBits access, uint64_t size,
                                                        FreeObserver on_free);
  // For QueueAlloca: Decommit frees the bytes (reporting them to |on_free| then), and later maps
  // fail. The bytes are not zeroed (heap_buffer.cc says why).
  static base::StatusOr<base::Ref<HeapBuffer>> AllocateTransient(MemoryTypeBits type,
                                                                 BufferUsageBits usage,
                                                                 MemoryAccessBits access,
                                                                 uint64_t size,
                                                                 uint64_t alloca_flags,
                                                                 FreeObserver on_free);
  // Wraps |host_ptr|; |release| runs when the buffer is destroyed.
  static base::Ref<HeapBuffer> Wrap(MemoryTypeBits type, BufferUsageBits usage, MemoryAccessBits access,
                                    void* host_ptr, uint64_t size, std::function<void()> release);
  ~HeapBuffer() override;

  // malloc-backed, so a small buffer's object and bytes can share one block (heap_buffer.cc).
  static void* operator new(size_t size);
  static void operator delete(void* block) noexcept;

  uint8_t* data() const { return data_; }

  TransientStorage* transient_storage() override { return transient_ ? this : nullptr; }
  uint64_t alloca_flags() const override { return alloca_flags_; }
  void Decommit() override;

 private:
  HeapBuffer(MemoryTypeBits type, BufferUsageBits usage, MemoryAccessBits access, uint64_t size,
             uint8_t* data, void* allocation, std::function<void()> release, FreeObserver on_free);
  base::StatusOr<uint8_t*> MapImpl(uint64_t offset, uint64_t length) override;
  static base::StatusOr<base::Ref<HeapBuffer>> AllocateOwned(MemoryTypeBits type,
                                                             BufferUsageBits usage,
                                                             MemoryAccessBits access, uint64_t size,
                                                             bool zero, FreeObserver on_free);

  uint8_t* data_;
  void* allocation_;  // owned: what malloc returned (|data_| is aligned inside it); else null
  bool owned_ = false;  // allocated here (in |allocation_|, or inline after the object)
  bool transient_ = false;
  uint64_t alloca_flags_ = 0;
  std::atomic<bool> decommitted_{false};
  std::function<void()> release_;
  FreeObserver on_free_;
};

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_HEAP_BUFFER_H_
