// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::TraceTimer: device-side spans for base::trace, from CUDA timing events around the work a
// submission issues: the command buffer as a whole, and inside it every dispatch, copy, fill and
// collective, in stream mode (events recorded on the stream around each command) and in graph
// mode (event-record nodes around each node, given fresh events at every launch). Spans become
// "X" events on the context's queue track ("cuda:<ordinal> queue 0") when base::trace flushes (a
// flush hook) or the timer ends, with the submission's flow arrow ending at the command buffer.
// Graph nodes that ran at the same time go to extra lanes ("... queue 0 (concurrent N)"), since
// the spans of one track must nest.
//
// Clock correlation: a reference event is recorded and synchronized when a submission begins and
// the last reference is older than kReanchorNs (or none exists), so the host time of a device
// event is reference host time + cuEventElapsedTime(reference, event). Every span of a submission
// uses the reference its command buffer span took, and the conversion is monotonic, so nested
// spans stay nested; re-anchoring keeps the float milliseconds of cuEventElapsedTime well under
// a microsecond of rounding.
//
// Timing is best effort: a CUDA failure drops the span, never the work.
// Thread-safety: all methods may be called from any thread; a device issues one submission at a
// time (its pending queue), which is what orders the spans of one track.
#ifndef IREE_RT_DRIVERS_CUDA_TRACE_TIMER_H_
#define IREE_RT_DRIVERS_CUDA_TRACE_TIMER_H_

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace iree_rt::hal {
class Executable;
struct CollectiveOp;
}  // namespace iree_rt::hal

namespace iree_rt::drivers::cuda {

class Context;

class TraceTimer {
 public:
  // A recorded start: the event and the reference its time is measured from.
  struct Reference {
    CUevent event = nullptr;
    uint64_t host_ns = 0;
  };
  struct Mark {
    CUevent event = nullptr;
    std::shared_ptr<const Reference> reference;
    explicit operator bool() const { return event != nullptr; }
  };
  // What a span is, for base::trace.
  struct Label {
    std::string category, name, args;
  };

  explicit TraceTimer(const Context& context) : context_(context) {}
  ~TraceTimer();
  TraceTimer(const TraceTimer&) = delete;
  TraceTimer& operator=(const TraceTimer&) = delete;

  // Starts a submission's span on |stream| (re-anchoring the clock when due); an empty mark when
  // tracing is off or CUDA fails.
  Mark BeginSubmission(CUstream stream);
  // Starts a span inside |parent| on |stream|; empty when |parent| is.
  Mark Begin(CUstream stream, const Mark& parent);
  // Ends a span begun with BeginSubmission or Begin (nothing when |start| is empty). |flow| (not
  // 0) is the submission's flow id, ended at the span's start.
  void End(CUstream stream, Mark start, Label label, uint64_t flow = 0);
  // A span whose two events the caller had recorded (graph event-record nodes); both events
  // must come from NewEvent.
  void Add(Mark start, CUevent end, Label label);

  // A timing event (reused from spans already resolved); null on failure. Release gives back
  // one that ended up unused.
  CUevent NewEvent();
  void Release(CUevent event);

 private:
  static constexpr uint64_t kReanchorNs = 1'000'000'000;
  struct Span {
    Mark start;
    CUevent end = nullptr;
    Label label;
    uint64_t flow = 0;
  };
  Mark Record(CUstream stream, std::shared_ptr<const Reference> reference);
  // Waits for the queued spans, records them and returns their events to the free list.
  void Resolve();

  const Context& context_;
  std::mutex mutex_;
  std::vector<Span> pending_;
  std::vector<CUevent> free_;
  std::shared_ptr<const Reference> reference_;
  std::vector<std::shared_ptr<const Reference>> references_;  // all made, destroyed at the end
  uint64_t hook_ = 0;  // base::trace flush hook id, 0 until the first span
};

// A device span in host time, ready for base::trace; |flow| (not 0) enters it.
struct DeviceSpan {
  uint64_t start = 0, end = 0;
  std::string_view category, name, args;
  uint64_t flow = 0;
};
// Records |spans| (sorted here) on the track |track_name|, and those that overlap others without
// nesting (concurrent graph nodes) on lanes "<track_name> (concurrent N)".
void EmitDeviceSpans(std::string_view track_name, std::vector<DeviceSpan>& spans);

// Labels of device spans, named as the CPU driver names its own.
TraceTimer::Label TransferLabel(const char* name, uint64_t bytes);
TraceTimer::Label DispatchLabel(const hal::Executable& executable, uint32_t export_ordinal,
                                const uint32_t workgroup_count[3]);
// A dispatch's args: its executable (from the export's name) and workgroup count.
std::string DispatchArgs(const std::string& export_name, uint32_t x, uint32_t y, uint32_t z);
TraceTimer::Label CollectiveLabel(const hal::CollectiveOp& op, uint64_t element_count);

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_TRACE_TIMER_H_
