// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/buffer_view_text.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <limits>

#include "hal/utils/element_value.h"
#include "hal/utils/file_streams.h"

namespace iree_rt::hal::utils {

using base::Ref;
using base::Status;
using base::StatusOr;
using hal::ElementType;
namespace NT = hal::NumericalType;

namespace {

struct ElementCodec {
  ElementType type;
  ElementClass kind;  // how one element is written as text (kBytes: hex digits)
  uint32_t numerical;
  uint32_t bits;
  // Bytes per element for byte-aligned types; for packed types, the bytes one element's hex text
  // spells (its value zero-extended).
  uint32_t bytes;
  bool packed;  // bits is not a multiple of 8: elements are bit-packed, LSB first
};

ElementCodec CodecFor(ElementType type) {
  const uint32_t bits = hal::ElementBitCount(type);
  return ElementCodec{type,       ClassifyElement(type), hal::ElementNumericalType(type),
                      bits,       (bits + 7) / 8,        bits % 8 != 0};
}

bool IsSeparator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == ',' ||
         c == '[' || c == ']';
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  return text;
}

// Calls |fn(token)| for each value token of |data|; stops at the first error.
template <typename Fn>
Status ForEachToken(std::string_view data, Fn&& fn) {
  size_t i = 0;
  while (i < data.size()) {
    while (i < data.size() && IsSeparator(data[i])) ++i;
    size_t start = i;
    while (i < data.size() && !IsSeparator(data[i])) ++i;
    if (i > start) RT_RETURN_IF_ERROR(fn(data.substr(start, i - start)));
  }
  return Status::Ok();
}

// strtoll and friends need a terminated string; tokens are views into the spec.
class TerminatedToken {
 public:
  explicit TerminatedToken(std::string_view token) {
    if (token.size() < sizeof(inline_)) {
      std::memcpy(inline_, token.data(), token.size());
      inline_[token.size()] = '\0';
      data_ = inline_;
    } else {
      heap_.assign(token);
      data_ = heap_.c_str();
    }
  }
  const char* c_str() const { return data_; }

 private:
  char inline_[64];
  std::string heap_;
  const char* data_;
};

Status ParseInteger(std::string_view token, const ElementCodec& codec, ElementType type,
                    uint8_t* out) {
  TerminatedToken text(token);
  char* end = nullptr;
  errno = 0;
  uint64_t raw;
  int64_t value = 0;
  if (codec.kind == ElementClass::kUnsigned && codec.bits == 64) {
    raw = std::strtoull(text.c_str(), &end, 0);  // like strtoull, "-1" is the maximum
  } else {
    value = std::strtoll(text.c_str(), &end, 0);
    raw = static_cast<uint64_t>(value);
  }
  if (end == text.c_str()) {
    return base::InvalidArgumentError("'", token, "' is not a valid ", ElementTypeName(type),
                                      " value");
  }
  if (errno == ERANGE) {
    return base::InvalidArgumentError("'", token, "' is out of range for ", ElementTypeName(type));
  }
  // 8/16-bit values must fit the type (signless types take either signedness); 32-bit values wrap
  // as iree-run-module's do, so "-1" is a valid ui32 and 4294967295 a valid i32.
  if (codec.bits < 32) {
    const int64_t signed_min = -(int64_t{1} << (codec.bits - 1));
    const int64_t signed_max = (int64_t{1} << (codec.bits - 1)) - 1;
    const int64_t unsigned_max = (int64_t{1} << codec.bits) - 1;
    int64_t lo = signed_min, hi = unsigned_max;
    if (codec.numerical == NT::kIntegerSigned) hi = signed_max;
    if (codec.numerical == NT::kIntegerUnsigned) lo = 0;
    if (value < lo || value > hi) {
      return base::InvalidArgumentError("'", token, "' is out of range for ",
                                        ElementTypeName(type));
    }
  }
  for (uint32_t i = 0; i < codec.bytes; ++i) out[i] = static_cast<uint8_t>(raw >> (8 * i));
  return Status::Ok();
}

Status ParseFloat(std::string_view token, const ElementCodec& codec, ElementType type,
                  uint8_t* out) {
  TerminatedToken text(token);
  char* end = nullptr;
  errno = 0;
  // Narrow types go through f32 (strtof) as iree-run-module's do; this also sets the underflow
  // rule: a nonzero value that underflows f32 (or f64) to zero is an error, overflow gives inf.
  const bool is_f64 = codec.numerical == NT::kFloatIeee && codec.bits == 64;
  double wide = 0;
  float narrow = 0;
  bool is_zero;
  if (is_f64) {
    wide = std::strtod(text.c_str(), &end);
    is_zero = wide == 0;
  } else {
    narrow = std::strtof(text.c_str(), &end);
    is_zero = narrow == 0;
  }
  if (end == text.c_str()) {
    return base::InvalidArgumentError("'", token, "' is not a valid ", ElementTypeName(type),
                                      " value");
  }
  if (errno == ERANGE && is_zero) {
    return base::InvalidArgumentError("'", token, "' underflows ", ElementTypeName(type));
  }
  StoreFloatElement(type, is_f64 ? wide : narrow, out);
  return Status::Ok();
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Status ParseHex(std::string_view token, const ElementCodec& codec, ElementType type, uint8_t* out) {
  if (token.size() != 2 * codec.bytes) {
    return base::InvalidArgumentError("'", token, "' is not a valid ", ElementTypeName(type),
                                      " value: expected ", 2 * codec.bytes, " hex digits");
  }
  for (uint32_t i = 0; i < codec.bytes; ++i) {
    int hi = HexDigit(token[2 * i]), lo = HexDigit(token[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      return base::InvalidArgumentError("'", token, "' is not a valid ", ElementTypeName(type),
                                        " value: expected hex digits");
    }
    out[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  // A packed element's text spells its value; anything above its bit width cannot be stored.
  if (codec.packed) {
    for (uint32_t bit = codec.bits; bit < 8 * codec.bytes; ++bit) {
      if (out[bit / 8] >> (bit % 8) & 1) {
        return base::InvalidArgumentError("'", token, "' does not fit in ", ElementTypeName(type));
      }
    }
  }
  return Status::Ok();
}

Status ParseElement(std::string_view token, const ElementCodec& codec, ElementType type,
                    uint8_t* out) {
  switch (codec.kind) {
    case ElementClass::kSigned:
    case ElementClass::kUnsigned:
      return ParseInteger(token, codec, type, out);
    case ElementClass::kFloat:
      return ParseFloat(token, codec, type, out);
    case ElementClass::kBytes:
      break;
  }
  return ParseHex(token, codec, type, out);
}

// Packed element access: element |index| occupies bits [index*bits, (index+1)*bits) of the
// little-endian bit stream.
void StorePacked(uint8_t* data, uint64_t index, uint32_t bits, const uint8_t* value) {
  const uint64_t first = index * bits;
  for (uint32_t b = 0; b < bits; ++b) {
    const uint64_t bit = first + b;
    const uint8_t mask = static_cast<uint8_t>(1u << (bit % 8));
    if (value[b / 8] >> (b % 8) & 1) {
      data[bit / 8] |= mask;
    } else {
      data[bit / 8] &= static_cast<uint8_t>(~mask);
    }
  }
}

void LoadPacked(const uint8_t* data, uint64_t index, uint32_t bits, uint8_t* value,
                uint32_t bytes) {
  std::memset(value, 0, bytes);
  const uint64_t first = index * bits;
  for (uint32_t b = 0; b < bits; ++b) {
    const uint64_t bit = first + b;
    if (data[bit / 8] >> (bit % 8) & 1) value[b / 8] |= static_cast<uint8_t>(1u << (b % 8));
  }
}

// Fills |data| (|count| elements) from the value text, following §6.2's count rules.
Status ParseValues(std::string_view values, ElementType type, uint64_t count, uint8_t* data,
                   uint64_t byte_length) {
  const ElementCodec codec = CodecFor(type);
  uint64_t token_count = 0;
  RT_RETURN_IF_ERROR(ForEachToken(values, [&](std::string_view) {
    ++token_count;
    return Status::Ok();
  }));
  if (token_count == 0) {
    if (byte_length) std::memset(data, 0, byte_length);  // data is null for empty tensors
    return Status::Ok();
  }
  if (token_count > count) {
    return base::OutOfRangeError("input data string overflow: ", token_count, " values for ", count,
                                 " elements");
  }
  if (token_count != 1 && token_count < count) {
    return base::OutOfRangeError("input data string underflow: ", token_count, " values for ",
                                 count, " elements");
  }
  if (codec.packed && codec.bits > 64) {
    return base::UnimplementedError("element type ", ElementTypeName(type),
                                    " is neither byte-aligned nor at most 64 bits");
  }
  uint8_t element[32];  // element types are at most 255 bits
  if (codec.packed) std::memset(data, 0, byte_length);
  if (token_count == 1) {
    RT_RETURN_IF_ERROR(ForEachToken(
        values, [&](std::string_view token) { return ParseElement(token, codec, type, element); }));
    for (uint64_t i = 0; i < count; ++i) {
      if (codec.packed) {
        StorePacked(data, i, codec.bits, element);
      } else {
        std::memcpy(data + i * codec.bytes, element, codec.bytes);
      }
    }
    return Status::Ok();
  }
  uint64_t index = 0;
  return ForEachToken(values, [&](std::string_view token) -> Status {
    if (codec.packed) {
      RT_RETURN_IF_ERROR(ParseElement(token, codec, type, element));
      StorePacked(data, index, codec.bits, element);
    } else {
      RT_RETURN_IF_ERROR(ParseElement(token, codec, type, data + index * codec.bytes));
    }
    ++index;
    return Status::Ok();
  });
}

Status ReadRaw(std::string_view path, bool continue_previous, FileStreams* streams, uint8_t* data,
               uint64_t byte_length) {
  FileStreams local_streams;
  if (!streams) streams = &local_streams;
  RT_ASSIGN_OR_RETURN(std::istream * stream, streams->Open(path, continue_previous));
  if (byte_length == 0) return Status::Ok();
  stream->read(reinterpret_cast<char*>(data), static_cast<std::streamsize>(byte_length));
  const uint64_t got = static_cast<uint64_t>(stream->gcount());
  if (got != byte_length) {
    return base::OutOfRangeError("file '", path, "' ended after ", got, " of the ", byte_length,
                                 " bytes the tensor needs");
  }
  return Status::Ok();
}

// Appends the text of the byte-aligned element at |p|.
void AppendElement(const ElementCodec& codec, const uint8_t* p, std::string& out) {
  char text[64];
  int length = 0;
  uint64_t raw = 0;
  if (codec.kind == ElementClass::kSigned || codec.kind == ElementClass::kUnsigned) {
    for (uint32_t i = 0; i < codec.bytes; ++i) raw |= static_cast<uint64_t>(p[i]) << (8 * i);
  }
  switch (codec.kind) {
    case ElementClass::kSigned: {
      const int shift = 64 - static_cast<int>(codec.bits);
      const int64_t value = static_cast<int64_t>(raw << shift) >> shift;  // sign-extend
      length = std::snprintf(text, sizeof(text), "%lld", static_cast<long long>(value));
      break;
    }
    case ElementClass::kUnsigned:
      length = std::snprintf(text, sizeof(text), "%llu", static_cast<unsigned long long>(raw));
      break;
    case ElementClass::kFloat: {
      double value = LoadFloatElement(codec.type, p);
      const bool narrow = !(codec.numerical == NT::kFloatIeee && codec.bits >= 32);
      // iree-run-module prints every NaN of a narrow type as "NAN", whatever its sign bit.
      if (narrow && std::isnan(value)) value = std::fabs(value);
      length = std::snprintf(text, sizeof(text), "%G", value);
      break;
    }
    case ElementClass::kBytes: {
      static constexpr char kDigits[] = "0123456789ABCDEF";
      for (uint32_t i = 0; i < codec.bytes; ++i) {
        out.push_back(kDigits[p[i] >> 4]);
        out.push_back(kDigits[p[i] & 0xF]);
      }
      return;
    }
  }
  out.append(text, static_cast<size_t>(length));
}

// Appends the text of element |index| of |data|.
void FormatElement(const uint8_t* data, uint64_t index, const ElementCodec& codec,
                   std::string& out) {
  if (!codec.packed) return AppendElement(codec, data + index * codec.bytes, out);
  uint8_t packed_value[32];
  LoadPacked(data, index, codec.bits, packed_value, codec.bytes);
  AppendElement(codec, packed_value, out);
}

struct FormatState {
  const uint8_t* data;
  std::span<const int64_t> shape;
  ElementCodec codec;
  uint64_t max_elements;
  uint64_t printed = 0;
  std::string out;
};

// Formats the sub-array of dimension |dim| starting at element |base|.
void FormatDimension(FormatState& state, size_t dim, uint64_t base, uint64_t stride) {
  const uint64_t extent = static_cast<uint64_t>(state.shape[dim]);
  if (dim + 1 == state.shape.size()) {
    for (uint64_t i = 0; i < extent; ++i) {
      if (state.printed >= state.max_elements) {
        state.out += "...";
        return;
      }
      if (i) state.out.push_back(' ');
      FormatElement(state.data, base + i, state.codec, state.out);
      ++state.printed;
    }
    return;
  }
  const uint64_t inner_stride = stride / (extent ? extent : 1);
  for (uint64_t i = 0; i < extent; ++i) {
    // Sub-arrays of a view with no elements (a zero inner dimension) count against the budget
    // like elements; else `1000000000000x0xf32` would print brackets for ever.
    if (stride == 0) {
      if (state.printed >= state.max_elements) {
        state.out += "...";
        return;
      }
      ++state.printed;
    }
    state.out.push_back('[');
    FormatDimension(state, dim + 1, base + i * inner_stride, inner_stride);
    state.out.push_back(']');
  }
}

}  // namespace

void AppendElementText(ElementType type, const uint8_t* element, std::string& out) {
  AppendElement(CodecFor(type), element, out);
}

StatusOr<ShapeAndType> ParseShapeAndType(std::string_view text) {
  ShapeAndType result;
  const size_t split = text.rfind('x');
  std::string_view type_name = split == std::string_view::npos ? text : text.substr(split + 1);
  RT_ASSIGN_OR_RETURN(result.element_type, ParseElementType(type_name));
  if (split == std::string_view::npos || split == 0) return result;
  std::string_view dims = text.substr(0, split);
  while (true) {
    const size_t next = dims.find('x');
    std::string_view dim = dims.substr(0, next);
    int64_t value = 0;
    auto [end, error] = std::from_chars(dim.data(), dim.data() + dim.size(), value);
    if (dim.empty() || dim.front() == '-' || dim.front() == '+' || error != std::errc() ||
        end != dim.data() + dim.size()) {
      return base::InvalidArgumentError("invalid dimension '", dim, "' in shape '",
                                        text.substr(0, split), "'");
    }
    result.shape.push_back(value);
    if (next == std::string_view::npos) break;
    dims.remove_prefix(next + 1);
  }
  return result;
}

StatusOr<Ref<hal::BufferView>> ParseBufferView(std::string_view spec, hal::Allocator& allocator,
                                               FileStreams* streams) {
  std::string_view text = Trim(spec);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    text = Trim(text.substr(1, text.size() - 2));
  }
  const size_t equals = text.find('=');
  std::string_view head = Trim(text.substr(0, equals));
  std::string_view data =
      equals == std::string_view::npos ? std::string_view() : text.substr(equals + 1);
  StatusOr<ShapeAndType> parsed = ParseShapeAndType(head);
  if (!parsed.ok()) {
    Status status = parsed.status();
    return status.Annotate(base::StrCat("parsing '", spec, "'"));
  }
  const ShapeAndType& shape_type = parsed.value();
  if (shape_type.shape.size() > hal::kMaxBufferViewRank) {
    return base::InvalidArgumentError("rank ", shape_type.shape.size(), " exceeds the maximum of ",
                                      hal::kMaxBufferViewRank, " in '", spec, "'");
  }
  uint64_t count = 1;
  for (int64_t dim : shape_type.shape) {
    const uint64_t d = static_cast<uint64_t>(dim);
    if (d && count > std::numeric_limits<uint64_t>::max() / d) {
      return base::OutOfRangeError("element count of '", head, "' overflows");
    }
    count *= d;
  }
  std::optional<uint64_t> byte_length = hal::ElementByteCount(shape_type.element_type, count);
  if (!byte_length) return base::OutOfRangeError("byte size of '", head, "' overflows");

  hal::BufferParams params;
  params.type = hal::MemoryType::kHostLocal | hal::MemoryType::kDeviceVisible;
  params.usage = hal::BufferUsage::kDefault | hal::BufferUsage::kTransfer |
                 hal::BufferUsage::kMappingScoped | hal::BufferUsage::kMappingAccessRandom;
  params.access = hal::MemoryAccess::kAll;
  RT_ASSIGN_OR_RETURN(Ref<hal::Buffer> buffer, allocator.AllocateBuffer(params, *byte_length));
  uint8_t* mapped = nullptr;
  if (*byte_length) {
    RT_ASSIGN_OR_RETURN(mapped, buffer->Map(hal::MemoryAccess::kDiscardWrite, 0, *byte_length));
  }

  std::string_view values = Trim(data);
  Status status;
  if (!values.empty() && (values.front() == '@' || values.front() == '+')) {
    status = ReadRaw(values.substr(1), values.front() == '+', streams, mapped, *byte_length);
  } else {
    status = ParseValues(values, shape_type.element_type, count, mapped, *byte_length);
  }
  if (!status.ok()) return status.Annotate(base::StrCat("parsing '", spec, "'"));
  return hal::BufferView::Create(std::move(buffer), shape_type.shape, shape_type.element_type,
                                 hal::Encoding::kDenseRowMajor);
}

StatusOr<std::string> FormatBufferView(const hal::BufferView& view, size_t max_element_count) {
  const ElementCodec codec = CodecFor(view.element_type());
  if (codec.packed && codec.bits > 64) {
    return base::UnimplementedError("cannot print element type ",
                                    ElementTypeName(view.element_type()));
  }
  StatusOr<uint8_t*> mapped = view.buffer()->Map(hal::MemoryAccess::kRead, 0, view.byte_length());
  if (!mapped.ok()) {
    return base::FailedPreconditionError(
        "buffer view contents are not host-readable (transfer to host memory first): ",
        mapped.status().ToString());
  }
  FormatState state{mapped.value(), view.shape(), codec, max_element_count, 0, {}};
  for (int64_t dim : view.shape()) {
    state.out += std::to_string(dim);
    state.out.push_back('x');
  }
  state.out += ElementTypeName(view.element_type());
  state.out.push_back('=');
  if (view.rank() == 0) {
    if (max_element_count == 0) {
      state.out += "...";
    } else {
      FormatElement(state.data, 0, codec, state.out);
    }
  } else {
    FormatDimension(state, 0, 0, view.element_count());
  }
  return std::move(state.out);
}

}  // namespace iree_rt::hal::utils
