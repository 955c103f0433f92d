// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::TraceTimer: device-side spans for base::trace, from CUDA events around the commands a
// StreamTarget issues (stream mode; graph launches are not timed). Each span is a pair of
// timing events recorded on the stream; they are turned into "X" events on the context's queue
// track ("cuda:<ordinal> queue 0") when base::trace flushes (a flush hook) or the timer ends.
// Device times become host times through one reference event recorded and synchronized at first
// use: host = reference host time + cuEventElapsedTime(reference, event).
//
// Thread-safety: all methods may be called from any thread.
#ifndef IREE_RT_DRIVERS_CUDA_TRACE_TIMER_H_
#define IREE_RT_DRIVERS_CUDA_TRACE_TIMER_H_

#include <cuda.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace iree_rt::drivers::cuda {

class Context;

class TraceTimer {
 public:
  explicit TraceTimer(const Context& context) : context_(context) {}
  ~TraceTimer();
  TraceTimer(const TraceTimer&) = delete;
  TraceTimer& operator=(const TraceTimer&) = delete;

  // Records a start event on |stream| when tracing is on; null otherwise (or when CUDA fails:
  // timing is best effort and never fails the work).
  CUevent Begin(CUstream stream);
  // Records the end event of a span begun with Begin (|start| not null) and queues the span.
  void End(CUstream stream, CUevent start, std::string category, std::string name,
           std::string args_json);

 private:
  struct Span {
    CUevent start = nullptr;
    CUevent end = nullptr;
    std::string category, name, args;
  };
  // Waits for the queued spans, records them and frees their events.
  void Resolve();
  CUevent CreateEvent();
  void Destroy(CUevent event);

  const Context& context_;
  std::mutex mutex_;
  std::vector<Span> pending_;
  CUevent reference_ = nullptr;
  uint64_t reference_host_ns_ = 0;
  uint32_t track_ = 0;
  uint64_t hook_ = 0;  // base::trace flush hook id, 0 until the first span
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_TRACE_TIMER_H_
