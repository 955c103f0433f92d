// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/trace_timer.h"

#include "base/trace.h"
#include "drivers/cuda/context.h"

namespace iree_rt::drivers::cuda {

TraceTimer::~TraceTimer() {
  uint64_t hook = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    hook = hook_;
  }
  if (hook) base::trace::RemoveFlushHook(hook);
  Resolve();
  if (reference_) Destroy(reference_);
}

CUevent TraceTimer::CreateEvent() {
  CUevent event = nullptr;
  // Default flags: timing enabled (the event pool's events have it disabled).
  if (context_.syms().cuEventCreate(&event, CU_EVENT_DEFAULT) != CUDA_SUCCESS) return nullptr;
  return event;
}

void TraceTimer::Destroy(CUevent event) { context_.syms().cuEventDestroy(event); }

CUevent TraceTimer::Begin(CUstream stream) {
  if (!base::trace::Enabled()) return nullptr;
  const DynamicSymbols& syms = context_.syms();
  std::unique_lock<std::mutex> lock(mutex_);
  if (!reference_) {
    CUevent reference = CreateEvent();
    if (!reference) return nullptr;
    if (syms.cuEventRecord(reference, stream) != CUDA_SUCCESS ||
        syms.cuEventSynchronize(reference) != CUDA_SUCCESS) {
      Destroy(reference);
      return nullptr;
    }
    reference_ = reference;
    reference_host_ns_ = base::trace::NowNs();
    track_ = base::trace::RegisterTrack(base::StrCat("cuda:", static_cast<int>(context_.device()), " queue 0"));
    // Outside |mutex_|: a flush holds the hooks' lock while Resolve takes |mutex_|.
    lock.unlock();
    const uint64_t hook = base::trace::AddFlushHook([this] { Resolve(); });
    lock.lock();
    hook_ = hook;
  }
  CUevent start = CreateEvent();
  if (start && syms.cuEventRecord(start, stream) != CUDA_SUCCESS) {
    Destroy(start);
    return nullptr;
  }
  return start;
}

void TraceTimer::End(CUstream stream, CUevent start, std::string category, std::string name,
                     std::string args_json) {
  if (!start) return;
  CUevent end = CreateEvent();
  if (!end || context_.syms().cuEventRecord(end, stream) != CUDA_SUCCESS) {
    if (end) Destroy(end);
    Destroy(start);
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.push_back({start, end, std::move(category), std::move(name), std::move(args_json)});
}

void TraceTimer::Resolve() {
  std::vector<Span> spans;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    spans.swap(pending_);
  }
  if (spans.empty()) return;
  const DynamicSymbols& syms = context_.syms();
  if (!context_.Activate().ok()) return;
  for (Span& span : spans) {
    float start_ms = 0, end_ms = 0;
    if (syms.cuEventSynchronize(span.end) == CUDA_SUCCESS &&
        syms.cuEventElapsedTime(&start_ms, reference_, span.start) == CUDA_SUCCESS &&
        syms.cuEventElapsedTime(&end_ms, reference_, span.end) == CUDA_SUCCESS) {
      const auto host = [&](float ms) {
        return reference_host_ns_ + static_cast<uint64_t>(static_cast<double>(ms) * 1e6);
      };
      base::trace::Complete(track_, span.category, span.name, host(start_ms), host(end_ms),
                            span.args);
    }
    Destroy(span.start);
    Destroy(span.end);
  }
}

}  // namespace iree_rt::drivers::cuda
