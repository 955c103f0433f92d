// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Trace file fuzzer: any bytes as a trace for iree-rt-trace (tools/iree-rt-trace). ParseTrace
// must return a status or a TraceFile whose spans name existing tracks and names, lie inside the
// trace's [begin, end] and come sorted; a parsed trace is then summarized and drawn (small).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "png_writer.h"
#include "summary.h"
#include "timeline.h"
#include "trace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace iree_rt::tools::trace;
  auto trace = ParseTrace(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
  if (!trace.ok()) return 0;
  const TraceSpan* previous = nullptr;
  for (const TraceSpan& span : trace->spans) {
    if (span.track >= trace->tracks.size() || span.name >= trace->names.size() ||
        span.category >= trace->names.size() || span.dur_ns < 0 ||
        span.start_ns < trace->begin_ns || span.end_ns() > trace->end_ns) {
      __builtin_trap();
    }
    if (previous && (previous->track > span.track ||
                     (previous->track == span.track && previous->start_ns > span.start_ns))) {
      __builtin_trap();
    }
    previous = &span;
  }
  (void)FormatSummary(*trace, "fuzz", 5);
  TimelineOptions options;
  options.width = 400;
  (void)EncodePng(RenderTimeline(*trace, "fuzz", options));
  return 0;
}
