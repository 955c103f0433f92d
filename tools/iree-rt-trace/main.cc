// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree-rt-trace: reads the Chrome Trace Event JSON that --trace / IREE_RT_TRACE write.
//
//   iree-rt-trace summarize [--top=N] TRACE.json
//       the top dispatches per export (count, total, mean, min, max, share of device busy
//       time), per-track busy time, the wall span and the top host functions (summary.h);
//   iree-rt-trace png [--width=PIXELS] [--max_depth=N] [--range=FROM_MS:TO_MS] TRACE.json OUT.png
//       a timeline picture: a lane per track, a box per span (timeline.h); --range draws that
//       window only (milliseconds from the first span).
//
// Errors (an unreadable, truncated or malformed file, a document that is not a trace) are
// printed to stderr with their status code and exit 1; usage errors exit 2.
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "png_writer.h"
#include "summary.h"
#include "timeline.h"
#include "trace_file.h"

namespace {

using namespace iree_rt;
using namespace iree_rt::tools::trace;

constexpr const char* kUsage =
    "usage: iree-rt-trace summarize [--top=N] TRACE.json\n"
    "       iree-rt-trace png [--width=PIXELS] [--max_depth=N] [--range=FROM_MS:TO_MS]\n"
    "                         TRACE.json OUT.png\n"
    "       iree-rt-trace --version\n"
    "TRACE.json: what iree-rt-run --trace=FILE or IREE_RT_TRACE=FILE wrote (Chrome Trace Event\n"
    "Format; other tools' JSON traces are read too).\n";

int Usage(std::string_view problem) {
  std::fprintf(stderr, "iree-rt-trace: %.*s\n%s", static_cast<int>(problem.size()), problem.data(),
               kUsage);
  return 2;
}

int Fail(const base::Status& status) {
  std::fprintf(stderr, "iree-rt-trace: %s\n", status.ToString().c_str());
  return 1;
}

// "--name=N" with N a positive integer; false (a usage error) otherwise.
bool IntFlag(std::string_view arg, std::string_view name, int& out) {
  const std::string_view value = arg.substr(name.size() + 1);
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  return ec == std::errc() && end == value.data() + value.size() && out > 0;
}

// "--range=FROM:TO" in milliseconds, FROM < TO.
bool RangeFlag(std::string_view arg, TimelineOptions& options) {
  const std::string_view value = arg.substr(sizeof("--range=") - 1);
  const size_t colon = value.find(':');
  double from = 0, to = 0;
  if (colon == std::string_view::npos) return false;
  const auto a = std::from_chars(value.data(), value.data() + colon, from);
  const auto b = std::from_chars(value.data() + colon + 1, value.data() + value.size(), to);
  if (a.ec != std::errc() || a.ptr != value.data() + colon || b.ec != std::errc() ||
      b.ptr != value.data() + value.size() || !(from >= 0) || !(to > from) || to > 1e9) {
    return false;
  }
  options.from_ns = static_cast<int64_t>(from * 1e6);
  options.to_ns = static_cast<int64_t>(to * 1e6);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) return Usage("no command");
  if (args[0] == "--version") {
    std::printf("iree-rt-trace (iree_rt %s)\n", IREE_RT_PACKAGE_VERSION);
    return 0;
  }
  if (args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  const std::string_view command = args[0];
  int top = 20;
  TimelineOptions timeline;
  std::vector<std::string> files;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const bool png = command == "png";
    bool ok = false;
    if (command == "summarize" && arg.starts_with("--top=")) {
      ok = IntFlag(arg, "--top", top);
    } else if (png && arg.starts_with("--width=")) {
      ok = IntFlag(arg, "--width", timeline.width);
    } else if (png && arg.starts_with("--max_depth=")) {
      ok = IntFlag(arg, "--max_depth", timeline.max_depth);
    } else if (png && arg.starts_with("--range=")) {
      ok = RangeFlag(arg, timeline);
    } else if (!arg.starts_with("--")) {
      files.emplace_back(arg);
      ok = true;
    }
    if (!ok) return Usage("bad argument '" + std::string(arg) + "'");
  }
  if (command == "summarize") {
    if (files.size() != 1) return Usage("summarize takes one trace file");
    base::StatusOr<TraceFile> trace = ReadTrace(files[0]);
    if (!trace.ok()) return Fail(trace.status());
    const std::string text = FormatSummary(*trace, files[0], static_cast<size_t>(top));
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  if (command == "png") {
    if (files.size() != 2) return Usage("png takes a trace file and an output file");
    if (timeline.width < 400 || timeline.width > 16384) return Usage("--width is 400 to 16384");
    if (timeline.max_depth > 16) return Usage("--max_depth is at most 16");
    base::StatusOr<TraceFile> trace = ReadTrace(files[0]);
    if (!trace.ok()) return Fail(trace.status());
    const Image image = RenderTimeline(*trace, files[0], timeline);
    if (base::Status status = WritePng(image, files[1]); !status.ok()) return Fail(status);
    std::printf("%s: %dx%d timeline of %zu spans on %zu tracks\n", files[1].c_str(), image.width(),
                image.height(), trace->spans.size(), trace->tracks.size());
    return 0;
  }
  return Usage("unknown command '" + std::string(command) + "'");
}
