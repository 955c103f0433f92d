// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "tooling/npy.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "hal/utils/buffer_view_text.h"
#include "hal/utils/file_streams.h"

namespace iree_rt::tooling {

using base::Ref;
using base::Status;
using base::StatusOr;
using hal::ElementType;
using hal::ElementTypeName;
using hal::utils::FileStreams;
namespace NT = hal::NumericalType;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLength = 6;
// numpy itself refuses headers over 10000 bytes by default; a cap keeps a corrupt length from
// turning into a huge allocation.
constexpr uint32_t kMaxHeaderLength = 1u << 20;

struct NpyHeader {
  ElementType element_type = hal::ElementTypes::kNone;
  uint32_t item_size = 0;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

Status Malformed(std::string_view what) {
  return base::InvalidArgumentError("malformed .npy header: ", what);
}

// A parser for the one Python literal a header holds: a dict of 'descr' (str), 'fortran_order'
// (bool) and 'shape' (tuple of ints).
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  Status Parse(NpyHeader& header) {
    bool seen_descr = false, seen_order = false, seen_shape = false;
    SkipSpace();
    if (!Consume('{')) return Malformed("expected '{'");
    while (true) {
      SkipSpace();
      if (Consume('}')) break;
      RT_ASSIGN_OR_RETURN(std::string key, ParseString());
      SkipSpace();
      if (!Consume(':')) return Malformed("expected ':' after a key");
      SkipSpace();
      if (key == "descr" && !seen_descr) {
        seen_descr = true;
        if (Peek() == '[')
          return base::UnimplementedError(".npy structured dtypes are not supported");
        RT_ASSIGN_OR_RETURN(std::string descr, ParseString());
        RT_RETURN_IF_ERROR(ParseDescr(descr, header));
      } else if (key == "fortran_order" && !seen_order) {
        seen_order = true;
        RT_ASSIGN_OR_RETURN(header.fortran_order, ParseBool());
      } else if (key == "shape" && !seen_shape) {
        seen_shape = true;
        RT_RETURN_IF_ERROR(ParseShape(header.shape));
      } else {
        return Malformed(base::StrCat("unexpected or repeated key '", key, "'"));
      }
      SkipSpace();
      if (Consume(',')) continue;
      if (Consume('}')) break;
      return Malformed("expected ',' or '}'");
    }
    SkipSpace();
    if (pos_ != text_.size()) return Malformed("trailing characters after the dict");
    if (!seen_descr || !seen_order || !seen_shape) {
      return Malformed("'descr', 'fortran_order' and 'shape' are all required");
    }
    return Status::Ok();
  }

 private:
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool Consume(char c) {
    if (Peek() != c || pos_ >= text_.size()) return false;
    ++pos_;
    return true;
  }
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  StatusOr<std::string> ParseString() {
    const char quote = Peek();
    if (quote != '\'' && quote != '"') return Malformed("expected a quoted string");
    ++pos_;
    const size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return Malformed("unterminated string");
    std::string_view value = text_.substr(pos_, end - pos_);
    if (value.find('\\') != std::string_view::npos) return Malformed("escapes in strings");
    pos_ = end + 1;
    return std::string(value);
  }

  StatusOr<bool> ParseBool() {
    if (text_.substr(pos_).starts_with("True")) {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_).starts_with("False")) {
      pos_ += 5;
      return false;
    }
    return Malformed("'fortran_order' must be True or False");
  }

  Status ParseShape(std::vector<int64_t>& shape) {
    if (!Consume('(')) return Malformed("'shape' must be a tuple");
    while (true) {
      SkipSpace();
      if (Consume(')')) return Status::Ok();
      const char* begin = text_.data() + pos_;
      int64_t dim = 0;
      auto [end, error] = std::from_chars(begin, text_.data() + text_.size(), dim);
      if (error != std::errc() || end == begin || dim < 0) {
        return Malformed("'shape' must hold non-negative integers");
      }
      pos_ += static_cast<size_t>(end - begin);
      if (shape.size() == hal::kMaxBufferViewRank) {
        return base::UnimplementedError(".npy array rank exceeds the maximum of ",
                                        hal::kMaxBufferViewRank);
      }
      shape.push_back(dim);
      SkipSpace();
      if (Consume(')')) return Status::Ok();
      if (!Consume(',')) return Malformed("expected ',' or ')' in 'shape'");
    }
  }

  static Status ParseDescr(std::string_view descr, NpyHeader& header) {
    char order = '=';
    if (!descr.empty() && std::string_view("<>|=!").find(descr.front()) != std::string_view::npos) {
      order = descr.front();
      descr.remove_prefix(1);
    }
    if (descr.empty()) return Malformed("empty dtype");
    const char kind = descr.front();
    uint32_t size = 0;
    std::string_view digits = descr.substr(1);
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), size);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
        size == 0) {
      return base::UnimplementedError("unsupported .npy dtype '", descr, "'");
    }
    if ((order == '>' || order == '!') && size > 1) {
      return base::UnimplementedError("big-endian .npy dtype '", order, descr,
                                      "' is not supported");
    }
    uint32_t numerical = 0;
    bool valid = false;
    switch (kind) {
      case 'b':
        numerical = NT::kBoolean;
        valid = size == 1;
        break;
      case 'i':
        numerical = NT::kIntegerSigned;
        valid = size == 1 || size == 2 || size == 4 || size == 8;
        break;
      case 'u':
        numerical = NT::kIntegerUnsigned;
        valid = size == 1 || size == 2 || size == 4 || size == 8;
        break;
      case 'f':
        numerical = NT::kFloatIeee;
        valid = size == 2 || size == 4 || size == 8;
        break;
      case 'c':
        numerical = NT::kFloatComplex;
        valid = size == 8 || size == 16;
        break;
      case 'V':
        numerical = NT::kUnknown;
        valid = size < 32;
        break;
      default:
        break;
    }
    if (!valid) return base::UnimplementedError("unsupported .npy dtype '", descr, "'");
    header.element_type = hal::MakeElementType(numerical, size * 8);
    header.item_size = size;
    return Status::Ok();
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// Bytes left in |stream| after its position, or nullopt if it cannot seek (a pipe).
std::optional<uint64_t> RemainingBytes(std::istream& stream) {
  const std::istream::pos_type here = stream.tellg();
  if (here == std::istream::pos_type(-1)) return std::nullopt;
  stream.seekg(0, std::ios::end);
  const std::istream::pos_type end = stream.tellg();
  stream.seekg(here);
  if (end == std::istream::pos_type(-1) || !stream) {
    stream.clear();
    stream.seekg(here);
    return std::nullopt;
  }
  return static_cast<uint64_t>(end - here);
}

bool ReadExactly(std::istream& stream, void* data, uint64_t length) {
  if (length == 0) return true;
  stream.read(static_cast<char*>(data), static_cast<std::streamsize>(length));
  return static_cast<uint64_t>(stream.gcount()) == length;
}

Status WriteBytes(std::ostream& stream, const void* data, size_t length) {
  if (length) stream.write(static_cast<const char*>(data), static_cast<std::streamsize>(length));
  if (!stream) return base::UnavailableError("writing .npy data failed");
  return Status::Ok();
}

}  // namespace

bool NpyAtEnd(std::istream& stream) { return stream.peek() == std::istream::traits_type::eof(); }

StatusOr<Ref<hal::BufferView>> ReadNpy(std::istream& stream, hal::Allocator& allocator) {
  if (NpyAtEnd(stream)) return base::OutOfRangeError("end of .npy file: no array left to read");
  uint8_t preamble[kMagicLength + 2];
  if (!ReadExactly(stream, preamble, sizeof(preamble))) return Malformed("truncated preamble");
  if (std::memcmp(preamble, kMagic, kMagicLength) != 0) return Malformed("bad magic string");
  const uint8_t major = preamble[kMagicLength];
  uint32_t header_length = 0;
  if (major == 1) {
    uint8_t length[2];
    if (!ReadExactly(stream, length, 2)) return Malformed("truncated header length");
    header_length = length[0] | length[1] << 8;
  } else if (major == 2 || major == 3) {
    uint8_t length[4];
    if (!ReadExactly(stream, length, 4)) return Malformed("truncated header length");
    header_length =
        length[0] | length[1] << 8 | length[2] << 16 | static_cast<uint32_t>(length[3]) << 24;
  } else {
    return base::UnimplementedError(".npy format version ", static_cast<int>(major), ".",
                                    static_cast<int>(preamble[kMagicLength + 1]),
                                    " is not supported");
  }
  if (header_length > kMaxHeaderLength) return Malformed("header longer than 1 MiB");
  std::string text(header_length, '\0');
  if (!ReadExactly(stream, text.data(), header_length)) return Malformed("truncated header");
  // Version 3 headers are UTF-8, 1 and 2 Latin-1; the keys and values we accept are ASCII either
  // way.
  NpyHeader header;
  RT_RETURN_IF_ERROR(HeaderParser(text).Parse(header));
  if (header.fortran_order && header.shape.size() > 1) {
    return base::UnimplementedError(".npy arrays in Fortran order are not supported");
  }

  uint64_t count = 1;
  for (int64_t dim : header.shape) {
    const uint64_t d = static_cast<uint64_t>(dim);
    if (d && count > std::numeric_limits<uint64_t>::max() / d)
      return Malformed("element count overflows");
    count *= d;
  }
  if (count > std::numeric_limits<uint64_t>::max() / header.item_size) {
    return Malformed("byte size overflows");
  }
  const uint64_t byte_length = count * header.item_size;
  // Check before allocating so a corrupt shape cannot ask for terabytes.
  std::optional<uint64_t> remaining = RemainingBytes(stream);
  if (remaining && *remaining < byte_length) {
    return base::InvalidArgumentError("truncated .npy data: the array needs ", byte_length,
                                      " bytes but ", *remaining, " remain");
  }

  hal::BufferParams params;
  params.type = hal::MemoryType::kHostLocal | hal::MemoryType::kDeviceVisible;
  params.usage = hal::BufferUsage::kDefault | hal::BufferUsage::kTransfer |
                 hal::BufferUsage::kMappingScoped | hal::BufferUsage::kMappingAccessRandom;
  RT_ASSIGN_OR_RETURN(Ref<hal::Buffer> buffer, allocator.AllocateBuffer(params, byte_length));
  if (byte_length) {
    RT_ASSIGN_OR_RETURN(uint8_t * mapped,
                        buffer->Map(hal::MemoryAccess::kDiscardWrite, 0, byte_length));
    if (!ReadExactly(stream, mapped, byte_length)) {
      return base::InvalidArgumentError("truncated .npy data: the array needs ", byte_length,
                                        " bytes");
    }
  }
  return hal::BufferView::Create(std::move(buffer), header.shape, header.element_type,
                                 hal::Encoding::kDenseRowMajor);
}

StatusOr<std::vector<Ref<hal::BufferView>>> ReadNpyInput(std::string_view spec,
                                                         hal::Allocator& allocator,
                                                         FileStreams& streams) {
  if (spec.empty() || std::string_view("@+*").find(spec.front()) == std::string_view::npos) {
    return base::InvalidArgumentError("'", spec,
                                      "' is not a .npy input (expected @, + or * and a path)");
  }
  const char mode = spec.front();
  const std::string_view path = spec.substr(1);
  RT_ASSIGN_OR_RETURN(std::istream * stream, streams.Open(path, mode != '@'));
  std::vector<Ref<hal::BufferView>> views;
  do {
    StatusOr<Ref<hal::BufferView>> view = ReadNpy(*stream, allocator);
    if (!view.ok()) {
      Status status = view.status();
      return status.Annotate(base::StrCat("reading array ", views.size(), " of '", spec, "'"));
    }
    views.push_back(std::move(view).value());
  } while (mode == '*' && !NpyAtEnd(*stream));
  return views;
}

StatusOr<std::string> NpyDescr(ElementType type) {
  const uint32_t bits = hal::ElementBitCount(type);
  const uint32_t bytes = bits / 8;
  const bool standard = bits == 8 || bits == 16 || bits == 32 || bits == 64;
  char kind = 0;
  switch (hal::ElementNumericalType(type)) {
    case NT::kBoolean:
      kind = bits == 8 ? 'b' : 0;
      break;
    case NT::kInteger:
    case NT::kIntegerSigned:
      kind = standard ? 'i' : 0;
      break;
    case NT::kIntegerUnsigned:
      kind = standard ? 'u' : 0;
      break;
    case NT::kFloatIeee:
      kind = bits == 16 || bits == 32 || bits == 64 ? 'f' : 0;
      break;
    case NT::kFloatComplex:
      kind = bits == 64 || bits == 128 ? 'c' : 0;
      break;
    case NT::kUnknown:
      kind = bits % 8 == 0 ? 'V' : 0;
      break;
    default:
      break;
  }
  if (!kind) {
    return base::UnimplementedError("element type ", ElementTypeName(type), " has no .npy dtype");
  }
  return base::StrCat(bytes == 1 ? '|' : '<', kind, bytes);
}

Status WriteNpyArray(ElementType type, std::span<const int64_t> shape,
                     std::span<const uint8_t> data, std::ostream& stream) {
  RT_ASSIGN_OR_RETURN(std::string descr, NpyDescr(type));
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) return base::InvalidArgumentError("negative dimension ", dim);
    const uint64_t d = static_cast<uint64_t>(dim);
    if (d && count > std::numeric_limits<uint64_t>::max() / d) {
      return base::InvalidArgumentError("element count overflows");
    }
    count *= d;
  }
  const uint64_t item_size = hal::ElementBitCount(type) / 8;
  if (count > std::numeric_limits<uint64_t>::max() / item_size ||
      count * item_size != data.size()) {
    return base::InvalidArgumentError("array data is ", data.size(), " bytes but its shape needs ",
                                      count, " elements of ", item_size, " bytes");
  }
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) dict += ", ";
    dict += std::to_string(shape[i]);
  }
  if (shape.size() == 1) dict += ",";
  dict += "), }";
  // The data starts 64-byte aligned: preamble + dict + space padding + '\n'.
  size_t preamble = kMagicLength + 2 + 2;
  uint8_t version = 1;
  if (dict.size() + 64 > 0xFFFF) {  // the padded dict must fit a 16-bit length
    version = 2;
    preamble = kMagicLength + 2 + 4;
  }
  dict.append((64 - (preamble + dict.size() + 1) % 64) % 64, ' ');
  dict.push_back('\n');
  std::string head(kMagic, kMagicLength);
  head.push_back(static_cast<char>(version));
  head.push_back('\0');
  const uint32_t length = static_cast<uint32_t>(dict.size());
  head.push_back(static_cast<char>(length & 0xFF));
  head.push_back(static_cast<char>(length >> 8 & 0xFF));
  if (version == 2) {
    head.push_back(static_cast<char>(length >> 16 & 0xFF));
    head.push_back(static_cast<char>(length >> 24 & 0xFF));
  }
  head += dict;
  RT_RETURN_IF_ERROR(WriteBytes(stream, head.data(), head.size()));
  return WriteBytes(stream, data.data(), data.size());
}

Status WriteNpy(const hal::BufferView& view, std::ostream& stream) {
  // Check the dtype first: an unsupported type is the caller's problem, not the buffer's.
  RT_RETURN_IF_ERROR(NpyDescr(view.element_type()).status());
  StatusOr<uint8_t*> mapped = view.buffer()->Map(hal::MemoryAccess::kRead, 0, view.byte_length());
  if (!mapped.ok()) {
    return base::FailedPreconditionError(
        "buffer view contents are not host-readable (transfer to host memory first): ",
        mapped.status().ToString());
  }
  return WriteNpyArray(view.element_type(), view.shape(),
                       std::span<const uint8_t>(mapped.value(), view.byte_length()), stream);
}

Status WriteNpyBytes(std::span<const uint8_t> bytes, std::ostream& stream) {
  const int64_t shape[1] = {static_cast<int64_t>(bytes.size())};
  return WriteNpyArray(hal::ElementTypes::kInt8, shape, bytes, stream);
}

}  // namespace iree_rt::tooling
