// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Image: an 8-bit RGB canvas with the few drawing operations the timeline needs (filled boxes,
// lines, 5x7 text), every one clipped to the canvas.
#ifndef IREE_RT_TOOLS_TRACE_IMAGE_H_
#define IREE_RT_TOOLS_TRACE_IMAGE_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace iree_rt::tools::trace {

struct Color {
  uint8_t r = 0, g = 0, b = 0;
};

class Image {
 public:
  Image(int width, int height, Color background);

  int width() const { return width_; }
  int height() const { return height_; }
  // Rows top to bottom, each width * 3 bytes (r, g, b).
  const std::vector<uint8_t>& pixels() const { return pixels_; }

  void FillRect(int x, int y, int w, int h, Color color);
  // Text with its top-left corner at (x, y), cut at |max_width| pixels (whole glyphs).
  void DrawText(int x, int y, std::string_view text, Color color, int max_width = 1 << 20);
  static int TextWidth(std::string_view text);

 private:
  void Set(int x, int y, Color color);

  int width_, height_;
  std::vector<uint8_t> pixels_;
};

}  // namespace iree_rt::tools::trace

#endif  // IREE_RT_TOOLS_TRACE_IMAGE_H_
