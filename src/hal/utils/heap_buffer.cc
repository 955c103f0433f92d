#include "hal/utils/heap_buffer.h"

#include <cstdlib>
#include <cstring>
#include <memory>

#include "base/fault_hook.h"

namespace iree_rt::hal::utils {

HeapBuffer::HeapBuffer(MemoryTypeBits type, BufferUsageBits usage, MemoryAccessBits access,
                       uint64_t size, uint8_t* data, bool owned, std::function<void()> release,
                       FreeObserver on_free)
    : Buffer(type, usage, access, size), data_(data), owned_(owned), release_(std::move(release)),
      on_free_(std::move(on_free)) {}

base::StatusOr<base::Ref<HeapBuffer>> HeapBuffer::Allocate(MemoryTypeBits type, BufferUsageBits usage,
                                                           MemoryAccessBits access, uint64_t size,
                                                           FreeObserver on_free) {
  // Round up so aligned_alloc's size rule holds; a zero-byte buffer still gets a valid pointer.
  uint64_t padded = (size + kHeapBufferAlignment - 1) / kHeapBufferAlignment * kHeapBufferAlignment;
  if (padded == 0) padded = kHeapBufferAlignment;
  if (padded < size || padded > SIZE_MAX) {
    return base::ResourceExhaustedError("allocation of ", size, " bytes is too large for host memory");
  }
  void* data = base::AllocationFaultInjected()
                   ? nullptr
                   : std::aligned_alloc(kHeapBufferAlignment, static_cast<size_t>(padded));
  if (!data) return base::ResourceExhaustedError("out of host memory allocating ", size, " bytes");
  std::memset(data, 0, static_cast<size_t>(padded));
  std::unique_ptr<void, void (*)(void*)> owner(data, std::free);  // until the buffer owns it
  auto* buffer = new HeapBuffer(type, usage, access, size, static_cast<uint8_t*>(data), true,
                                nullptr, std::move(on_free));
  owner.release();
  return base::Ref<HeapBuffer>::Adopt(buffer);
}

base::Ref<HeapBuffer> HeapBuffer::Wrap(MemoryTypeBits type, BufferUsageBits usage,
                                       MemoryAccessBits access, void* host_ptr, uint64_t size,
                                       std::function<void()> release) {
  return base::Ref<HeapBuffer>::Adopt(new HeapBuffer(type, usage, access, size,
                                                     static_cast<uint8_t*>(host_ptr), false,
                                                     std::move(release), nullptr));
}

HeapBuffer::~HeapBuffer() {
  if (owned_) {
    std::free(data_);
    if (on_free_) on_free_(byte_length());
  } else if (release_) {
    release_();
  }
}

}  // namespace iree_rt::hal::utils
