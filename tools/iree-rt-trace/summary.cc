// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "summary.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <vector>

namespace iree_rt::tools::trace {
namespace {

struct Totals {
  uint32_t name = 0;
  uint64_t count = 0;
  int64_t total = 0, self = 0, min = INT64_MAX, max = 0;
};

// Sorted by total time, largest first (then by name, for a stable order).
std::vector<Totals> Sorted(std::vector<Totals> rows, const TraceFile& trace) {
  std::erase_if(rows, [](const Totals& t) { return t.count == 0; });
  std::sort(rows.begin(), rows.end(), [&](const Totals& a, const Totals& b) {
    if (a.total != b.total) return a.total > b.total;
    return trace.names[a.name] < trace.names[b.name];
  });
  return rows;
}

std::string Format(const char* format, auto... args) {
  char text[256];
  std::snprintf(text, sizeof(text), format, args...);
  return text;
}

double Us(int64_t ns) { return static_cast<double>(ns) / 1e3; }

}  // namespace

std::string FormatSummary(const TraceFile& trace, std::string_view file_name, size_t top) {
  const int64_t dispatch_category = trace.FindName("dispatch");
  std::vector<Totals> dispatches(trace.names.size()), functions(trace.names.size());
  std::vector<int64_t> busy(trace.tracks.size(), 0), children(trace.spans.size(), 0);
  std::vector<uint64_t> span_counts(trace.tracks.size(), 0);

  // Spans come by track, then start: a stack of the open ones gives busy time (top-level spans
  // only) and self time (each span less the spans directly inside it).
  std::vector<size_t> open;
  for (size_t i = 0; i < trace.spans.size(); ++i) {
    const TraceSpan& span = trace.spans[i];
    if (i == 0 || trace.spans[i - 1].track != span.track) open.clear();
    while (!open.empty() && span.start_ns >= trace.spans[open.back()].end_ns()) open.pop_back();
    if (open.empty()) {
      busy[span.track] += span.dur_ns;
    } else {
      children[open.back()] += span.dur_ns;
    }
    open.push_back(i);
    ++span_counts[span.track];
  }
  for (size_t i = 0; i < trace.spans.size(); ++i) {
    const TraceSpan& span = trace.spans[i];
    // Dispatch spans on a host track (another tool's trace) count as dispatches too.
    const bool dispatch = static_cast<int64_t>(span.category) == dispatch_category;
    if (trace.tracks[span.track].device() && !dispatch) continue;
    Totals& t = dispatch ? dispatches[span.name] : functions[span.name];
    t.name = span.name;
    ++t.count;
    t.total += span.dur_ns;
    t.self += std::max<int64_t>(0, span.dur_ns - children[i]);
    t.min = std::min(t.min, span.dur_ns);
    t.max = std::max(t.max, span.dur_ns);
  }

  size_t host_tracks = 0;
  int64_t device_busy = 0;
  for (size_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].device()) device_busy += busy[t];
    else ++host_tracks;
  }
  const int64_t wall = trace.end_ns - trace.begin_ns;
  std::string out = Format("trace %.*s: %" PRIu64 " events, %zu tracks (%zu host, %zu device), "
                           "wall span %.3f ms\n",
                           static_cast<int>(file_name.size()), file_name.data(), trace.events,
                           trace.tracks.size(), host_tracks, trace.tracks.size() - host_tracks,
                           Us(wall) / 1e3);

  const std::vector<Totals> exports = Sorted(std::move(dispatches), trace);
  uint64_t dispatch_count = 0;
  int64_t dispatch_total = 0;
  for (const Totals& t : exports) {
    dispatch_count += t.count;
    dispatch_total += t.total;
  }
  if (exports.empty()) {
    out += "dispatches: none (no span of category \"dispatch\")\n";
  } else {
    out += Format("dispatches: %zu exports, %" PRIu64 " dispatches, %.3f ms", exports.size(),
                  dispatch_count, Us(dispatch_total) / 1e3);
    if (device_busy > 0) {
      out += Format(", %.1f%% of device busy time",
                    100.0 * static_cast<double>(dispatch_total) / static_cast<double>(device_busy));
    }
    out += "\n     count    total_us     mean_us      min_us      max_us   share  export\n";
    for (size_t i = 0; i < exports.size() && i < top; ++i) {
      const Totals& t = exports[i];
      const double share = device_busy > 0 ? 100.0 * static_cast<double>(t.total) /
                                                 static_cast<double>(device_busy)
                                           : 0.0;
      out += Format("%10" PRIu64 " %11.3f %11.3f %11.3f %11.3f %6.1f%%  ", t.count, Us(t.total),
                    Us(t.total) / static_cast<double>(t.count), Us(t.min), Us(t.max), share);
      out += trace.names[t.name] + "\n";
    }
    if (exports.size() > top) out += Format("  ... %zu more exports\n", exports.size() - top);
  }

  out += "tracks:\n     spans     busy_us   busy%  track\n";
  for (size_t t = 0; t < trace.tracks.size(); ++t) {
    const double share = wall > 0 ? 100.0 * static_cast<double>(busy[t]) / static_cast<double>(wall)
                                  : 0.0;
    out += Format("%10" PRIu64 " %11.3f %6.1f%%  ", span_counts[t], Us(busy[t]), share);
    out += trace.tracks[t].Label() + "\n";
  }

  const std::vector<Totals> hosts = Sorted(std::move(functions), trace);
  out += Format("host functions (top %zu of %zu by total time; self: less the spans inside)\n",
                std::min(top, hosts.size()), hosts.size());
  out += "     count    total_us     self_us     mean_us  name\n";
  for (size_t i = 0; i < hosts.size() && i < top; ++i) {
    const Totals& t = hosts[i];
    out += Format("%10" PRIu64 " %11.3f %11.3f %11.3f  ", t.count, Us(t.total), Us(t.self),
                  Us(t.total) / static_cast<double>(t.count));
    out += trace.names[t.name] + "\n";
  }
  return out;
}

}  // namespace iree_rt::tools::trace
