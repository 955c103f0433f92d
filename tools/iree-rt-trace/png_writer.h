// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// EncodePng: an Image as a PNG file (8-bit RGB, no interlace, filter 0 on every row). The
// pixel data is compressed with zlib where the build found it, and otherwise written as stored
// (uncompressed) deflate blocks, which every PNG reader takes as well.
#ifndef IREE_RT_TOOLS_TRACE_PNG_WRITER_H_
#define IREE_RT_TOOLS_TRACE_PNG_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "image.h"

namespace iree_rt::tools::trace {

std::vector<uint8_t> EncodePng(const Image& image);

// EncodePng written to |path|; UNAVAILABLE naming the path when it cannot be written.
base::Status WritePng(const Image& image, const std::string& path);

}  // namespace iree_rt::tools::trace

#endif  // IREE_RT_TOOLS_TRACE_PNG_WRITER_H_
