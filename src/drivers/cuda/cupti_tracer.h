// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::CuptiTracer: device spans for base::trace from CUPTI's activity records, the way CUDA's
// own profilers see the work: every kernel, copy and fill with its device start and end, inside
// graphs too, without adding a node or an event to the work. libcupti is loaded at run time (as
// libcuda is) the first time a submission is traced; where it is missing, or of another major
// version than the header this was built with, Get() answers null and cuda::TraceTimer times the
// work with CUDA events instead.
//
// A driver-API callback notes the correlation ids of the calls each submission makes (CUPTI's
// records carry them), so its records are grouped into one "command buffer" span (their hull,
// which the submission's flow enters) on the device's queue track, with each record a span
// inside it: our kernels as "dispatch" (named by their export, with the grid as workgroup
// count), NCCL's as "collective", others as "kernel", copies and fills as "transfer". CUPTI
// timestamps become host times through one pair of clock samples taken when the tracer starts.
// Records are converted when base::trace flushes (a flush hook).
//
// Thread-safety: every method may be called from any thread.
#ifndef IREE_RT_DRIVERS_CUDA_CUPTI_TRACER_H_
#define IREE_RT_DRIVERS_CUDA_CUPTI_TRACER_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace iree_rt::drivers::cuda {

class CuptiTracer {
 public:
  // The process's tracer when tracing is on and CUPTI could be started; null otherwise.
  static CuptiTracer* Get();
  // Whether Get() would answer a tracer, without starting one (false while tracing is off).
  static bool Active();

  // Remembers the export name of a PTX entry point (the names differ where PTX forbids a
  // character), for naming dispatches. Called for every kernel an executable loads.
  static void RegisterKernel(std::string_view entry_name, std::string_view export_name);

  // Brackets one submission's launch calls on the calling thread; returns its id.
  uint64_t BeginSubmission();
  // Ends the bracket; the submission's records go to device |device|'s track, entered by |flow|.
  void EndSubmission(uint64_t id, int device, uint64_t flow);

 private:
  CuptiTracer() = default;
  friend struct CuptiState;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_CUPTI_TRACER_H_
