// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "timeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bitmap_font.h"

namespace iree_rt::tools::trace {
namespace {

constexpr Color kBackground{255, 255, 255};
constexpr Color kText{32, 32, 32};
constexpr Color kGrid{228, 228, 228};
constexpr Color kLaneLine{190, 190, 190};
constexpr int kRow = 12;       // one nesting level: an 11-pixel box and a gap
constexpr int kMargin = 8;
constexpr size_t kMaxLanes = 64;

std::string HiddenNote(size_t hidden) {
  return "; " + std::to_string(hidden) + " more tracks not drawn";
}

// A stable colour per name: FNV-1a of the text picks a hue; saturation and value stay light
// enough for dark text on top.
Color NameColor(std::string_view name) {
  uint32_t hash = 2166136261u;
  for (char c : name) hash = (hash ^ static_cast<uint8_t>(c)) * 16777619u;
  const double h = (hash % 360) / 60.0, s = 0.45 + (hash >> 9) % 20 / 100.0, v = 0.92;
  const double c = v * s, x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1)), m = v - c;
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(h)) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
  }
  auto byte = [&](double value) { return static_cast<uint8_t>(std::lround((value + m) * 255)); };
  return {byte(r), byte(g), byte(b)};
}

Color Darker(Color c) {
  return {static_cast<uint8_t>(c.r * 3 / 4), static_cast<uint8_t>(c.g * 3 / 4),
          static_cast<uint8_t>(c.b * 3 / 4)};
}

// A tick step of 1, 2 or 5 times a power of ten giving about |ticks| ticks over |span_ns|.
double TickStep(double span_ns, int ticks) {
  const double raw = std::max(span_ns / ticks, 1.0);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  const double m = raw / power;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * power;
}

std::string TimeLabel(double ns, double step_ns) {
  const char* unit = "s";
  double scale = 1e9;
  if (step_ns < 1e3) unit = "ns", scale = 1;
  else if (step_ns < 1e6) unit = "us", scale = 1e3;
  else if (step_ns < 1e9) unit = "ms", scale = 1e6;
  char text[32];
  std::snprintf(text, sizeof(text), "%g %s", ns / scale, unit);
  return text;
}

std::string TrackName(const TraceTrack& track) {
  return track.process == "host" || track.process == "devices" ? track.name : track.Label();
}

}  // namespace

Image RenderTimeline(const TraceFile& trace, std::string_view title,
                     const TimelineOptions& options) {
  // Lanes: host tracks first, then device tracks, each as deep as its spans nest (capped).
  std::vector<size_t> order(trace.tracks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return !trace.tracks[a].device() && trace.tracks[b].device();
  });
  // Bounded, so a trace of thousands of tracks cannot ask for gigabytes of pixels.
  const size_t hidden = order.size() > kMaxLanes ? order.size() - kMaxLanes : 0;
  order.resize(order.size() - hidden);
  const int max_depth = std::clamp(options.max_depth, 1, 16);
  std::vector<int> levels(trace.tracks.size(), 1);
  for (const TraceSpan& span : trace.spans) {
    levels[span.track] = std::max(levels[span.track],
                                  std::min(static_cast<int>(span.depth) + 1, max_depth));
  }
  int label_width = 0;
  for (const TraceTrack& track : trace.tracks) {
    label_width = std::max(label_width, Image::TextWidth(TrackName(track)));
  }
  const int width = std::clamp(options.width, 400, 16384);
  const int plot_x = std::min(label_width, width / 4) + 2 * kMargin;
  const int plot_w = width - plot_x - kMargin;
  const int axis_y = 26, lanes_y = axis_y + 16;
  std::vector<int> lane_y(trace.tracks.size(), -1);  // -1: not drawn
  int y = lanes_y;
  for (size_t t : order) {
    lane_y[t] = y;
    y += levels[t] * kRow + 6;
  }
  const int lanes_end = y;

  // The legend: the dispatched exports with the most time (every name when none was dispatched).
  std::vector<int64_t> totals(trace.names.size(), 0);
  const int64_t dispatch = trace.FindName("dispatch");
  bool dispatches = false;
  for (const TraceSpan& span : trace.spans) {
    dispatches |= static_cast<int64_t>(span.category) == dispatch;
  }
  for (const TraceSpan& span : trace.spans) {
    if (!dispatches || static_cast<int64_t>(span.category) == dispatch) {
      totals[span.name] += span.dur_ns;
    }
  }
  std::vector<uint32_t> legend;
  for (uint32_t i = 0; i < totals.size(); ++i) {
    if (totals[i] > 0) legend.push_back(i);
  }
  std::sort(legend.begin(), legend.end(), [&](uint32_t a, uint32_t b) {
    return totals[a] != totals[b] ? totals[a] > totals[b] : a < b;
  });
  if (legend.size() > 10) legend.resize(10);
  const int legend_y = lanes_end + 10;
  Image image(width, legend_y + 14 + static_cast<int>(legend.size()) * kRow + kMargin, kBackground);

  const int64_t begin = trace.begin_ns + std::max<int64_t>(options.from_ns, 0);
  const int64_t end = options.to_ns > 0 ? trace.begin_ns + options.to_ns : trace.end_ns;
  const double span_ns = std::max<double>(static_cast<double>(end - begin), 1.0);
  const auto x_of = [&](int64_t ns) {  // clamped to the plot, for spans across the window's edges
    const double x = std::floor(static_cast<double>(ns - begin) * plot_w / span_ns);
    return plot_x + static_cast<int>(std::clamp(x, -1.0, static_cast<double>(plot_w + 1)));
  };

  // Title, axis and grid.
  char heading[160];
  std::snprintf(heading, sizeof(heading), "  %zu spans on %zu tracks; %.3f ms from %.3f ms%s",
                trace.spans.size(), trace.tracks.size(), span_ns / 1e6,
                static_cast<double>(begin - trace.begin_ns) / 1e6,
                hidden ? HiddenNote(hidden).c_str() : "");
  image.DrawText(kMargin, 8, std::string(title) + heading, kText, width - 2 * kMargin);
  // Ticks at whole multiples of the step, counted from the trace's first span.
  const double step = TickStep(span_ns, std::max(plot_w / 140, 2));
  const double offset = static_cast<double>(begin - trace.begin_ns);
  const double last = offset + span_ns + 0.5;
  for (double tick = std::ceil(offset / step) * step; tick <= last; tick += step) {
    const double t = tick - offset;
    const int x = plot_x + static_cast<int>(std::floor(t * plot_w / span_ns));
    image.FillRect(x, axis_y + 10, 1, lanes_end - axis_y - 10, kGrid);
    image.FillRect(x, axis_y + 8, 1, 4, kText);
    const std::string label = TimeLabel(tick, step);
    image.DrawText(std::min(x + 2, width - Image::TextWidth(label) - 1), axis_y, label, kText);
  }
  image.FillRect(plot_x, axis_y + 11, plot_w, 1, kText);

  // Lanes: the separator, the name, then the boxes (outer spans first, so inner ones stay on top).
  for (size_t t : order) {
    image.FillRect(0, lane_y[t] - 3, width, 1, kLaneLine);
    image.DrawText(kMargin, lane_y[t] + 2, TrackName(trace.tracks[t]), kText, plot_x - kMargin - 4);
  }
  for (const TraceSpan& span : trace.spans) {
    if (span.end_ns() < begin || span.start_ns > end || lane_y[span.track] < 0) continue;
    const std::string& name = trace.names[span.name];
    const int depth = std::min(static_cast<int>(span.depth), max_depth - 1);
    const int x0 = x_of(span.start_ns);
    const int w = std::max(x_of(span.end_ns()) - x0, 1);
    const int top = lane_y[span.track] + depth * kRow;
    const Color color = NameColor(name);
    image.FillRect(x0, top, w, kRow - 1, color);
    if (w >= 4) image.FillRect(x0, top, 1, kRow - 1, Darker(color));
    if (w >= 16) image.DrawText(x0 + 3, top + 2, name, kText, w - 5);
  }
  image.FillRect(0, lanes_end - 3, width, 1, kLaneLine);

  image.DrawText(kMargin, legend_y,
                 dispatches ? "dispatches with the most time:" : "spans with the most time:", kText);
  for (size_t i = 0; i < legend.size(); ++i) {
    const int row = legend_y + 14 + static_cast<int>(i) * kRow;
    image.FillRect(kMargin, row, 16, kRow - 2, NameColor(trace.names[legend[i]]));
    const double ns = static_cast<double>(totals[legend[i]]);
    char time[48];
    std::snprintf(time, sizeof(time), ns < 1e6 ? "%8.1f us  " : "%8.3f ms  ",
                  ns < 1e6 ? ns / 1e3 : ns / 1e6);
    image.DrawText(kMargin + 22, row + 1, time + trace.names[legend[i]], kText,
                   width - kMargin * 2 - 22);
  }
  return image;
}

}  // namespace iree_rt::tools::trace
