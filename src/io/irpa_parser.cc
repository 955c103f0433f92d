// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "io/irpa_parser.h"

#include <string>

#include "io/byte_reader.h"

namespace iree_rt::io {
namespace {

// Layout facts of .irpa v0 (little-endian, packed).
constexpr uint32_t kMagic = 0x41505249;  // "IRPA"
constexpr uint64_t kPrefixSize = 32;
constexpr uint64_t kHeaderSize = 88;
constexpr uint64_t kEntryHeaderSize = 60;
constexpr uint64_t kSplatEntrySize = kEntryHeaderSize + 8 + 16 + 1;
constexpr uint64_t kDataEntrySize = kEntryHeaderSize + 16;
constexpr uint64_t kEntryAlignment = 16;

enum EntryType : uint32_t { kSkip = 0, kSplat = 1, kData = 2, kExternal = 3 };

struct Range {
  uint64_t offset = 0;
  uint64_t length = 0;
};

bool ReadRange(ByteReader& reader, Range& out) {
  return reader.ReadU64(out.offset) && reader.ReadU64(out.length);
}

// One header of the chain, with its segments made absolute and checked against the file.
struct Header {
  uint64_t base = 0;
  uint64_t next_header_offset = 0;
  uint64_t entry_count = 0;
  Range entries;   // absolute, inside the file
  Range metadata;  // absolute, inside the file
  Range storage;   // absolute offset; may reach past a truncated file's end (checked per entry)
};

class IrpaParser {
 public:
  IrpaParser(std::span<const uint8_t> bytes, std::string_view file_name)
      : bytes_(bytes), file_name_(file_name) {}

  base::StatusOr<std::vector<ParameterEntry>> Parse() {
    uint64_t base = 0;
    while (true) {
      Header header;
      RT_RETURN_IF_ERROR(ReadHeader(base, header));
      RT_RETURN_IF_ERROR(ReadEntries(header));
      if (header.next_header_offset == 0) break;
      // The next header must start past this one: the chain moves strictly forward through a
      // finite file, so it cannot cycle and has at most size / 88 links.
      if (header.next_header_offset < kHeaderSize ||
          !CheckedAdd(base, header.next_header_offset, base) || base >= bytes_.size()) {
        return base::OutOfRangeError(file_name_, ": header at offset ", header.base,
                                     " links to a next header at +", header.next_header_offset,
                                     ", which is not past it inside the file (size ",
                                     bytes_.size(), ")");
      }
    }
    RT_RETURN_IF_ERROR(ValidateEntries(entries_, file_name_));
    return std::move(entries_);
  }

 private:
  base::Status Truncated(uint64_t at, std::string_view what) const {
    return base::OutOfRangeError(file_name_, ": truncated: ", what, " at offset ", at,
                                 " needs more bytes than the file has (size ", bytes_.size(), ")");
  }

  // |segment| is relative to |base|; |name| labels messages.
  base::Status ResolveSegment(uint64_t base, Range segment, std::string_view name, bool must_fit,
                              Range& out) const {
    if (!CheckedAdd(base, segment.offset, out.offset) ||
        (must_fit && !RangeInside(out.offset, segment.length, bytes_.size()))) {
      return base::OutOfRangeError(file_name_, ": the ", name, " segment (+", segment.offset,
                                   ", ", segment.length, " bytes) of the header at offset ", base,
                                   " reaches past the end of the file (size ", bytes_.size(), ")");
    }
    out.length = segment.length;
    return base::Status::Ok();
  }

  base::Status ReadHeader(uint64_t base, Header& header) {
    header.base = base;
    ByteReader reader(bytes_, base);
    uint32_t magic = 0;
    uint16_t major = 0, minor = 0;
    uint64_t header_size = 0, flags = 0;
    if (base + kPrefixSize > bytes_.size()) return Truncated(base, "header prefix");
    (void)(reader.ReadU32(magic) && reader.ReadU16(major) && reader.ReadU16(minor) &&
           reader.ReadU64(header_size) && reader.ReadU64(header.next_header_offset) &&
           reader.ReadU64(flags));
    if (magic != kMagic) {
      return base::InvalidArgumentError(file_name_, ": no IRPA magic at offset ", base,
                                        " (not a parameter archive)");
    }
    if (major != 0 || minor != 0) {
      return base::IncompatibleError(file_name_, ": IRPA version ", major, ".", minor,
                                     " (this runtime reads 0.0)");
    }
    if (header_size != kHeaderSize) {
      return base::InvalidArgumentError(file_name_, ": IRPA 0.0 header size is ", header_size,
                                        ", expected ", kHeaderSize);
    }
    Range entries, metadata, storage;
    if (!(reader.ReadU64(header.entry_count) && ReadRange(reader, entries) &&
          ReadRange(reader, metadata) && ReadRange(reader, storage))) {
      return Truncated(base, "header");
    }
    RT_RETURN_IF_ERROR(ResolveSegment(base, entries, "entry", true, header.entries));
    RT_RETURN_IF_ERROR(ResolveSegment(base, metadata, "metadata", true, header.metadata));
    RT_RETURN_IF_ERROR(ResolveSegment(base, storage, "storage", false, header.storage));
    // Every entry takes at least an entry header of the table: this bounds the count (and any
    // allocation sized by it) by the bytes the file really has.
    if (header.entry_count > header.entries.length / kEntryHeaderSize) {
      return base::OutOfRangeError(file_name_, ": header at offset ", base, " declares ",
                                   header.entry_count, " entries, but its entry table has only ",
                                   header.entries.length, " bytes");
    }
    return base::Status::Ok();
  }

  // The metadata segment bytes at |ref| (relative to the segment) for entry |key|.
  base::Status ResolveMetadata(const Header& header, Range ref, std::string_view key,
                               std::string_view what, std::span<const uint8_t>& out) const {
    if (!RangeInside(ref.offset, ref.length, header.metadata.length)) {
      return base::OutOfRangeError(file_name_, ": parameter '", key, "': its ", what, " (+",
                                   ref.offset, ", ", ref.length,
                                   " bytes) is past the end of the metadata segment (",
                                   header.metadata.length, " bytes)");
    }
    out = bytes_.subspan(static_cast<size_t>(header.metadata.offset + ref.offset),
                         static_cast<size_t>(ref.length));
    return base::Status::Ok();
  }

  base::Status ReadEntries(const Header& header) {
    entries_.reserve(entries_.size() + static_cast<size_t>(header.entry_count));
    const auto table = bytes_.subspan(static_cast<size_t>(header.entries.offset),
                                      static_cast<size_t>(header.entries.length));
    uint64_t position = 0;
    for (uint64_t i = 0; i < header.entry_count; ++i) {
      const uint64_t at = header.entries.offset + position;
      ByteReader reader(table, static_cast<size_t>(position));
      uint64_t entry_size = 0, flags = 0, minimum_alignment = 0;
      uint32_t type = 0;
      Range name_ref, metadata_ref;
      if (!(reader.ReadU64(entry_size) && reader.ReadU32(type) && reader.ReadU64(flags) &&
            ReadRange(reader, name_ref) && ReadRange(reader, metadata_ref) &&
            reader.ReadU64(minimum_alignment))) {
        return Truncated(at, "entry header " + std::to_string(i));
      }
      if (entry_size < kEntryHeaderSize || entry_size > table.size() - position) {
        return base::OutOfRangeError(file_name_, ": entry ", i, " at offset ", at, " has size ",
                                     entry_size, ", outside [", kEntryHeaderSize, ", ",
                                     table.size() - position, "] (the rest of its table)");
      }
      std::span<const uint8_t> name_bytes, metadata;
      RT_RETURN_IF_ERROR(ResolveMetadata(header, name_ref, "entry " + std::to_string(i), "name",
                                         name_bytes));
      std::string key(reinterpret_cast<const char*>(name_bytes.data()), name_bytes.size());
      RT_RETURN_IF_ERROR(ResolveMetadata(header, metadata_ref, key, "metadata", metadata));
      // Names and metadata are copied out. Entries may point at the same bytes, so without a
      // budget a small file could make us copy its size squared; the tools never share them,
      // which bounds their sum by the file size.
      copied_ += name_bytes.size() + metadata.size();
      if (copied_ > bytes_.size()) {
        return base::InvalidArgumentError(file_name_, ": parameter '", key,
                                          "': names and metadata of the entries so far add up to "
                                          "more bytes than the file has (shared ranges)");
      }
      // Entries are padded to 16 bytes; the last one's padding may be cut off.
      const uint64_t padded =
          (entry_size + kEntryAlignment - 1) / kEntryAlignment * kEntryAlignment;
      position = padded < table.size() - position ? position + padded : table.size();

      ParameterEntry entry;
      entry.key = std::move(key);
      entry.metadata.assign(metadata.begin(), metadata.end());
      switch (type) {
        case kSkip:
          continue;
        case kSplat:
          RT_RETURN_IF_ERROR(ReadSplat(reader, entry_size, entry));
          break;
        case kData:
          RT_RETURN_IF_ERROR(ReadData(header, reader, entry_size, minimum_alignment, entry));
          break;
        case kExternal:
          return base::UnimplementedError(file_name_, ": parameter '", entry.key,
                                          "' is stored in an external file, which this runtime "
                                          "does not read");
        default:
          return base::UnimplementedError(file_name_, ": parameter '", entry.key,
                                          "' has unknown entry type ", type);
      }
      entries_.push_back(std::move(entry));
    }
    return base::Status::Ok();
  }

  base::Status ReadSplat(ByteReader& reader, uint64_t entry_size, ParameterEntry& entry) const {
    std::span<const uint8_t> pattern;
    if (entry_size < kSplatEntrySize || !reader.ReadU64(entry.length) ||
        !reader.ReadBytes(16, pattern) || !reader.ReadU8(entry.pattern_length)) {
      return base::OutOfRangeError(file_name_, ": parameter '", entry.key, "': splat entry of ",
                                   entry_size, " bytes is shorter than ", kSplatEntrySize);
    }
    RT_RETURN_IF_ERROR(CheckSplat(entry.key, entry.pattern_length, entry.length, file_name_));
    entry.kind = ParameterKind::kSplat;
    std::copy(pattern.begin(), pattern.begin() + entry.pattern_length, entry.pattern.begin());
    return base::Status::Ok();
  }

  base::Status ReadData(const Header& header, ByteReader& reader, uint64_t entry_size,
                        uint64_t minimum_alignment, ParameterEntry& entry) const {
    Range stored;
    if (entry_size < kDataEntrySize || !ReadRange(reader, stored)) {
      return base::OutOfRangeError(file_name_, ": parameter '", entry.key, "': data entry of ",
                                   entry_size, " bytes is shorter than ", kDataEntrySize);
    }
    uint64_t offset = 0, end = 0;
    if (!RangeInside(stored.offset, stored.length, header.storage.length) ||
        !CheckedAdd(header.storage.offset, stored.offset, offset) ||
        !CheckedAdd(offset, stored.length, end)) {
      return base::OutOfRangeError(file_name_, ": parameter '", entry.key, "': stored bytes (+",
                                   stored.offset, ", ", stored.length,
                                   " bytes) overflow the storage segment (",
                                   header.storage.length, " bytes)");
    }
    if (end > bytes_.size()) {
      return base::OutOfRangeError(file_name_, ": parameter '", entry.key, "': stored bytes [",
                                   offset, ", ", end, ") are past the end of the file (size ",
                                   bytes_.size(), "; truncated?)");
    }
    if (minimum_alignment & (minimum_alignment - 1)) {
      return base::InvalidArgumentError(file_name_, ": parameter '", entry.key,
                                        "': minimum alignment ", minimum_alignment,
                                        " is not a power of two");
    }
    // The archive promises this alignment; loaders map the bytes in place relying on it.
    if (minimum_alignment != 0 && offset % minimum_alignment != 0) {
      return base::InvalidArgumentError(file_name_, ": parameter '", entry.key, "': offset ",
                                        offset, " is misaligned for its minimum alignment ",
                                        minimum_alignment);
    }
    entry.kind = ParameterKind::kData;
    entry.offset = offset;
    entry.stored_length = stored.length;
    entry.length = stored.length;  // v0 stores no separate virtual length
    entry.alignment = minimum_alignment ? minimum_alignment : 1;
    return base::Status::Ok();
  }

  std::span<const uint8_t> bytes_;
  std::string_view file_name_;
  std::vector<ParameterEntry> entries_;
  uint64_t copied_ = 0;  // name and metadata bytes copied into entries_
};

}  // namespace

base::StatusOr<std::vector<ParameterEntry>> ParseIrpa(std::span<const uint8_t> bytes,
                                                      std::string_view file_name) {
  return IrpaParser(bytes, file_name).Parse();
}

}  // namespace iree_rt::io
