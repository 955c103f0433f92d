// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A host allocator for the tooling fuzzers: heap buffers, capped at 64 MiB per allocation so a
// spec like `100000x100000xf32` is refused with RESOURCE_EXHAUSTED instead of exhausting the
// fuzzer's memory (the CPU device's limit is far larger).
#ifndef IREE_RT_TESTS_FUZZ_FUZZ_ALLOCATOR_H_
#define IREE_RT_TESTS_FUZZ_FUZZ_ALLOCATOR_H_

#include "hal/allocator.h"
#include "hal/utils/heap_buffer.h"

namespace iree_rt::fuzz {

class FuzzAllocator final : public hal::Allocator {
 public:
  static constexpr uint64_t kMaxAllocationSize = 64ull << 20;
  FuzzAllocator() : hal::Allocator(kMaxAllocationSize) {}

 private:
  static hal::BufferParams Host(const hal::BufferParams& params) {
    hal::BufferParams host = params;
    host.type |= hal::MemoryType::kHostVisible | hal::MemoryType::kHostCoherent;
    host.usage |= hal::BufferUsage::kMappingScoped | hal::BufferUsage::kMappingAccessRandom |
                  hal::BufferUsage::kTransfer;
    if (host.access == hal::MemoryAccess::kNone) host.access = hal::MemoryAccess::kAll;
    return host;
  }
  base::StatusOr<base::Ref<hal::Buffer>> AllocateBufferImpl(const hal::BufferParams& params,
                                                            uint64_t size) override {
    const hal::BufferParams host = Host(params);
    RT_ASSIGN_OR_RETURN(
        base::Ref<hal::utils::HeapBuffer> buffer,
        hal::utils::HeapBuffer::Allocate(host.type, host.usage, host.access, size, nullptr));
    return base::Ref<hal::Buffer>(std::move(buffer));
  }
  base::StatusOr<base::Ref<hal::Buffer>> ImportHostBufferImpl(
      const hal::BufferParams& params, void* host_ptr, uint64_t size,
      hal::HostReleaseCallback release) override {
    const hal::BufferParams host = Host(params);
    return base::Ref<hal::Buffer>(hal::utils::HeapBuffer::Wrap(host.type, host.usage, host.access,
                                                               host_ptr, size, std::move(release)));
  }
};

}  // namespace iree_rt::fuzz

#endif  // IREE_RT_TESTS_FUZZ_FUZZ_ALLOCATOR_H_
