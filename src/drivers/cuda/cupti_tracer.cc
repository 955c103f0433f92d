// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/cupti_tracer.h"

#if __has_include(<cupti.h>)
#include <cupti.h>
#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/str_cat.h"
#include "base/trace.h"
#include "drivers/cuda/trace_timer.h"

namespace iree_rt::drivers::cuda {

namespace {

constexpr size_t kBufferSize = 8u << 20;

// The CUPTI entry points used, resolved from libcupti at run time.
struct Cupti {
  decltype(&cuptiGetVersion) GetVersion = nullptr;
  decltype(&cuptiActivityEnable) ActivityEnable = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) ActivityRegisterCallbacks = nullptr;
  decltype(&cuptiActivityGetNextRecord) ActivityGetNextRecord = nullptr;
  decltype(&cuptiActivityFlushAll) ActivityFlushAll = nullptr;
  decltype(&cuptiGetTimestamp) GetTimestamp = nullptr;
  decltype(&cuptiSubscribe) Subscribe = nullptr;
  decltype(&cuptiEnableDomain) EnableDomain = nullptr;
  decltype(&cuptiActivityEnableHWTrace) EnableHWTrace = nullptr;  // optional (CUPTI 12.8+)

  bool Load() {
    // The loader's path first, then where CUDA installs it (it is often not on that path).
    std::vector<std::string> names = {"libcupti.so", "libcupti.so.13"};
    for (const char* root : std::initializer_list<const char*>{std::getenv("CUDA_HOME"), std::getenv("CUDA_PATH"),
                                                                "/usr/local/cuda"}) {
      if (!root || !*root) continue;
      for (const char* dir : {"/lib64/", "/extras/CUPTI/lib64/", "/targets/x86_64-linux/lib/"}) {
        names.push_back(base::StrCat(root, dir, "libcupti.so"));
      }
    }
    void* lib = nullptr;
    for (const std::string& name : names) {
      if ((lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    }
    if (!lib) return false;
    const auto get = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      return fn != nullptr;
    };
    return get(GetVersion, "cuptiGetVersion") && get(ActivityEnable, "cuptiActivityEnable") &&
           get(ActivityRegisterCallbacks, "cuptiActivityRegisterCallbacks") &&
           get(ActivityGetNextRecord, "cuptiActivityGetNextRecord") &&
           get(ActivityFlushAll, "cuptiActivityFlushAll") && get(GetTimestamp, "cuptiGetTimestamp") &&
           get(Subscribe, "cuptiSubscribe") && get(EnableDomain, "cuptiEnableDomain") &&
           (get(EnableHWTrace, "cuptiActivityEnableHWTrace") || true);
  }
};

// One record kept until the next flush.
struct Record {
  uint64_t start = 0, end = 0;
  uint32_t correlation = 0;
  uint32_t device = 0;
  const char* category = "";
  std::string name, args;
};

struct Submission {
  int device = 0;
  uint64_t flow = 0;
};

}  // namespace

struct CuptiState {
  Cupti api;
  CuptiTracer tracer;
  uint64_t host_origin = 0, cupti_origin = 0;
  std::atomic<uint64_t> next_submission{1};
  std::mutex mutex;  // guards everything below
  std::vector<Record> records;
  std::unordered_map<uint32_t, uint64_t> correlation_to_submission;
  std::unordered_map<uint64_t, Submission> submissions;

  static std::mutex& names_mutex() {
    static std::mutex* m = new std::mutex();
    return *m;
  }
  static std::unordered_map<std::string, std::string>& names() {
    static auto* map = new std::unordered_map<std::string, std::string>();
    return *map;
  }

  uint64_t Host(uint64_t cupti_ns) const {
    return cupti_ns >= cupti_origin ? host_origin + (cupti_ns - cupti_origin) : host_origin;
  }
  void Parse(uint8_t* buffer, size_t valid);
  void Resolve();
};

namespace {

std::atomic<CuptiState*> g_state{nullptr};

// The submission the calling thread is launching (0: none), and the driver calls it made: a
// driver-API callback notes each call's correlation id, which CUPTI's records carry.
thread_local uint64_t t_submission = 0;
thread_local std::vector<uint32_t> t_correlations;

void CUPTIAPI OnDriverCall(void*, CUpti_CallbackDomain domain, CUpti_CallbackId, const void* data) {
  if (!t_submission || domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  if (call->callbackSite == CUPTI_API_ENTER) t_correlations.push_back(call->correlationId);
}

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferSize));
  *size = *buffer ? kBufferSize : 0;
  *max_records = 0;
}

void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  if (CuptiState* state = g_state.load(std::memory_order_acquire)) state->Parse(buffer, valid);
  std::free(buffer);
}

// Starts CUPTI once per process; null when it cannot be (no library, another major version).
CuptiState* Start() {
  static CuptiState* state = [] () -> CuptiState* {
    if (std::getenv("IREE_RT_TRACE_NO_CUPTI")) return nullptr;  // force CUDA events (tests)
    auto* s = new CuptiState();
    uint32_t version = 0;
    if (!s->api.Load() || s->api.GetVersion(&version) != CUPTI_SUCCESS ||
        version / 10000 != CUPTI_API_VERSION / 10000) {
      delete s;
      return nullptr;
    }
    g_state.store(s, std::memory_order_release);
    bool ok = s->api.ActivityRegisterCallbacks(BufferRequested, BufferCompleted) == CUPTI_SUCCESS;
    // Kernel timestamps from the hardware's event system where it has one (Blackwell on), instead of
    // instrumenting every kernel; NOT_SUPPORTED elsewhere, which keeps the instrumentation.
    if (ok && s->api.EnableHWTrace) s->api.EnableHWTrace(1);
    for (CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                    CUPTI_ACTIVITY_KIND_MEMSET}) {
      ok = ok && s->api.ActivityEnable(kind) == CUPTI_SUCCESS;
    }
    CUpti_SubscriberHandle subscriber = nullptr;
    ok = ok && s->api.Subscribe(&subscriber, OnDriverCall, nullptr) == CUPTI_SUCCESS &&
         s->api.EnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API) == CUPTI_SUCCESS;
    ok = ok && s->api.GetTimestamp(&s->cupti_origin) == CUPTI_SUCCESS;
    s->host_origin = base::trace::NowNs();
    if (!ok) {
      g_state.store(nullptr, std::memory_order_release);
      return nullptr;  // leaked on purpose: CUPTI may still call back
    }
    base::trace::AddFlushHook([s] { s->Resolve(); });
    return s;
  }();
  return state;
}

}  // namespace

void CuptiState::Parse(uint8_t* buffer, size_t valid) {
  std::vector<Record> parsed;
  CUpti_Activity* record = nullptr;
  while (api.ActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_KERNEL:
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        Record r{k->start, k->end, k->correlationId, k->deviceId, "kernel", k->name ? k->name : "?", {}};
        {
          std::lock_guard<std::mutex> lock(names_mutex());
          auto it = names().find(r.name);
          if (it != names().end()) {
            r.category = "dispatch";
            r.name = it->second;
          }
        }
        if (r.name.find("ncclDevKernel") != std::string::npos || r.name.find("ncclKernel") != std::string::npos) {
          r.category = "collective";  // NCCL's, launched for a collective command
        }
        if (std::strcmp(r.category, "dispatch") == 0) {
          r.args = DispatchArgs(r.name, k->gridX, k->gridY, k->gridZ);
        } else {
          r.args = base::StrCat("\"grid\":[", k->gridX, ",", k->gridY, ",", k->gridZ, "]");
        }
        parsed.push_back(std::move(r));
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        parsed.push_back({m->start, m->end, m->correlationId, m->deviceId, "transfer", "copy",
                          base::StrCat("\"bytes\":", m->bytes)});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        parsed.push_back({m->start, m->end, m->correlationId, m->deviceId, "transfer", "fill",
                          base::StrCat("\"bytes\":", m->bytes)});
        break;
      }
      default:
        break;
    }
  }
  std::lock_guard<std::mutex> lock(mutex);
  for (auto& r : parsed) records.push_back(std::move(r));
}

void CuptiState::Resolve() {
  api.ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::vector<Record> taken;
  std::vector<uint64_t> owners;  // per record, its submission (0: none)
  std::unordered_map<uint64_t, Submission> subs;
  {
    std::lock_guard<std::mutex> lock(mutex);
    taken.swap(records);
    owners.reserve(taken.size());
    for (const Record& r : taken) {
      auto it = correlation_to_submission.find(r.correlation);
      owners.push_back(it == correlation_to_submission.end() ? 0 : it->second);
    }
    subs = submissions;
  }
  // Per device: each submission's hull is its command buffer span, its records the spans inside.
  std::map<int, std::vector<DeviceSpan>> by_device;
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> hulls;  // submission -> [start, end]
  for (size_t i = 0; i < taken.size(); ++i) {
    const Record& r = taken[i];
    const uint64_t start = Host(r.start), end = std::max(Host(r.end), start);
    by_device[static_cast<int>(r.device)].push_back({start, end, r.category, r.name, r.args, 0});
    if (!owners[i]) continue;
    auto [hull, inserted] = hulls.try_emplace(owners[i], start, end);
    if (!inserted) {
      hull->second.first = std::min(hull->second.first, start);
      hull->second.second = std::max(hull->second.second, end);
    }
  }
  for (const auto& [id, hull] : hulls) {
    auto sub = subs.find(id);
    const int device = sub != subs.end() ? sub->second.device : 0;
    const uint64_t flow = sub != subs.end() ? sub->second.flow : 0;
    by_device[device].push_back({hull.first, hull.second, "queue", "command buffer", "", flow});
  }
  for (auto& [device, spans] : by_device) {
    EmitDeviceSpans(base::StrCat("cuda:", device, " queue 0"), spans);
  }
  // A submission whose records came is forgotten; one with none yet stays. (Work still running
  // at a flush may have part of its records converted without the rest: flushes come at the end.)
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto& [id, hull] : hulls) submissions.erase(id);
  std::erase_if(correlation_to_submission, [&](const auto& entry) { return hulls.count(entry.second) != 0; });
}

CuptiTracer* CuptiTracer::Get() {
  if (!base::trace::Enabled()) return nullptr;
  CuptiState* state = Start();
  return state ? &state->tracer : nullptr;
}

bool CuptiTracer::Active() { return Get() != nullptr; }

void CuptiTracer::RegisterKernel(std::string_view entry_name, std::string_view export_name) {
  std::lock_guard<std::mutex> lock(CuptiState::names_mutex());
  CuptiState::names().emplace(std::string(entry_name), std::string(export_name));
}

uint64_t CuptiTracer::BeginSubmission() {
  CuptiState* state = g_state.load(std::memory_order_acquire);
  t_submission = state->next_submission.fetch_add(1, std::memory_order_relaxed);
  t_correlations.clear();
  return t_submission;
}

void CuptiTracer::EndSubmission(uint64_t id, int device, uint64_t flow) {
  CuptiState* state = g_state.load(std::memory_order_acquire);
  t_submission = 0;
  std::lock_guard<std::mutex> lock(state->mutex);
  for (uint32_t correlation : t_correlations) state->correlation_to_submission[correlation] = id;
  state->submissions[id] = {device, flow};
}

}  // namespace iree_rt::drivers::cuda

#else  // no <cupti.h>: CUDA events time the work (cuda::TraceTimer)

namespace iree_rt::drivers::cuda {

CuptiTracer* CuptiTracer::Get() { return nullptr; }
bool CuptiTracer::Active() { return false; }
void CuptiTracer::RegisterKernel(std::string_view, std::string_view) {}
uint64_t CuptiTracer::BeginSubmission() { return 0; }
void CuptiTracer::EndSubmission(uint64_t, int, uint64_t) {}

}  // namespace iree_rt::drivers::cuda

#endif
