// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/aligned_bytes.h"

#include <cstdlib>
#include <cstring>

namespace iree_rt::base {

StatusOr<Ref<AlignedBytes>> AlignedBytes::Copy(std::span<const uint8_t> bytes, size_t alignment) {
  const size_t rounded = (bytes.size() + alignment - 1) / alignment * alignment;
  if (rounded < bytes.size()) return ResourceExhaustedError(bytes.size(), " bytes are too many to copy");
  auto* data = static_cast<uint8_t*>(std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded));
  if (!data) return ResourceExhaustedError("out of memory copying ", bytes.size(), " bytes");
  if (!bytes.empty()) std::memcpy(data, bytes.data(), bytes.size());
  return Ref<AlignedBytes>::Adopt(new AlignedBytes(data, bytes.size()));
}

AlignedBytes::~AlignedBytes() { std::free(data_); }

}  // namespace iree_rt::base
