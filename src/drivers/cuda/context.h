// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::Context: one device's primary context and its dispatch stream, shared (by reference) by the
// device and every object that must make CUDA calls after the device is gone (buffers,
// executables, command buffers, events).
//
// The dispatch stream carries all dispatches, copies, fills and stream-ordered allocations
// (completion is observed through events; no host callbacks). Thread-safety: immutable;
// Activate() binds the context to the calling thread and may be called from any thread.
#ifndef IREE_RT_DRIVERS_CUDA_CONTEXT_H_
#define IREE_RT_DRIVERS_CUDA_CONTEXT_H_

#include <cuda.h>

#include <memory>

#include "base/ref_object.h"
#include "base/status.h"
#include "drivers/cuda/dynamic_symbols.h"
#include "drivers/cuda/trace_timer.h"

namespace iree_rt::drivers::cuda {

struct ContextOptions {
  // Use a CUmemoryPool for stream-ordered queue allocations (when the device supports pools).
  bool async_allocations = true;
};

class Context final : public base::RefObject {
 public:
  // Retains |device|'s primary context and creates the stream (and the pool, if enabled).
  static base::StatusOr<base::Ref<Context>> Create(const DynamicSymbols& syms, CUdevice device,
                                                   const ContextOptions& options);
  ~Context() override;

  const DynamicSymbols& syms() const { return syms_; }
  CUdevice device() const { return device_; }
  CUcontext context() const { return context_; }
  CUstream dispatch_stream() const { return dispatch_stream_; }
  // Null when async allocations are off or unsupported.
  CUmemoryPool memory_pool() const { return memory_pool_; }

  // Makes this context current on the calling thread (cheap; every CUDA-calling path does it).
  base::Status Activate() const;

  // Call before the host touches managed memory. Without concurrent managed access (reported by
  // some GPUs and virtual machines) a host access while any kernel of the context runs faults the
  // process; waits now end as soon as the awaited work is done, with later work still running, so
  // this waits for the whole context there. Free where access is concurrent.
  void BeforeManagedHostAccess() const;
  bool concurrent_managed_access() const { return concurrent_managed_access_; }
  // Device-side spans for base::trace (stream mode), resolved when the trace flushes.
  TraceTimer& trace_timer() const { return *trace_timer_; }

  // Whether a CUDA tool (compute-sanitizer, Nsight) is injected into the process.
  bool tool_injected() const { return tool_injected_; }

 private:
  Context(const DynamicSymbols& syms, CUdevice device) : syms_(syms), device_(device) {}
  // Peer access (kernels and pools) between this context's GPU and every other live context's,
  // where the GPUs allow it; registers this context as live.
  void ConnectPeers();
  template <typename T, typename... Args>
  friend base::Ref<T> base::MakeRef(Args&&... args);

  const DynamicSymbols& syms_;
  const CUdevice device_;
  CUcontext context_ = nullptr;
  CUstream dispatch_stream_ = nullptr;
  CUmemoryPool memory_pool_ = nullptr;
  bool concurrent_managed_access_ = true;
  bool tool_injected_ = false;
  std::unique_ptr<TraceTimer> trace_timer_;  // ended first: its events belong to context_
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_CONTEXT_H_
