// HeapBuffer: a root buffer in host memory, either owned (aligned heap allocation) or imported
// (caller memory released through a callback). Used by host-memory allocators.
#ifndef IREE_RT_HAL_UTILS_HEAP_BUFFER_H_
#define IREE_RT_HAL_UTILS_HEAP_BUFFER_H_

#include <functional>

#include "hal/buffer.h"

namespace iree_rt::hal::utils {

// Alignment of owned allocations: a cache line, and what generated code assumes for bindings.
inline constexpr size_t kHeapBufferAlignment = 64;

class HeapBuffer final : public Buffer {
 public:
  // Called with the byte count when an owned buffer is freed (allocator statistics).
  using FreeObserver = std::function<void(uint64_t)>;

  // Allocates |size| zero-initialized bytes. RESOURCE_EXHAUSTED if the heap refuses.
  static base::StatusOr<base::Ref<HeapBuffer>> Allocate(MemoryTypeBits type, BufferUsageBits usage,
                                                        MemoryAccessBits access, uint64_t size,
                                                        FreeObserver on_free);
  // Wraps |host_ptr|; |release| runs when the buffer is destroyed.
  static base::Ref<HeapBuffer> Wrap(MemoryTypeBits type, BufferUsageBits usage, MemoryAccessBits access,
                                    void* host_ptr, uint64_t size, std::function<void()> release);
  ~HeapBuffer() override;

  uint8_t* data() const { return data_; }

 private:
  HeapBuffer(MemoryTypeBits type, BufferUsageBits usage, MemoryAccessBits access, uint64_t size,
             uint8_t* data, bool owned, std::function<void()> release, FreeObserver on_free);
  base::StatusOr<uint8_t*> MapImpl(uint64_t offset, uint64_t length) override { return data_ + offset; }

  uint8_t* data_;
  bool owned_;
  std::function<void()> release_;
  FreeObserver on_free_;
};

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_HEAP_BUFFER_H_
