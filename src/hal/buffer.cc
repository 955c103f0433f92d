// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/buffer.h"

#include <cstring>

namespace iree_rt::hal {

using base::Ref;
using base::Status;
using base::StatusOr;

namespace {

std::string BitsToString(uint32_t bits, std::initializer_list<std::pair<uint32_t, const char*>> names) {
  std::string result;
  for (const auto& [mask, name] : names) {
    if (mask && (bits & mask) == mask) {
      if (!result.empty()) result += "|";
      result += name;
      bits &= ~mask;
    }
  }
  if (bits) {
    if (!result.empty()) result += "|";
    char hex[16];
    snprintf(hex, sizeof(hex), "0x%x", bits);
    result += hex;
  }
  return result.empty() ? "NONE" : result;
}

}  // namespace

// A view into a root buffer; forwards mapping to the root.
class SubspanBuffer final : public Buffer {
 public:
  SubspanBuffer(const Ref<Buffer>& root, uint64_t offset, uint64_t length)
      : Buffer(root->memory_type(), root->allowed_usage(), root->allowed_access(), length) {
    root_ = root;
    byte_offset_ = offset;
  }

 private:
  StatusOr<uint8_t*> MapImpl(uint64_t offset, uint64_t length) override {
    return root_->MapImpl(offset, length);
  }
};

std::string MemoryTypeToString(MemoryTypeBits bits) {
  return BitsToString(bits, {{MemoryType::kHostLocal, "HOST_LOCAL"},
                             {MemoryType::kDeviceLocal, "DEVICE_LOCAL"},
                             {MemoryType::kOptimal, "OPTIMAL"},
                             {MemoryType::kHostVisible, "HOST_VISIBLE"},
                             {MemoryType::kHostCoherent, "HOST_COHERENT"},
                             {MemoryType::kHostCached, "HOST_CACHED"},
                             {MemoryType::kDeviceVisible, "DEVICE_VISIBLE"}});
}

std::string BufferUsageToString(BufferUsageBits bits) {
  return BitsToString(bits, {{BufferUsage::kTransferSource, "TRANSFER_SOURCE"},
                             {BufferUsage::kTransferTarget, "TRANSFER_TARGET"},
                             {BufferUsage::kDispatchIndirectParameters, "DISPATCH_INDIRECT_PARAMETERS"},
                             {BufferUsage::kDispatchUniformRead, "DISPATCH_UNIFORM_READ"},
                             {BufferUsage::kDispatchStorageRead, "DISPATCH_STORAGE_READ"},
                             {BufferUsage::kDispatchStorageWrite, "DISPATCH_STORAGE_WRITE"},
                             {BufferUsage::kDispatchImage, "DISPATCH_IMAGE"},
                             {BufferUsage::kSharingExport, "SHARING_EXPORT"},
                             {BufferUsage::kSharingReplicate, "SHARING_REPLICATE"},
                             {BufferUsage::kSharingConcurrent, "SHARING_CONCURRENT"},
                             {BufferUsage::kSharingImmutable, "SHARING_IMMUTABLE"},
                             {BufferUsage::kMappingScoped, "MAPPING_SCOPED"},
                             {BufferUsage::kMappingPersistent, "MAPPING_PERSISTENT"},
                             {BufferUsage::kMappingOptional, "MAPPING_OPTIONAL"},
                             {BufferUsage::kMappingAccessRandom, "MAPPING_ACCESS_RANDOM"},
                             {BufferUsage::kMappingAccessSequentialWrite,
                              "MAPPING_ACCESS_SEQUENTIAL_WRITE"}});
}

Buffer::Buffer(MemoryTypeBits type, BufferUsageBits usage, MemoryAccessBits access, uint64_t length)
    : memory_type_(type), allowed_usage_(usage), allowed_access_(access), byte_length_(length) {}

Status Buffer::RangeError(uint64_t offset, uint64_t length) const {
  if (offset > byte_length_) {
    return base::OutOfRangeError("offset ", offset, " is past the end of a buffer of ", byte_length_,
                                 " bytes");
  }
  return base::OutOfRangeError("range [", offset, ", ", offset, "+", length,
                               ") overruns a buffer of ", byte_length_, " bytes");
}

StatusOr<Ref<Buffer>> Buffer::Subspan(const Ref<Buffer>& buffer, uint64_t offset, uint64_t length) {
  if (!buffer) return base::InvalidArgumentError("subspan of a null buffer");
  RT_ASSIGN_OR_RETURN(uint64_t resolved, buffer->ResolveRange(offset, length));
  Buffer* root = buffer->allocated_buffer();
  return Ref<Buffer>(base::MakeRef<SubspanBuffer>(Ref<Buffer>::Retain(root),
                                                  buffer->byte_offset_ + offset, resolved));
}

bool Buffer::AllocationDiscard() {
  std::atomic<uint32_t>& count = allocated_buffer()->preserve_count_;
  uint32_t value = count.load();
  // Never below zero: a program that discards more than it preserved gets false, not a wrap.
  while (value != 0 && !count.compare_exchange_weak(value, value - 1)) {
  }
  return value == 1;
}

StatusOr<uint8_t*> Buffer::Map(MemoryAccessBits access, uint64_t offset, uint64_t length) {
  if (!(memory_type_ & MemoryType::kHostVisible)) {
    return base::FailedPreconditionError("buffer memory (", MemoryTypeToString(memory_type_),
                                         ") is not HOST_VISIBLE and cannot be mapped");
  }
  if (!(allowed_usage_ & (BufferUsage::kMappingScoped | BufferUsage::kMappingPersistent))) {
    return base::FailedPreconditionError("buffer usage (", BufferUsageToString(allowed_usage_),
                                         ") does not allow mapping");
  }
  if ((access & allowed_access_) != (access & MemoryAccess::kAll)) {
    return base::MakeStatus(base::StatusCode::kPermissionDenied, "mapping for access 0x",
                            std::hex, access, " but the buffer only allows 0x", allowed_access_);
  }
  RT_ASSIGN_OR_RETURN(uint64_t resolved, ResolveRange(offset, length));
  Buffer* root = allocated_buffer();
  return root->MapImpl(byte_offset_ + offset, resolved);
}

// Host transfers need an exact byte count: the other side is caller memory of unknown size.
static Status CheckExactLength(uint64_t length, const char* what) {
  if (length == kWholeBuffer) return base::InvalidArgumentError(what, " needs an exact length, not WHOLE_BUFFER");
  return Status::Ok();
}

Status Buffer::Read(uint64_t offset, void* target, uint64_t length) {
  RT_RETURN_IF_ERROR(CheckExactLength(length, "buffer read"));
  RT_RETURN_IF_ERROR(ResolveRange(offset, length).status());
  if (length == 0) return Status::Ok();
  if (!target) return base::InvalidArgumentError("null read target");
  RT_ASSIGN_OR_RETURN(uint8_t* source, Map(MemoryAccess::kRead, offset, length));
  std::memcpy(target, source, length);
  return Status::Ok();
}

Status Buffer::Write(uint64_t offset, const void* source, uint64_t length) {
  RT_RETURN_IF_ERROR(CheckExactLength(length, "buffer write"));
  RT_RETURN_IF_ERROR(ResolveRange(offset, length).status());
  if (length == 0) return Status::Ok();
  if (!source) return base::InvalidArgumentError("null write source");
  RT_ASSIGN_OR_RETURN(uint8_t* target, Map(MemoryAccess::kWrite, offset, length));
  std::memcpy(target, source, length);
  return Status::Ok();
}

Status Buffer::ValidateFillPattern(uint64_t offset, uint64_t length, uint32_t pattern_length) {
  if (pattern_length != 1 && pattern_length != 2 && pattern_length != 4) {
    return base::InvalidArgumentError("fill pattern length ", pattern_length,
                                      " is not 1, 2 or 4 bytes");
  }
  if (offset % pattern_length || (length != kWholeBuffer && length % pattern_length)) {
    return base::InvalidArgumentError("fill offset ", offset, " and length ", length,
                                      " must be multiples of the pattern length ", pattern_length);
  }
  return Status::Ok();
}

Status Buffer::Fill(uint64_t offset, uint64_t length, uint32_t pattern, uint32_t pattern_length) {
  RT_RETURN_IF_ERROR(ValidateFillPattern(offset, length, pattern_length));
  RT_ASSIGN_OR_RETURN(uint64_t resolved, ResolveRange(offset, length));
  // A WHOLE_BUFFER length is only checked now: a partial last pattern would write past the range.
  RT_RETURN_IF_ERROR(ValidateFillPattern(offset, resolved, pattern_length));
  if (resolved == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(uint8_t* target, Map(MemoryAccess::kWrite, offset, resolved));
  if (pattern_length == 1) {
    std::memset(target, static_cast<int>(pattern & 0xFF), resolved);
  } else {
    for (uint64_t i = 0; i < resolved; i += pattern_length) std::memcpy(target + i, &pattern, pattern_length);
  }
  return Status::Ok();
}

Status Buffer::Copy(Buffer& source, uint64_t source_offset, Buffer& target, uint64_t target_offset,
                    uint64_t length) {
  RT_RETURN_IF_ERROR(CheckExactLength(length, "buffer copy"));
  RT_RETURN_IF_ERROR(source.ResolveRange(source_offset, length).status());
  RT_RETURN_IF_ERROR(target.ResolveRange(target_offset, length).status());
  if (length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(uint8_t* src, source.Map(MemoryAccess::kRead, source_offset, length));
  RT_ASSIGN_OR_RETURN(uint8_t* dst, target.Map(MemoryAccess::kWrite, target_offset, length));
  std::memmove(dst, src, length);
  return Status::Ok();
}

}  // namespace iree_rt::hal
