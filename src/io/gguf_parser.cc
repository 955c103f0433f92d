// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "io/gguf_parser.h"

#include <string>

#include "io/byte_reader.h"
#include "io/ggml_types.h"

namespace iree_rt::io {
namespace {

constexpr uint32_t kMagic = 0x46554747;  // "GGUF"
constexpr uint64_t kDefaultAlignment = 32;
constexpr uint32_t kMaxDims = 4;          // GGML_MAX_DIMS
constexpr int kMaxArrayDepth = 8;         // arrays of arrays; real files use at most 1

enum ValueType : uint32_t {
  kU8 = 0, kI8 = 1, kU16 = 2, kI16 = 3, kU32 = 4, kI32 = 5, kF32 = 6, kBool = 7,
  kString = 8, kArray = 9, kU64 = 10, kI64 = 11, kF64 = 12,
};

// Bytes of a fixed-size value type; 0 for strings, arrays and unknown types.
uint64_t FixedSize(uint32_t type) {
  switch (type) {
    case kU8: case kI8: case kBool: return 1;
    case kU16: case kI16: return 2;
    case kU32: case kI32: case kF32: return 4;
    case kU64: case kI64: case kF64: return 8;
    default: return 0;
  }
}

class GgufParser {
 public:
  GgufParser(std::span<const uint8_t> bytes, std::string_view file_name)
      : bytes_(bytes), file_name_(file_name), reader_(bytes) {}

  base::StatusOr<std::vector<ParameterEntry>> Parse() {
    uint32_t magic = 0, version = 0;
    uint64_t tensor_count = 0, kv_count = 0;
    if (!reader_.ReadU32(magic) || magic != kMagic) {
      return base::InvalidArgumentError(file_name_, ": no GGUF magic (not a gguf file)");
    }
    if (!reader_.ReadU32(version)) return Truncated("the version");
    if (version != 2 && version != 3) {
      // A big-endian file stores its version byte-swapped.
      return base::IncompatibleError(file_name_, ": gguf version ", version,
                                     (version & 0xFFFF) == 0 ? " (a big-endian file?)" : "",
                                     "; this runtime reads little-endian versions 2 and 3");
    }
    if (!reader_.ReadU64(tensor_count) || !reader_.ReadU64(kv_count)) {
      return Truncated("the header");
    }
    // Each key/value takes at least 12 bytes, each tensor info 24: bounds the loops and the
    // allocation by what the file really holds.
    if (kv_count > reader_.remaining() / 12) return Truncated("the metadata key/values");
    for (uint64_t i = 0; i < kv_count; ++i) RT_RETURN_IF_ERROR(ReadKeyValue(i));
    if (tensor_count > reader_.remaining() / 24) return Truncated("the tensor infos");
    std::vector<ParameterEntry> entries;
    entries.reserve(static_cast<size_t>(tensor_count));
    std::vector<uint64_t> relative_offsets;
    relative_offsets.reserve(static_cast<size_t>(tensor_count));
    for (uint64_t i = 0; i < tensor_count; ++i) {
      ParameterEntry entry;
      uint64_t offset = 0;
      RT_RETURN_IF_ERROR(ReadTensorInfo(i, entry, offset));
      entries.push_back(std::move(entry));
      relative_offsets.push_back(offset);
    }
    // The data section starts at the next multiple of the alignment (gguf stores no offset).
    const uint64_t data_start =
        (reader_.position() + alignment_ - 1) / alignment_ * alignment_;
    for (size_t i = 0; i < entries.size(); ++i) {
      RT_RETURN_IF_ERROR(PlaceTensor(data_start, relative_offsets[i], entries[i]));
    }
    RT_RETURN_IF_ERROR(ValidateEntries(entries, file_name_));
    return entries;
  }

 private:
  base::Status Truncated(std::string_view what) const {
    return base::OutOfRangeError(file_name_, ": truncated: ", what, " at offset ",
                                 reader_.position(), " run past the end of the file (size ",
                                 bytes_.size(), ")");
  }

  bool ReadString(std::string_view& out) {
    uint64_t length = 0;
    const size_t start = reader_.position();
    if (reader_.ReadU64(length) && reader_.ReadString(length, out)) return true;
    reader_ = ByteReader(bytes_, start);
    return false;
  }

  base::Status ReadKeyValue(uint64_t index) {
    std::string_view key;
    uint32_t type = 0;
    if (!ReadString(key)) return Truncated("the name of metadata key " + std::to_string(index));
    if (!reader_.ReadU32(type)) return Truncated(base::StrCat("metadata key '", key, "'"));
    if (key == "general.alignment") {
      uint32_t alignment = 0;
      if (type != kU32 || !reader_.ReadU32(alignment) || alignment == 0 ||
          (alignment & (alignment - 1)) != 0) {
        return base::InvalidArgumentError(file_name_,
                                          ": general.alignment is not a u32 power of two");
      }
      alignment_ = alignment;
      return base::Status::Ok();
    }
    return SkipValue(key, type, 0);
  }

  // Skips one value of |type|; |depth| counts the arrays around it.
  base::Status SkipValue(std::string_view key, uint32_t type, int depth) {
    if (const uint64_t size = FixedSize(type)) {
      if (!reader_.Skip(size)) return Truncated(base::StrCat("metadata key '", key, "'"));
      return base::Status::Ok();
    }
    if (type == kString) {
      std::string_view ignored;
      if (!ReadString(ignored)) return Truncated(base::StrCat("metadata key '", key, "'"));
      return base::Status::Ok();
    }
    if (type != kArray) {
      return base::InvalidArgumentError(file_name_, ": metadata key '", key,
                                        "' has unknown value type ", type);
    }
    if (depth >= kMaxArrayDepth) {
      return base::InvalidArgumentError(file_name_, ": metadata key '", key,
                                        "' nests arrays deeper than ", kMaxArrayDepth);
    }
    uint32_t element_type = 0;
    uint64_t count = 0;
    if (!reader_.ReadU32(element_type) || !reader_.ReadU64(count)) {
      return Truncated(base::StrCat("metadata array '", key, "'"));
    }
    if (const uint64_t size = FixedSize(element_type)) {
      uint64_t total = 0;
      if (!CheckedMul(count, size, total) || !reader_.Skip(total)) {
        return Truncated(base::StrCat("metadata array '", key, "'"));
      }
      return base::Status::Ok();
    }
    // Strings take at least 8 bytes, arrays 12: a count past that cannot be in the file.
    if (count > reader_.remaining() / 8) {
      return Truncated(base::StrCat("metadata array '", key, "'"));
    }
    for (uint64_t i = 0; i < count; ++i) {
      RT_RETURN_IF_ERROR(SkipValue(key, element_type, depth + 1));
    }
    return base::Status::Ok();
  }

  base::Status ReadTensorInfo(uint64_t index, ParameterEntry& entry, uint64_t& offset) {
    std::string_view name;
    uint32_t n_dims = 0, type_id = 0;
    if (!ReadString(name)) return Truncated("the name of tensor " + std::to_string(index));
    entry.key.assign(name);
    const std::string where = "tensor '" + entry.key + "'";
    if (!reader_.ReadU32(n_dims)) return Truncated(where);
    if (n_dims > kMaxDims) {
      return base::InvalidArgumentError(file_name_, ": ", where, " has ", n_dims,
                                        " dimensions (at most ", kMaxDims, ")");
    }
    uint64_t dims[kMaxDims] = {1, 1, 1, 1};
    for (uint32_t d = 0; d < n_dims; ++d) {
      if (!reader_.ReadU64(dims[d])) return Truncated(where);
    }
    if (!reader_.ReadU32(type_id) || !reader_.ReadU64(offset)) return Truncated(where);
    const GgmlType* type = FindGgmlType(type_id);
    if (!type) {
      return base::UnimplementedError(file_name_, ": ", where, " has ggml type ", type_id,
                                      ", which this runtime does not know");
    }
    // Rows are whole blocks: dims[0] (the innermost) must be a multiple of the block size.
    if (dims[0] % type->block_size != 0) {
      return base::InvalidArgumentError(file_name_, ": ", where, " has rows of ", dims[0],
                                        " elements, not a multiple of ", type->name,
                                        "'s block of ", type->block_size);
    }
    uint64_t elements = 1, bytes = 0;
    for (uint64_t extent : dims) {
      if (!CheckedMul(elements, extent, elements)) {
        return base::OutOfRangeError(file_name_, ": ", where, ": length overflow (",
                                     "the element count exceeds 64 bits)");
      }
    }
    if (!CheckedMul(elements / type->block_size, type->type_size, bytes)) {
      return base::OutOfRangeError(file_name_, ": ", where,
                                   ": length overflow (its size exceeds 64 bits)");
    }
    entry.kind = ParameterKind::kData;
    entry.length = entry.stored_length = bytes;
    entry.element_type.assign(type->name);
    entry.has_shape = true;
    // gguf lists the innermost dimension first; the entry's shape is row-major.
    for (uint32_t d = n_dims; d > 0; --d) entry.shape.push_back(dims[d - 1]);
    return base::Status::Ok();
  }

  base::Status PlaceTensor(uint64_t data_start, uint64_t relative, ParameterEntry& entry) const {
    if (relative % alignment_ != 0) {
      return base::InvalidArgumentError(file_name_, ": tensor '", entry.key, "': offset ",
                                        relative, " is misaligned for the data alignment ",
                                        alignment_);
    }
    uint64_t offset = 0;
    if (!CheckedAdd(data_start, relative, offset) ||
        !RangeInside(offset, entry.stored_length, bytes_.size())) {
      return base::OutOfRangeError(file_name_, ": tensor '", entry.key, "': data (+", relative,
                                   ", ", entry.stored_length, " bytes from the data section at ",
                                   data_start, ") is past the end of the file (size ",
                                   bytes_.size(), "; truncated?)");
    }
    entry.offset = offset;
    entry.alignment = alignment_;
    return base::Status::Ok();
  }

  std::span<const uint8_t> bytes_;
  std::string_view file_name_;
  ByteReader reader_;
  uint64_t alignment_ = kDefaultAlignment;
};

}  // namespace

base::StatusOr<std::vector<ParameterEntry>> ParseGguf(std::span<const uint8_t> bytes,
                                                      std::string_view file_name) {
  return GgufParser(bytes, file_name).Parse();
}

}  // namespace iree_rt::io
