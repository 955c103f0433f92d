// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TraceFile: the spans and tracks of a Chrome Trace Event Format file (what base::trace writes,
// and other tools' JSON traces), read for iree-rt-trace's summary and timeline.
//
// The events are read one at a time (io::ParseJsonValueAt) and kept as small fixed-size spans
// with interned names, so a trace of 100+ MB needs a fraction of its size in memory, never a
// parsed document. Accepted: {"traceEvents":[...], ...} or a bare array of events (ONNX
// Runtime's). Kept: "X" events and "B"/"E" pairs (as spans), "M" process_name/thread_name
// (track names); counted and otherwise skipped: "C", flows, instants and the rest.
#ifndef IREE_RT_TOOLS_TRACE_TRACE_FILE_H_
#define IREE_RT_TOOLS_TRACE_TRACE_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace iree_rt::tools::trace {

struct TraceTrack {
  int64_t pid = 0;
  int64_t tid = 0;
  std::string process;  // the process_name of |pid| ("host", "devices"), or "pid N"
  std::string name;     // the thread_name of (pid, tid), or "tid N"
  // A track of process "devices" (base::trace's device queues).
  bool device() const { return process == "devices"; }
  std::string Label() const { return process + " / " + name; }
};

struct TraceSpan {
  uint32_t track = 0;     // index into TraceFile::tracks
  uint32_t name = 0;      // index into TraceFile::names
  uint32_t category = 0;  // index into TraceFile::names ("" when the event has none)
  uint32_t depth = 0;     // spans of the same track it lies inside (TraceFile::Nest)
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  int64_t end_ns() const { return start_ns + dur_ns; }
};

struct TraceFile {
  std::vector<TraceTrack> tracks;
  std::vector<std::string> names;  // interned span names and categories
  std::vector<TraceSpan> spans;    // by track, then start (earlier first), then longer first
  uint64_t events = 0;             // every event of the file, metadata included
  uint64_t other_events = 0;       // counters, flows, instants...: read and not kept
  int64_t begin_ns = 0;            // first span start (0 without spans)
  int64_t end_ns = 0;              // last span end

  // The index of |name| in names, or -1.
  int64_t FindName(std::string_view name) const;
};

// Parses |text| (the file's bytes; |file_name| names it in errors). INVALID_ARGUMENT naming the
// file and the problem: bad JSON (with the byte offset: a truncated file reads "unexpected end
// of text"), a document that is not a trace, an event without name/ph/ts, an "X" without a
// numeric dur, an "E" without its "B".
base::StatusOr<TraceFile> ParseTrace(std::string_view text, std::string_view file_name);

// Maps the file at |path| and parses it.
base::StatusOr<TraceFile> ReadTrace(const std::string& path);

}  // namespace iree_rt::tools::trace

#endif  // IREE_RT_TOOLS_TRACE_TRACE_FILE_H_
