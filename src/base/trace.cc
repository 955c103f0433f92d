// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/trace.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace iree_rt::base::trace {

namespace internal {
std::atomic<bool> enabled{false};
}  // namespace internal

namespace {

struct Event {
  char ph = 'X';
  uint32_t track = 0;  // 0: the writing thread's host track
  uint64_t ts_ns = 0;
  uint64_t dur_ns = 0;
  double value = 0;  // "C"
  uint64_t flow_id = 0;  // "s", "f"
  std::string category;  // "X": the category; "C": the series
  std::string name;
  std::string args;
};

constexpr size_t kChunkEvents = 256;

struct Chunk {
  Event events[kChunkEvents];
  std::atomic<Chunk*> next{nullptr};
};

// One thread's events. Only the owning thread writes |count| and the chunks; readers see the
// events below |count| (acquire), which are never written again.
struct ThreadBuffer {
  uint32_t tid = 0;
  Chunk head;
  Chunk* tail = &head;  // writer only
  std::atomic<size_t> count{0};
  size_t base = 0;  // events before this belong to an earlier Start (under the registry mutex)
};

struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<ThreadBuffer>> threads;
  std::vector<std::string> tracks;  // track id i+1
  std::string path;
  bool started = false;
  uint64_t origin_ns = 0;
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: worker threads may outlive statics
  return *r;
}

struct Hooks {
  std::mutex mutex;  // held while the hooks run
  uint64_t next_id = 1;
  std::vector<std::pair<uint64_t, std::function<void()>>> hooks;
};

Hooks& hooks() {
  static Hooks* h = new Hooks();
  return *h;
}

void RunFlushHooks() {
  Hooks& h = hooks();
  std::lock_guard<std::mutex> lock(h.mutex);
  for (auto& [id, hook] : h.hooks) hook();
}

thread_local ThreadBuffer* t_buffer = nullptr;

ThreadBuffer& CurrentBuffer() {
  if (t_buffer) return *t_buffer;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto buffer = std::make_unique<ThreadBuffer>();
  buffer->tid = static_cast<uint32_t>(r.threads.size() + 1);
  t_buffer = buffer.get();
  r.threads.push_back(std::move(buffer));
  return *t_buffer;
}

Event& NextSlot(ThreadBuffer& buffer, size_t index) {
  if (index > 0 && index % kChunkEvents == 0) {
    Chunk* chunk = new Chunk();
    buffer.tail->next.store(chunk, std::memory_order_release);
    buffer.tail = chunk;
  }
  return buffer.tail->events[index % kChunkEvents];
}

void Append(Event event) {
  ThreadBuffer& buffer = CurrentBuffer();
  const size_t index = buffer.count.load(std::memory_order_relaxed);
  NextSlot(buffer, index) = std::move(event);
  buffer.count.store(index + 1, std::memory_order_release);
}

// Calls |visit| on the events of |buffer| in [base, count). Registry mutex held.
template <typename F>
void ForEach(const ThreadBuffer& buffer, F&& visit) {
  const size_t count = buffer.count.load(std::memory_order_acquire);
  const Chunk* chunk = &buffer.head;
  for (size_t i = 0; i < count; ++i) {
    if (i > 0 && i % kChunkEvents == 0) chunk = chunk->next.load(std::memory_order_acquire);
    if (i >= buffer.base) visit(chunk->events[i % kChunkEvents]);
  }
}

void AppendMicros(std::string& out, uint64_t ns) {
  char text[48];
  std::snprintf(text, sizeof(text), "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
  out += text;
}

void AppendMetadata(std::string& out, const char* what, uint32_t pid, uint32_t tid,
                    std::string_view name) {
  out += StrCat("{\"name\":\"", what, "\",\"ph\":\"M\",\"pid\":", pid, ",\"tid\":", tid,
                ",\"args\":{\"name\":\"", JsonEscape(name), "\"}},\n");
}

std::string Render(Registry& r) {
  std::string out = "{\"traceEvents\":[\n";
  AppendMetadata(out, "process_name", 1, 0, "host");
  AppendMetadata(out, "process_name", 2, 0, "devices");
  for (size_t i = 0; i < r.tracks.size(); ++i) {
    AppendMetadata(out, "thread_name", 2, static_cast<uint32_t>(i + 1), r.tracks[i]);
  }
  for (const auto& buffer : r.threads) {
    bool any = false;
    ForEach(*buffer, [&](const Event& e) { any |= e.track == 0 && e.ph == 'X'; });
    if (any) AppendMetadata(out, "thread_name", 1, buffer->tid, StrCat("host thread ", buffer->tid));
  }
  for (const auto& buffer : r.threads) {
    ForEach(*buffer, [&](const Event& e) {
      const uint64_t ts = e.ts_ns > r.origin_ns ? e.ts_ns - r.origin_ns : 0;
      const uint32_t pid = e.track == 0 && e.ph != 'C' ? 1 : 2;
      const uint32_t tid = e.track == 0 ? buffer->tid : e.track;
      out += StrCat("{\"ph\":\"", std::string_view(&e.ph, 1), "\",\"pid\":", pid, ",\"tid\":",
                    e.ph == 'C' ? 0 : tid, ",\"name\":\"", JsonEscape(e.name), "\",\"ts\":");
      AppendMicros(out, ts);
      if (e.ph == 's' || e.ph == 'f') {
        out += StrCat(",\"cat\":\"flow\",\"id\":", e.flow_id, e.ph == 'f' ? ",\"bp\":\"e\"" : "",
                      "},\n");
        return;
      }
      if (e.ph == 'C') {
        char value[40];
        std::snprintf(value, sizeof(value), "%.17g", e.value);
        out += StrCat(",\"args\":{\"", JsonEscape(e.category), "\":", value, "}},\n");
        return;
      }
      out += ",\"dur\":";
      AppendMicros(out, e.dur_ns);
      out += StrCat(",\"cat\":\"", JsonEscape(e.category), "\"");
      if (!e.args.empty()) out += StrCat(",\"args\":{", e.args, "}");
      out += "},\n";
    });
  }
  out.resize(out.size() - 2);  // the last ",\n" (there is always metadata)
  out += "\n],\"displayTimeUnit\":\"ns\"}\n";
  return out;
}

Status FlushLocked(Registry& r) {
  if (!r.started || r.path.empty()) return Status::Ok();
  const std::string text = Render(r);
  std::FILE* file = std::fopen(r.path.c_str(), "wb");
  if (!file) return UnavailableError("cannot write the trace file '", r.path, "'");
  const bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !ok) {
    return UnavailableError("cannot write the trace file '", r.path, "'");
  }
  return Status::Ok();
}

}  // namespace

uint64_t NowNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

void Start(std::string_view path) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (!path.empty()) r.path = std::string(path);
  if (r.started) return;
  r.started = true;
  r.origin_ns = NowNs();
  for (auto& buffer : r.threads) buffer->base = buffer->count.load(std::memory_order_acquire);
  internal::enabled.store(true, std::memory_order_relaxed);
}

void StartFromEnvironment() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* path = std::getenv("IREE_RT_TRACE");
    if (path && *path) Start(path);
  });
}

Status Flush() {
  if (Enabled()) RunFlushHooks();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return FlushLocked(r);
}

Status Stop() {
  if (Enabled()) RunFlushHooks();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  Status status = FlushLocked(r);
  internal::enabled.store(false, std::memory_order_relaxed);
  r.started = false;
  r.path.clear();
  return status;
}

std::string Path() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.path;
}

uint32_t RegisterTrack(std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (size_t i = 0; i < r.tracks.size(); ++i) {
    if (r.tracks[i] == name) return static_cast<uint32_t>(i + 1);
  }
  r.tracks.emplace_back(name);
  return static_cast<uint32_t>(r.tracks.size());
}

void Complete(uint32_t track, std::string_view category, std::string_view name, uint64_t start_ns,
              uint64_t end_ns, std::string_view args_json) {
  if (!Enabled()) return;
  Event e;
  e.track = track;
  e.ts_ns = start_ns;
  e.dur_ns = end_ns > start_ns ? end_ns - start_ns : 0;
  e.category = std::string(category);
  e.name = std::string(name);
  e.args = std::string(args_json);
  Append(std::move(e));
}

void Counter(std::string_view name, std::string_view series, uint64_t time_ns, double value) {
  if (!Enabled()) return;
  Event e;
  e.ph = 'C';
  e.ts_ns = time_ns;
  e.value = value;
  e.category = std::string(series);
  e.name = std::string(name);
  Append(std::move(e));
}

uint64_t NewFlowId() {
  static std::atomic<uint64_t> next{1};
  return Enabled() ? next.fetch_add(1, std::memory_order_relaxed) : 0;
}

void FlowStart(uint64_t id, uint64_t time_ns) {
  if (!Enabled() || !id) return;
  Event e;
  e.ph = 's';
  e.ts_ns = time_ns;
  e.flow_id = id;
  e.name = "submit";
  Append(std::move(e));
}

void FlowEnd(uint32_t track, uint64_t id, uint64_t time_ns) {
  if (!Enabled() || !id) return;
  Event e;
  e.ph = 'f';
  e.track = track;
  e.ts_ns = time_ns;
  e.flow_id = id;
  e.name = "submit";
  Append(std::move(e));
}

void VisitComplete(std::string_view category,
                   const std::function<void(std::string_view name, uint64_t dur_ns)>& visit) {
  if (Enabled()) RunFlushHooks();  // device spans still held by drivers (CUDA's timing events)
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto& buffer : r.threads) {
    ForEach(*buffer, [&](const Event& e) {
      if (e.ph == 'X' && e.category == category) visit(e.name, e.dur_ns);
    });
  }
}

uint64_t AddFlushHook(std::function<void()> hook) {
  Hooks& h = hooks();
  std::lock_guard<std::mutex> lock(h.mutex);
  h.hooks.emplace_back(h.next_id, std::move(hook));
  return h.next_id++;
}

void RemoveFlushHook(uint64_t id) {
  Hooks& h = hooks();
  std::lock_guard<std::mutex> lock(h.mutex);
  std::erase_if(h.hooks, [id](const auto& entry) { return entry.first == id; });
}

std::string JsonEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", u);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out;
}

void Scope::Begin(const char* category, const char* name) {
  category_ = category;
  name_ = name;
  start_ns_ = NowNs();
}

void Scope::End() {
  const bool named = extra_ && !extra_->name.empty();
  Complete(0, category_, named ? std::string_view(extra_->name) : std::string_view(name_),
           start_ns_, NowNs(), extra_ ? std::string_view(extra_->args) : std::string_view());
}

void Scope::set_name(std::string_view name) {
  if (!start_ns_) return;
  if (!extra_) extra_ = std::make_unique<Extra>();
  extra_->name = std::string(name);
}

void Scope::set_args(std::string args_json) {
  if (!start_ns_) return;
  if (!extra_) extra_ = std::make_unique<Extra>();
  extra_->args = std::move(args_json);
}

}  // namespace iree_rt::base::trace
