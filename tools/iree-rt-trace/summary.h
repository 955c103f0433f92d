// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// FormatSummary: the text of `iree-rt-trace summarize`.
//
//   trace run.json: 5123 events, 4 tracks (3 host, 1 device), wall span 12.345 ms
//   dispatches: 41 exports, 120 dispatches, 9.876 ms, 80.0% of device busy time
//        count    total_us     mean_us      min_us      max_us   share  export
//           12    1234.567     102.881      98.000     120.000   10.0%  main_dispatch_3_conv...
//   tracks: ...           spans     busy_us   busy%  track
//   host functions (top N by total time; self = without the spans inside)
//        count    total_us     self_us     mean_us  name
//
// Dispatches are the spans of category "dispatch" (base::trace's device events; a trace from
// another tool has none, and the section says so). A dispatch's share is its export's total time
// over the busy time of the device tracks (the union of their spans, summed over tracks), so the
// shares leave out what the queues spent between dispatches. Host functions are the spans of the
// other tracks, by name.
#ifndef IREE_RT_TOOLS_TRACE_SUMMARY_H_
#define IREE_RT_TOOLS_TRACE_SUMMARY_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "trace_file.h"

namespace iree_rt::tools::trace {

// |top|: rows of the dispatch and host function tables (the rest are counted in one line).
std::string FormatSummary(const TraceFile& trace, std::string_view file_name, size_t top);

}  // namespace iree_rt::tools::trace

#endif  // IREE_RT_TOOLS_TRACE_SUMMARY_H_
