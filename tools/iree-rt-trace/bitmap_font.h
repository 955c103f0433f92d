// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A 5x7 bitmap font for printable ASCII (the classic LCD font), so the timeline's labels need no
// font file or library.
#ifndef IREE_RT_TOOLS_TRACE_BITMAP_FONT_H_
#define IREE_RT_TOOLS_TRACE_BITMAP_FONT_H_

#include <cstdint>

namespace iree_rt::tools::trace {

inline constexpr int kGlyphWidth = 5;
inline constexpr int kGlyphHeight = 7;
inline constexpr int kGlyphAdvance = 6;  // one column of space between glyphs

// The five columns of |c|, left to right, bit 0 the top row; characters outside ' '..'~' get '?'.
const uint8_t* Glyph(char c);

}  // namespace iree_rt::tools::trace

#endif  // IREE_RT_TOOLS_TRACE_BITMAP_FONT_H_
