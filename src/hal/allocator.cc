// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/allocator.h"

#include "base/trace.h"
#include "hal/utils/transient_buffer.h"

namespace iree_rt::hal {

using base::Ref;
using base::StatusOr;

namespace {

base::Status ValidateParams(const BufferParams& params) {
  if (params.access & ~MemoryAccess::kAll & ~0x38u) {
    return base::InvalidArgumentError("unknown memory access bits 0x", std::hex, params.access);
  }
  return base::Status::Ok();
}

}  // namespace

base::Status Allocator::Exhausted(base::Status status) const {
  if (status.code() == base::StatusCode::kResourceExhausted) status.Annotate(DescribeLive());
  return status;
}

std::string Allocator::DescribeLive() const {
  const AllocatorStatistics stats = statistics();
  const auto describe = [](const char* name, const AllocatorStatistics::ByType& typed) {
    return base::StrCat(name, " ", typed.bytes_allocated, " B in ", typed.live_count,
                        " buffers (peak ", typed.peak_bytes_allocated, " B)");
  };
  return base::StrCat("live in ", trace_name_, ": ", describe("DEVICE_LOCAL", stats.device_local),
                      ", ", describe("HOST_LOCAL", stats.host_local));
}

StatusOr<Ref<Buffer>> Allocator::AllocateBuffer(const BufferParams& params, uint64_t size) {
  RT_RETURN_IF_ERROR(ValidateParams(params));
  if (size > max_allocation_size_) {
    return Exhausted(base::ResourceExhaustedError(
        "allocation of ", size, " bytes exceeds the limit of ", max_allocation_size_, " bytes"));
  }
  StatusOr<Ref<Buffer>> buffer = AllocateBufferImpl(params, size);
  if (!buffer.ok()) return Exhausted(buffer.status());
  return buffer;
}

StatusOr<Ref<Buffer>> Allocator::AllocateTransient(const BufferParams& params, uint64_t size,
                                                   uint64_t alloca_flags) {
  RT_RETURN_IF_ERROR(ValidateParams(params));
  if (size > max_allocation_size_) {
    return Exhausted(base::ResourceExhaustedError(
        "allocation of ", size, " bytes exceeds the limit of ", max_allocation_size_, " bytes"));
  }
  StatusOr<Ref<Buffer>> buffer = AllocateTransientImpl(params, size, alloca_flags);
  if (!buffer.ok()) return Exhausted(buffer.status());
  return buffer;
}

StatusOr<Ref<Buffer>> Allocator::AllocateTransientImpl(const BufferParams& params, uint64_t size,
                                                       uint64_t alloca_flags) {
  RT_ASSIGN_OR_RETURN(Ref<Buffer> storage, AllocateBufferImpl(params, size));
  return Ref<Buffer>(base::MakeRef<utils::TransientBuffer>(std::move(storage), alloca_flags));
}

StatusOr<Ref<Buffer>> Allocator::ImportHostBuffer(const BufferParams& params, void* host_ptr,
                                                  uint64_t size, HostReleaseCallback release) {
  RT_RETURN_IF_ERROR(ValidateParams(params));
  if (!host_ptr && size) return base::InvalidArgumentError("importing a null host pointer");
  return ImportHostBufferImpl(params, host_ptr, size, std::move(release));
}

namespace {

// 0 for device-local memory, 1 for host-local.
size_t TypeIndex(MemoryTypeBits type) {
  constexpr MemoryTypeBits kDeviceLocalBit = MemoryType::kDeviceLocal & ~MemoryType::kDeviceVisible;
  return (type & kDeviceLocalBit) ? 0 : 1;
}

void RaisePeak(std::atomic<uint64_t>& peak, uint64_t now) {
  uint64_t seen = peak.load(std::memory_order_relaxed);
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
}

}  // namespace

AllocatorStatistics Allocator::statistics() const {
  AllocatorStatistics stats;
  stats.bytes_allocated = bytes_allocated_.load(std::memory_order_relaxed);
  stats.peak_bytes_allocated = peak_bytes_allocated_.load(std::memory_order_relaxed);
  stats.allocation_count = allocation_count_.load(std::memory_order_relaxed);
  AllocatorStatistics::ByType* out[2] = {&stats.device_local, &stats.host_local};
  for (size_t i = 0; i < 2; ++i) {
    out[i]->bytes_allocated = by_type_[i].bytes.load(std::memory_order_relaxed);
    out[i]->peak_bytes_allocated = by_type_[i].peak.load(std::memory_order_relaxed);
    out[i]->allocation_count = by_type_[i].count.load(std::memory_order_relaxed);
    out[i]->live_count = by_type_[i].live.load(std::memory_order_relaxed);
  }
  return stats;
}

void Allocator::RecordAllocation(uint64_t size, MemoryTypeBits type) {
  uint64_t now = bytes_allocated_.fetch_add(size, std::memory_order_relaxed) + size;
  allocation_count_.fetch_add(1, std::memory_order_relaxed);
  RaisePeak(peak_bytes_allocated_, now);
  TypeCounters& typed = by_type_[TypeIndex(type)];
  RaisePeak(typed.peak, typed.bytes.fetch_add(size, std::memory_order_relaxed) + size);
  typed.count.fetch_add(1, std::memory_order_relaxed);
  typed.live.fetch_add(1, std::memory_order_relaxed);
  if (base::trace::Enabled()) {
    base::trace::Counter("live device memory", trace_name_, base::trace::NowNs(),
                         static_cast<double>(now));
  }
}

void Allocator::RecordDeallocation(uint64_t size, MemoryTypeBits type) {
  const uint64_t now = bytes_allocated_.fetch_sub(size, std::memory_order_relaxed) - size;
  by_type_[TypeIndex(type)].bytes.fetch_sub(size, std::memory_order_relaxed);
  by_type_[TypeIndex(type)].live.fetch_sub(1, std::memory_order_relaxed);
  if (base::trace::Enabled()) {
    base::trace::Counter("live device memory", trace_name_, base::trace::NowNs(),
                         static_cast<double>(now));
  }
}

}  // namespace iree_rt::hal
