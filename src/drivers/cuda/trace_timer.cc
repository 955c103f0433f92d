// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/trace_timer.h"

#include <algorithm>

#include "base/str_cat.h"
#include "base/trace.h"
#include "drivers/cuda/context.h"
#include "hal/channel.h"
#include "hal/executable.h"

namespace iree_rt::drivers::cuda {

TraceTimer::~TraceTimer() {
  uint64_t hook = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    hook = hook_;
  }
  if (hook) base::trace::RemoveFlushHook(hook);
  Resolve();
  const DynamicSymbols& syms = context_.syms();
  for (CUevent event : free_) syms.cuEventDestroy(event);
  for (const auto& reference : references_) syms.cuEventDestroy(reference->event);
}

CUevent TraceTimer::NewEvent() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!free_.empty()) {
      CUevent event = free_.back();
      free_.pop_back();
      return event;
    }
  }
  CUevent event = nullptr;
  // Default flags: timing enabled (the event pool's events have it disabled).
  if (context_.syms().cuEventCreate(&event, CU_EVENT_DEFAULT) != CUDA_SUCCESS) return nullptr;
  return event;
}

void TraceTimer::Release(CUevent event) {
  if (!event) return;
  std::lock_guard<std::mutex> lock(mutex_);
  free_.push_back(event);
}

TraceTimer::Mark TraceTimer::BeginSubmission(CUstream stream) {
  if (!base::trace::Enabled()) return {};
  const DynamicSymbols& syms = context_.syms();
  std::unique_lock<std::mutex> lock(mutex_);
  const uint64_t now = base::trace::NowNs();
  if (!reference_ || now - reference_->host_ns > kReanchorNs) {
    lock.unlock();
    // Synchronizing waits for the stream's earlier work: paid once a second, and only when on.
    CUevent event = NewEvent();
    if (!event) return {};
    if (syms.cuEventRecord(event, stream) != CUDA_SUCCESS || syms.cuEventSynchronize(event) != CUDA_SUCCESS) {
      Release(event);
      return {};
    }
    auto reference = std::make_shared<Reference>(Reference{event, base::trace::NowNs()});
    bool first = false;
    lock.lock();
    first = !reference_;
    reference_ = reference;
    references_.push_back(reference);
    if (first) {
      // Outside |mutex_|: a flush holds the hooks' lock while Resolve takes |mutex_|.
      lock.unlock();
      const uint64_t hook = base::trace::AddFlushHook([this] { Resolve(); });
      lock.lock();
      hook_ = hook;
    }
  }
  std::shared_ptr<const Reference> reference = reference_;
  lock.unlock();
  return Record(stream, std::move(reference));
}

TraceTimer::Mark TraceTimer::Begin(CUstream stream, const Mark& parent) {
  return parent ? Record(stream, parent.reference) : Mark{};
}

TraceTimer::Mark TraceTimer::Record(CUstream stream, std::shared_ptr<const Reference> reference) {
  CUevent event = NewEvent();
  if (!event) return {};
  if (context_.syms().cuEventRecord(event, stream) != CUDA_SUCCESS) {
    Release(event);
    return {};
  }
  return Mark{event, std::move(reference)};
}

void TraceTimer::End(CUstream stream, Mark start, Label label, uint64_t flow) {
  if (!start) return;
  CUevent end = NewEvent();
  if (!end || context_.syms().cuEventRecord(end, stream) != CUDA_SUCCESS) {
    Release(end);
    Release(start.event);
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.push_back({std::move(start), end, std::move(label), flow});
}

void TraceTimer::Add(Mark start, CUevent end, Label label) {
  if (!start || !end) {
    Release(start.event);
    Release(end);
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.push_back({std::move(start), end, std::move(label), 0});
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
  std::vector<DeviceSpan> timed;
  timed.reserve(spans.size());
  for (const Span& span : spans) {
    const Reference& reference = *span.start.reference;
    float start_ms = 0, end_ms = 0;
    if (syms.cuEventSynchronize(span.end) == CUDA_SUCCESS &&
        syms.cuEventElapsedTime(&start_ms, reference.event, span.start.event) == CUDA_SUCCESS &&
        syms.cuEventElapsedTime(&end_ms, reference.event, span.end) == CUDA_SUCCESS) {
      const auto host = [&](float ms) {
        return reference.host_ns + static_cast<uint64_t>(static_cast<double>(ms) * 1e6);
      };
      timed.push_back({host(start_ms), host(end_ms), span.label.category, span.label.name, span.label.args,
                       span.flow});
    }
  }
  EmitDeviceSpans(base::StrCat("cuda:", static_cast<int>(context_.device()), " queue 0"), timed);
  for (Span& span : spans) {
    Release(span.start.event);
    Release(span.end);
  }
  spans.clear();  // drops the spans' holds on their references
  std::lock_guard<std::mutex> lock(mutex_);
  // References no span and no future submission uses any more.
  std::erase_if(references_, [&](const std::shared_ptr<const Reference>& reference) {
    if (reference == reference_ || reference.use_count() > 1) return false;
    syms.cuEventDestroy(reference->event);
    return true;
  });
}

void EmitDeviceSpans(std::string_view track_name, std::vector<DeviceSpan>& spans) {
  // Nodes of one graph section run concurrently, and the spans of one track must nest: each span
  // goes to the first lane where it nests (lane 0 is the queue's own track, where command buffers
  // always fit), the others to "<queue> (concurrent N)".
  std::sort(spans.begin(), spans.end(), [](const DeviceSpan& a, const DeviceSpan& b) {
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  std::vector<std::vector<uint64_t>> lanes;  // per lane, the ends of its open spans
  std::vector<uint32_t> tracks;
  for (const DeviceSpan& span : spans) {
    size_t lane = 0;
    for (; lane < lanes.size(); ++lane) {
      std::vector<uint64_t>& open = lanes[lane];
      while (!open.empty() && open.back() <= span.start) open.pop_back();
      if (open.empty() || span.end <= open.back()) break;
    }
    if (lane == lanes.size()) {
      lanes.emplace_back();
      tracks.push_back(base::trace::RegisterTrack(
          lane == 0 ? std::string(track_name) : base::StrCat(track_name, " (concurrent ", lane, ")")));
    }
    lanes[lane].push_back(span.end);
    if (span.flow) base::trace::FlowEnd(tracks[lane], span.flow, span.start);
    base::trace::Complete(tracks[lane], span.category, span.name, span.start, span.end, span.args);
  }
}

TraceTimer::Label TransferLabel(const char* name, uint64_t bytes) {
  return {"transfer", name, base::StrCat("\"bytes\":", bytes)};
}

std::string DispatchArgs(const std::string& export_name, uint32_t x, uint32_t y, uint32_t z) {
  // CUDA executables carry no name of their own: the compiler names exports "<executable>_<what
  // it computes>" with the executable ending in "dispatch_<n>", so that prefix names it (the whole
  // export name otherwise).
  size_t end = export_name.find("dispatch_");
  if (end != std::string::npos) {
    end += 9;
    while (end < export_name.size() && export_name[end] >= '0' && export_name[end] <= '9') ++end;
  }
  return base::StrCat("\"executable\":\"", base::trace::JsonEscape(export_name.substr(0, end)),
                      "\",\"workgroup_count\":[", x, ",", y, ",", z, "]");
}

TraceTimer::Label DispatchLabel(const hal::Executable& executable, uint32_t export_ordinal,
                                const uint32_t workgroup_count[3]) {
  // The ordinal was checked by PrepareDispatch.
  const std::string& name = executable.export_info(export_ordinal).name;
  return {"dispatch", name, DispatchArgs(name, workgroup_count[0], workgroup_count[1], workgroup_count[2])};
}

TraceTimer::Label CollectiveLabel(const hal::CollectiveOp& op, uint64_t element_count) {
  return {"collective", op.ToString(), base::StrCat("\"element_count\":", element_count)};
}

}  // namespace iree_rt::drivers::cuda
