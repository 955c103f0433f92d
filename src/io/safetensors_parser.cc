// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "io/safetensors_parser.h"

#include "io/byte_reader.h"
#include "io/json_reader.h"

namespace iree_rt::io {
namespace {

// The reference implementation refuses larger headers; so do we, before parsing any of it.
constexpr uint64_t kMaxHeaderSize = 100'000'000;

// Bits per element of every dtype the format defines.
struct Dtype {
  std::string_view name;
  uint64_t bits;
};
constexpr Dtype kDtypes[] = {
    {"BOOL", 8},        {"U8", 8},          {"I8", 8},          {"F8_E5M2", 8},
    {"F8_E4M3", 8},     {"F8_E8M0", 8},     {"F8_E4M3FNUZ", 8}, {"F8_E5M2FNUZ", 8},
    {"I16", 16},        {"U16", 16},        {"F16", 16},        {"BF16", 16},
    {"I32", 32},        {"U32", 32},        {"F32", 32},        {"I64", 64},
    {"U64", 64},        {"F64", 64},        {"C64", 64},        {"F4", 4},
    {"F6_E2M3", 6},     {"F6_E3M2", 6},
};

class SafetensorsParser {
 public:
  SafetensorsParser(std::span<const uint8_t> bytes, std::string_view file_name)
      : bytes_(bytes), file_name_(file_name) {}

  base::StatusOr<std::vector<ParameterEntry>> Parse() {
    ByteReader reader(bytes_);
    uint64_t header_size = 0;
    std::string_view header;
    if (!reader.ReadU64(header_size)) {
      return base::OutOfRangeError(file_name_, ": truncated: ", bytes_.size(),
                                   " bytes hold no 8-byte header length");
    }
    if (header_size > kMaxHeaderSize) {
      return base::InvalidArgumentError(file_name_, ": header length ", header_size,
                                        " is over the format's limit of ", kMaxHeaderSize);
    }
    if (!reader.ReadString(header_size, header)) {
      return base::OutOfRangeError(file_name_, ": truncated: the header of ", header_size,
                                   " bytes reaches past the end of the file (size ",
                                   bytes_.size(), ")");
    }
    data_start_ = reader.position();
    RT_ASSIGN_OR_RETURN(JsonValue root, ParseJson(header, file_name_));
    if (root.type != JsonValue::Type::kObject) {
      return base::InvalidArgumentError(file_name_, ": the header is not a JSON object");
    }
    std::vector<ParameterEntry> entries;
    entries.reserve(root.members.size());
    for (const auto& [key, value] : root.members) {
      if (key == "__metadata__") {
        RT_RETURN_IF_ERROR(CheckMetadata(value));
        continue;
      }
      ParameterEntry entry;
      entry.key = key;
      RT_RETURN_IF_ERROR(ReadTensor(value, entry));
      entries.push_back(std::move(entry));
    }
    RT_RETURN_IF_ERROR(ValidateEntries(entries, file_name_));
    return entries;
  }

 private:
  base::Status Bad(std::string_view key, std::string_view problem) const {
    return base::InvalidArgumentError(file_name_, ": tensor '", key, "': ", problem);
  }

  base::Status CheckMetadata(const JsonValue& value) const {
    bool ok = value.type == JsonValue::Type::kObject;
    for (const auto& member : value.members) {
      ok = ok && member.value.type == JsonValue::Type::kString;
    }
    if (!ok) {
      return base::InvalidArgumentError(file_name_,
                                        ": __metadata__ is not an object of strings");
    }
    return base::Status::Ok();
  }

  base::Status ReadTensor(const JsonValue& value, ParameterEntry& entry) const {
    const std::string& key = entry.key;
    if (value.type != JsonValue::Type::kObject) return Bad(key, "is not a JSON object");
    const JsonValue* dtype = value.Find("dtype");
    const JsonValue* shape = value.Find("shape");
    const JsonValue* offsets = value.Find("data_offsets");
    if (!dtype || dtype->type != JsonValue::Type::kString) return Bad(key, "has no dtype string");
    if (!shape || shape->type != JsonValue::Type::kArray) return Bad(key, "has no shape array");
    if (!offsets || offsets->type != JsonValue::Type::kArray || offsets->items.size() != 2) {
      return Bad(key, "has no data_offsets [begin, end]");
    }
    uint64_t bits = 0;
    for (const Dtype& known : kDtypes) {
      if (known.name == dtype->text) bits = known.bits;
    }
    if (bits == 0) return Bad(key, "unknown dtype '" + dtype->text + "'");
    uint64_t elements = 1;
    for (const JsonValue& dim : shape->items) {
      uint64_t extent = 0;
      if (!dim.AsUint64(extent)) return Bad(key, "a shape dimension is not an unsigned integer");
      if (!CheckedMul(elements, extent, elements)) {
        return base::OutOfRangeError(file_name_, ": tensor '", key,
                                     "': length overflow (the element count exceeds 64 bits)");
      }
      entry.shape.push_back(extent);
    }
    uint64_t total_bits = 0, begin = 0, end = 0;
    if (!CheckedMul(elements, bits, total_bits)) {
      return base::OutOfRangeError(file_name_, ": tensor '", key,
                                   "': length overflow (its size exceeds 64 bits)");
    }
    if (total_bits % 8 != 0) return Bad(key, "sub-byte elements do not fill whole bytes");
    if (!offsets->items[0].AsUint64(begin) || !offsets->items[1].AsUint64(end) || end < begin) {
      return Bad(key, "data_offsets are not unsigned integers with begin <= end");
    }
    if (end - begin != total_bits / 8) {
      return Bad(key, base::StrCat("data_offsets span ", end - begin, " bytes but ", dtype->text,
                                   " x ", elements, " elements need ", total_bits / 8));
    }
    const uint64_t data_size = bytes_.size() - data_start_;
    if (end > data_size) {
      return base::OutOfRangeError(file_name_, ": tensor '", key, "': data [", begin, ", ", end,
                                   ") is past the end of the file (", data_size,
                                   " data bytes; truncated?)");
    }
    entry.kind = ParameterKind::kData;
    entry.offset = data_start_ + begin;
    entry.stored_length = entry.length = end - begin;
    entry.alignment = 1;
    entry.element_type = dtype->text;
    entry.has_shape = true;
    return base::Status::Ok();
  }

  std::span<const uint8_t> bytes_;
  std::string_view file_name_;
  size_t data_start_ = 0;
};

}  // namespace

base::StatusOr<std::vector<ParameterEntry>> ParseSafetensors(std::span<const uint8_t> bytes,
                                                             std::string_view file_name) {
  return SafetensorsParser(bytes, file_name).Parse();
}

}  // namespace iree_rt::io
