// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/heap_buffer.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#include "base/fault_hook.h"

namespace iree_rt::hal::utils {
namespace {

// Queue allocas are scratch that compiled programs write before they read (the compiler emits
// fills where it needs zeros, as GPU memory is never zeroed), and on the CPU their kernels are
// native code in this process, so zeroing them isolates nothing. It cost 3-5% of a small CNN's
// call. Checking builds (debug and sanitizer builds) fill them with 0xCD instead, so a program
// that reads before it writes fails its tests there rather than passing on zeros by luck.
#ifndef NDEBUG
constexpr int kTransientFill = 0xCD;
#else
constexpr int kTransientFill = -1;  // left as malloc returns it
#endif

// Owned buffers up to this size share one malloc block with their object: a program call
// allocates its small results and transients this way, and one malloc and free fewer took 136
// of the add benchmark's 12,336 instructions per call. Decommit cannot return inline bytes
// early, so only small ones are inline.
constexpr uint64_t kInlineStorageLimit = 4096;

}  // namespace

void* HeapBuffer::operator new(size_t size) {
  if (void* block = std::malloc(size)) return block;
  throw std::bad_alloc();
}

void HeapBuffer::operator delete(void* block) noexcept { std::free(block); }

HeapBuffer::HeapBuffer(MemoryTypeBits type, BufferUsageBits usage, MemoryAccessBits access,
                       uint64_t size, uint8_t* data, void* allocation, std::function<void()> release,
                       FreeObserver on_free)
    : Buffer(type, usage, access, size), data_(data), allocation_(allocation),
      release_(std::move(release)), on_free_(std::move(on_free)) {}

base::StatusOr<base::Ref<HeapBuffer>> HeapBuffer::Allocate(MemoryTypeBits type, BufferUsageBits usage,
                                                           MemoryAccessBits access, uint64_t size,
                                                           FreeObserver on_free) {
  return AllocateOwned(type, usage, access, size, /*zero=*/true, std::move(on_free));
}

base::StatusOr<base::Ref<HeapBuffer>> HeapBuffer::AllocateTransient(
    MemoryTypeBits type, BufferUsageBits usage, MemoryAccessBits access, uint64_t size,
    uint64_t alloca_flags, FreeObserver on_free) {
  RT_ASSIGN_OR_RETURN(base::Ref<HeapBuffer> buffer,
                      AllocateOwned(type, usage, access, size, /*zero=*/false, std::move(on_free)));
  buffer->transient_ = true;
  buffer->alloca_flags_ = alloca_flags;
  return buffer;
}

base::StatusOr<base::Ref<HeapBuffer>> HeapBuffer::AllocateOwned(MemoryTypeBits type,
                                                                BufferUsageBits usage,
                                                                MemoryAccessBits access,
                                                                uint64_t size, bool zero,
                                                                FreeObserver on_free) {
  // Whole alignment units; a zero-byte buffer still gets a valid pointer.
  uint64_t padded = (size + kHeapBufferAlignment - 1) / kHeapBufferAlignment * kHeapBufferAlignment;
  if (padded == 0) padded = kHeapBufferAlignment;
  // malloc plus the slack to align by hand: glibc's aligned_alloc costs several times a malloc,
  // which shows on programs allocating a small transient per call.
  constexpr uint64_t kSlack = kHeapBufferAlignment - alignof(std::max_align_t);
  if (padded < size || padded > SIZE_MAX - kSlack) {
    return base::ResourceExhaustedError("allocation of ", size, " bytes is too large for host memory");
  }
  // An inline object is followed by whole max_align_t units, so |kSlack| still aligns the bytes.
  static_assert(alignof(HeapBuffer) <= alignof(std::max_align_t));
  constexpr uint64_t kHeader = (sizeof(HeapBuffer) + alignof(std::max_align_t) - 1) /
                               alignof(std::max_align_t) * alignof(std::max_align_t);
  const bool inline_storage = padded <= kInlineStorageLimit;
  const uint64_t block_size = (inline_storage ? kHeader : 0) + padded + kSlack;
  void* raw = base::AllocationFaultInjected() ? nullptr : std::malloc(static_cast<size_t>(block_size));
  if (!raw) return base::ResourceExhaustedError("out of host memory allocating ", size, " bytes");
  std::unique_ptr<void, void (*)(void*)> owner(raw, std::free);  // until the buffer owns it
  const uintptr_t first = reinterpret_cast<uintptr_t>(raw) + (inline_storage ? kHeader : 0);
  auto* data = reinterpret_cast<uint8_t*>((first + kHeapBufferAlignment - 1) &
                                          ~uintptr_t{kHeapBufferAlignment - 1});
  if (zero) {
    std::memset(data, 0, static_cast<size_t>(padded));
  } else if (kTransientFill >= 0) {
    std::memset(data, kTransientFill, static_cast<size_t>(padded));
  }
  HeapBuffer* buffer;
  if (inline_storage) {
    // The block is the object's: operator delete frees it.
    buffer = ::new (raw) HeapBuffer(type, usage, access, size, data, nullptr, nullptr, std::move(on_free));
  } else {
    buffer = new HeapBuffer(type, usage, access, size, data, raw, nullptr, std::move(on_free));
  }
  owner.release();
  buffer->owned_ = true;
  return base::Ref<HeapBuffer>::Adopt(buffer);
}

base::Ref<HeapBuffer> HeapBuffer::Wrap(MemoryTypeBits type, BufferUsageBits usage,
                                       MemoryAccessBits access, void* host_ptr, uint64_t size,
                                       std::function<void()> release) {
  return base::Ref<HeapBuffer>::Adopt(new HeapBuffer(type, usage, access, size,
                                                     static_cast<uint8_t*>(host_ptr), nullptr,
                                                     std::move(release), FreeObserver()));
}

base::StatusOr<uint8_t*> HeapBuffer::MapImpl(uint64_t offset, uint64_t length) {
  if (transient_ && decommitted_.load(std::memory_order_acquire)) {
    return base::FailedPreconditionError("buffer storage was released by queue_dealloca");
  }
  return data_ + offset;
}

void HeapBuffer::Decommit() {
  if (!transient_ || decommitted_.exchange(true, std::memory_order_acq_rel)) return;
  // Whoever decommits holds a reference, so the destructor cannot run concurrently. Inline bytes
  // go with the object.
  std::free(std::exchange(allocation_, nullptr));
  on_free_(byte_length());
}

HeapBuffer::~HeapBuffer() {
  if (owned_) {
    if (!decommitted_.load(std::memory_order_acquire)) {
      std::free(allocation_);
      on_free_(byte_length());
    }
  } else if (release_) {
    release_();
  }
}

}  // namespace iree_rt::hal::utils
