// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// base::trace: a process-wide tracer, off by default and switched on at run time, that writes
// Chrome Trace Event Format JSON ({"traceEvents":[...],"displayTimeUnit":"ns"}), which Perfetto
// and chrome://tracing open.
//
// Cost when off: every instrumented point does one relaxed atomic load (Enabled()) and nothing
// else: no allocation, no lock, no clock read.
//
// When on, each thread appends to its own buffer without locks: events go into fixed-size chunks
// and the count is published with a release store, so Flush() (any thread) reads every published
// event while writers go on. A thread's buffer is created (under a mutex) at its first event and
// lives until the process ends, so a worker that exits loses nothing.
//
// Tracks: host events go to process 1 ("host"), one track per thread; device events go to
// process 2 ("devices") on tracks made with RegisterTrack() ("local-task queue 0"). Timestamps
// are steady-clock nanoseconds (NowNs()); the file gives them in microseconds from Start(), with
// three decimals (ns resolution).
//
// Switches: Start(path) (the tools' --trace, the C ABI's instance option) or the environment
// variable IREE_RT_TRACE=path, read once by StartFromEnvironment(). The file is (re)written by
// Flush() and by Stop(), with every event recorded since Start().
//
// Thread-safety: every function may be called from any thread.
#ifndef IREE_RT_BASE_TRACE_H_
#define IREE_RT_BASE_TRACE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"

namespace iree_rt::base::trace {

namespace internal {
extern std::atomic<bool> enabled;
}  // namespace internal

// Whether events are being recorded: the one check on the off path.
inline bool Enabled() { return internal::enabled.load(std::memory_order_relaxed); }

// Steady-clock nanoseconds, the time base of every event.
uint64_t NowNs();

// Starts recording into |path| (written by Flush/Stop); an empty path records without writing a
// file (for statistics). Starting while started keeps the events and replaces a non-empty path.
void Start(std::string_view path);
// Start(getenv("IREE_RT_TRACE")) the first time it is called, when the variable is set; later
// calls do nothing. A trace started so runs until the process ends: its owners (instances,
// tool sessions) only Flush it as they end.
void StartFromEnvironment();
// Writes every event recorded since Start() to the path; OK and nothing written when not started.
// UNAVAILABLE when the file cannot be written.
Status Flush();
// Flush(), then stops recording. OK when not started.
Status Stop();
// The path given to Start (empty when not started).
std::string Path();

// A device track in process "devices", named |name| in the file's metadata. Names are
// deduplicated: the same name gives the same id.
uint32_t RegisterTrack(std::string_view name);

// Records a complete ("X") event. |track| 0 is the calling thread's host track. |args_json| is
// empty or the members of a JSON object without braces (`"count":3`), given verbatim.
void Complete(uint32_t track, std::string_view category, std::string_view name, uint64_t start_ns,
              uint64_t end_ns, std::string_view args_json = {});
// Flow events linking a host span to the device span it caused (an arrow in Perfetto): a new id,
// its start ("s", on the calling thread's host track, inside the span that submits) and its end
// ("f", on device |track| at the start of the span it enters). Ids are 0 when tracing is off.
uint64_t NewFlowId();
void FlowStart(uint64_t id, uint64_t time_ns);
void FlowEnd(uint32_t track, uint64_t id, uint64_t time_ns);
// Records a counter ("C") sample on the devices process: series |series| of counter |name|.
void Counter(std::string_view name, std::string_view series, uint64_t time_ns, double value);

// Calls |visit| with the name and duration of every complete event of |category| recorded since
// Start() (for --dispatch_statistics), after running the flush hooks so that device spans
// drivers still hold are in.
void VisitComplete(std::string_view category,
                   const std::function<void(std::string_view name, uint64_t dur_ns)>& visit);

// Functions that Flush and Stop run before writing, on the flushing thread: a driver turns its
// device timestamps into events there. AddFlushHook returns an id for RemoveFlushHook, which
// waits for a run of the hook in progress (so its owner may be destroyed after it returns).
uint64_t AddFlushHook(std::function<void()> hook);
void RemoveFlushHook(uint64_t id);

// Escapes |text| for a JSON string (without quotes).
std::string JsonEscape(std::string_view text);

// An RAII host span on the calling thread: records "X" from construction to destruction when
// tracing was on at construction. |name| and |category| must outlive the scope (literals).
class Scope {
 public:
  Scope(const char* category, const char* name) {
    if (Enabled()) Begin(category, name);
  }
  ~Scope() {
    if (start_ns_) End();
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  // Whether this scope records (tracing was on at construction).
  bool recording() const { return start_ns_ != 0; }
  // Replaces the name by a copy of |name| (only when recording).
  void set_name(std::string_view name);
  // Adds JSON object members to the event (only when recording).
  void set_args(std::string args_json);

 private:
  // What only a recording scope needs, allocated then: off, a scope is three words.
  struct Extra {
    std::string name;
    std::string args;
  };
  void Begin(const char* category, const char* name);
  void End();

  uint64_t start_ns_ = 0;
  const char* category_ = nullptr;
  const char* name_ = nullptr;
  std::unique_ptr<Extra> extra_;
};

}  // namespace iree_rt::base::trace

#endif  // IREE_RT_BASE_TRACE_H_
