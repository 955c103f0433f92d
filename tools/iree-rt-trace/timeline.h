// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RenderTimeline: the picture of `iree-rt-trace png`: one lane per track (host threads first,
// then device queues), each span a box at its time and nesting depth, coloured by its name (a
// dispatch by its export, so the same kernel has the same colour everywhere), a time axis with
// labelled ticks, the track names on the left and a legend of the names with the most time.
// Tracks past the 64th are left out (the heading says how many).
#ifndef IREE_RT_TOOLS_TRACE_TIMELINE_H_
#define IREE_RT_TOOLS_TRACE_TIMELINE_H_

#include <cstdint>
#include <string_view>

#include "image.h"
#include "trace_file.h"

namespace iree_rt::tools::trace {

struct TimelineOptions {
  int width = 1600;  // pixels (400 to 16384); the height follows from the tracks (64 at most)
  int max_depth = 6;  // nesting levels drawn per lane (1 to 16); deeper spans share the last one
  // The window drawn, in nanoseconds from the trace's first span; end 0: to the last span's end.
  int64_t from_ns = 0;
  int64_t to_ns = 0;
};

// |title| heads the picture (the trace's file name).
Image RenderTimeline(const TraceFile& trace, std::string_view title,
                     const TimelineOptions& options);

}  // namespace iree_rt::tools::trace

#endif  // IREE_RT_TOOLS_TRACE_TIMELINE_H_
