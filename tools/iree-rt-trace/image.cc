// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "image.h"

#include <algorithm>

#include "bitmap_font.h"

namespace iree_rt::tools::trace {

Image::Image(int width, int height, Color background)
    : width_(std::max(width, 1)), height_(std::max(height, 1)) {
  pixels_.resize(static_cast<size_t>(width_) * height_ * 3);
  for (size_t i = 0; i < pixels_.size(); i += 3) {
    pixels_[i] = background.r;
    pixels_[i + 1] = background.g;
    pixels_[i + 2] = background.b;
  }
}

void Image::Set(int x, int y, Color color) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  uint8_t* p = &pixels_[(static_cast<size_t>(y) * width_ + x) * 3];
  p[0] = color.r;
  p[1] = color.g;
  p[2] = color.b;
}

void Image::FillRect(int x, int y, int w, int h, Color color) {
  const int x0 = std::max(x, 0), y0 = std::max(y, 0);
  const int x1 = std::min(x + w, width_), y1 = std::min(y + h, height_);
  for (int row = y0; row < y1; ++row) {
    for (int col = x0; col < x1; ++col) Set(col, row, color);
  }
}

void Image::DrawText(int x, int y, std::string_view text, Color color, int max_width) {
  for (size_t i = 0; i < text.size(); ++i) {
    const int left = x + static_cast<int>(i) * kGlyphAdvance;
    if (left + kGlyphWidth > x + max_width || left >= width_) return;
    const uint8_t* columns = Glyph(text[i]);
    for (int col = 0; col < kGlyphWidth; ++col) {
      for (int row = 0; row < kGlyphHeight; ++row) {
        if (columns[col] & (1u << row)) Set(left + col, y + row, color);
      }
    }
  }
}

int Image::TextWidth(std::string_view text) {
  return text.empty() ? 0 : static_cast<int>(text.size()) * kGlyphAdvance - 1;
}

}  // namespace iree_rt::tools::trace
