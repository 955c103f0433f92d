// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "png_writer.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string_view>

#if IREE_RT_TRACE_HAVE_ZLIB
#include <zlib.h>
#endif

namespace iree_rt::tools::trace {
namespace {

uint32_t Crc32(const uint8_t* data, size_t size, uint32_t crc = 0) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (size_t i = 0; i < size; ++i) crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

void PutU32(std::vector<uint8_t>& out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(value >> shift));
}

void PutChunk(std::vector<uint8_t>& out, std::string_view type, const std::vector<uint8_t>& data) {
  PutU32(out, static_cast<uint32_t>(data.size()));
  const size_t start = out.size();
  out.insert(out.end(), type.begin(), type.end());
  out.insert(out.end(), data.begin(), data.end());
  PutU32(out, Crc32(out.data() + start, out.size() - start));
}

// A zlib stream of |raw|: compressed where zlib is available, else stored blocks (at most
// 65535 bytes each) with the Adler-32 the format ends with.
std::vector<uint8_t> Deflate(const std::vector<uint8_t>& raw) {
#if IREE_RT_TRACE_HAVE_ZLIB
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<uint8_t> out(size);
  if (compress2(out.data(), &size, raw.data(), static_cast<uLong>(raw.size()), 9) == Z_OK) {
    out.resize(size);
    return out;
  }
#endif
  std::vector<uint8_t> stored = {0x78, 0x01};
  size_t offset = 0;
  do {
    const size_t n = std::min<size_t>(raw.size() - offset, 65535);
    stored.push_back(offset + n == raw.size() ? 1 : 0);  // BFINAL on the last block, BTYPE 00
    stored.push_back(static_cast<uint8_t>(n));
    stored.push_back(static_cast<uint8_t>(n >> 8));
    stored.push_back(static_cast<uint8_t>(~n));
    stored.push_back(static_cast<uint8_t>(~n >> 8));
    stored.insert(stored.end(), raw.begin() + offset, raw.begin() + offset + n);
    offset += n;
  } while (offset < raw.size());
  uint32_t a = 1, b = 0;
  for (uint8_t byte : raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  PutU32(stored, (b << 16) | a);
  return stored;
}

}  // namespace

std::vector<uint8_t> EncodePng(const Image& image) {
  const size_t row = static_cast<size_t>(image.width()) * 3;
  std::vector<uint8_t> raw;
  raw.reserve((row + 1) * image.height());
  for (int y = 0; y < image.height(); ++y) {
    raw.push_back(0);  // filter: none
    const uint8_t* pixels = image.pixels().data() + row * y;
    raw.insert(raw.end(), pixels, pixels + row);
  }
  std::vector<uint8_t> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<uint8_t> header;
  PutU32(header, static_cast<uint32_t>(image.width()));
  PutU32(header, static_cast<uint32_t>(image.height()));
  header.insert(header.end(), {8, 2, 0, 0, 0});  // 8-bit, RGB, deflate, filter 0, no interlace
  PutChunk(out, "IHDR", header);
  PutChunk(out, "IDAT", Deflate(raw));
  PutChunk(out, "IEND", {});
  return out;
}

base::Status WritePng(const Image& image, const std::string& path) {
  const std::vector<uint8_t> bytes = EncodePng(image);
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) return base::UnavailableError("cannot write '", path, "'");
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  if (std::fclose(file) != 0 || !ok) return base::UnavailableError("cannot write '", path, "'");
  return base::Status::Ok();
}

}  // namespace iree_rt::tools::trace
