// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "trace_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>
#include <utility>

#include "base/mapped_file.h"
#include "io/json_reader.h"

namespace iree_rt::tools::trace {
namespace {

using io::JsonValue;

// Builds a TraceFile from events handed over one at a time.
class TraceBuilder {
 public:
  explicit TraceBuilder(std::string_view file_name) : file_name_(file_name) {}

  base::Status Add(const JsonValue& event) {
    const uint64_t index = file_.events++;
    if (event.type != JsonValue::Type::kObject) return Error(index, "is not an object");
    const JsonValue* ph = event.Find("ph");
    if (!ph || ph->type != JsonValue::Type::kString || ph->text.size() != 1) {
      return Error(index, "has no one-letter 'ph'");
    }
    const char phase = ph->text[0];
    if (phase == 'M') return AddMetadata(event);
    if (phase != 'X' && phase != 'B' && phase != 'E') {
      ++file_.other_events;
      return base::Status::Ok();
    }
    const JsonValue* name = event.Find("name");
    if (phase != 'E' && (!name || name->type != JsonValue::Type::kString)) {
      return Error(index, "has no string 'name'");
    }
    int64_t ts = 0;
    RT_RETURN_IF_ERROR(Time(event, "ts", index, ts));
    const JsonValue* cat = event.Find("cat");
    const uint32_t track = Track(Id(event.Find("pid")), Id(event.Find("tid")));
    if (phase == 'B') {
      open_[track].push_back(Open{Intern(name->text), Intern(Category(cat)), ts});
      return base::Status::Ok();
    }
    if (phase == 'E') {
      auto& stack = open_[track];
      if (stack.empty()) return Error(index, "is an 'E' without a 'B' on its track");
      const Open begin = stack.back();
      stack.pop_back();
      return AddSpan(TraceSpan{track, begin.name, begin.category, 0, begin.ts, ts - begin.ts},
                     index);
    }
    int64_t dur = 0;
    RT_RETURN_IF_ERROR(Time(event, "dur", index, dur));
    return AddSpan(TraceSpan{track, Intern(name->text), Intern(Category(cat)), 0, ts, dur}, index);
  }

  TraceFile Finish() && {
    for (TraceTrack& track : file_.tracks) {
      auto process = process_names_.find(track.pid);
      track.process = process != process_names_.end() ? process->second
                                                      : base::StrCat("pid ", track.pid);
      auto thread = thread_names_.find({track.pid, track.tid});
      track.name = thread != thread_names_.end() ? thread->second : base::StrCat("tid ", track.tid);
    }
    Nest();
    return std::move(file_);
  }

 private:
  struct Open {
    uint32_t name, category;
    int64_t ts;
  };

  base::Status Error(uint64_t index, std::string_view problem) const {
    return base::InvalidArgumentError(file_name_, ": not a trace: event ", index, " ", problem);
  }

  static std::string_view Category(const JsonValue* cat) {
    return cat && cat->type == JsonValue::Type::kString ? std::string_view(cat->text) : "";
  }

  // pid/tid: integers in base::trace's files; other tools write strings, which get their own id.
  int64_t Id(const JsonValue* value) {
    if (!value) return 0;
    if (value->type == JsonValue::Type::kNumber) {
      int64_t id = 0;
      const auto [end, ec] =
          std::from_chars(value->text.data(), value->text.data() + value->text.size(), id);
      if (ec == std::errc() && end == value->text.data() + value->text.size()) return id;
    }
    const int64_t next = -1 - static_cast<int64_t>(string_ids_.size());
    return string_ids_.try_emplace(value->text, next).first->second;
  }

  // A microsecond number (fractions allowed) as whole nanoseconds.
  base::Status Time(const JsonValue& event, const char* key, uint64_t index, int64_t& out) const {
    const JsonValue* value = event.Find(key);
    double micros = 0;
    if (!value || value->type != JsonValue::Type::kNumber ||
        std::from_chars(value->text.data(), value->text.data() + value->text.size(), micros).ec !=
            std::errc() ||
        !std::isfinite(micros) || std::fabs(micros) > 9e12) {
      return Error(index, base::StrCat("has no numeric '", key, "'"));
    }
    out = std::llround(micros * 1000.0);
    if (out < 0 && std::string_view(key) == "dur") return Error(index, "has a negative 'dur'");
    return base::Status::Ok();
  }

  base::Status AddMetadata(const JsonValue& event) {
    const JsonValue* name = event.Find("name");
    const JsonValue* args = event.Find("args");
    const JsonValue* label = args ? args->Find("name") : nullptr;
    if (!name || !label || label->type != JsonValue::Type::kString) {
      ++file_.other_events;  // other metadata (sort indices, labels): not needed here
      return base::Status::Ok();
    }
    const int64_t pid = Id(event.Find("pid"));
    if (name->text == "process_name") process_names_[pid] = label->text;
    if (name->text == "thread_name") thread_names_[{pid, Id(event.Find("tid"))}] = label->text;
    return base::Status::Ok();
  }

  base::Status AddSpan(TraceSpan span, uint64_t index) {
    if (span.dur_ns < 0) return Error(index, "ends before it starts");
    file_.spans.push_back(span);
    return base::Status::Ok();
  }

  uint32_t Track(int64_t pid, int64_t tid) {
    const auto next = static_cast<uint32_t>(file_.tracks.size());
    auto [it, added] = track_ids_.try_emplace({pid, tid}, next);
    if (added) file_.tracks.push_back(TraceTrack{pid, tid, {}, {}});
    return it->second;
  }

  uint32_t Intern(std::string_view text) {
    auto it = name_ids_.find(text);
    if (it != name_ids_.end()) return it->second;
    const auto id = static_cast<uint32_t>(file_.names.size());
    file_.names.emplace_back(text);
    name_ids_.emplace(std::string(text), id);
    return id;
  }

  // Sorts the spans by track and time and gives each its nesting depth on its track.
  void Nest() {
    std::stable_sort(file_.spans.begin(), file_.spans.end(),
                     [](const TraceSpan& a, const TraceSpan& b) {
                       if (a.track != b.track) return a.track < b.track;
                       if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
                       return a.dur_ns > b.dur_ns;
                     });
    std::vector<int64_t> ends;  // the open spans' ends on the current track
    uint32_t track = UINT32_MAX;
    bool first = true;
    for (TraceSpan& span : file_.spans) {
      if (span.track != track) ends.clear();
      track = span.track;
      while (!ends.empty() && span.start_ns >= ends.back()) ends.pop_back();
      span.depth = static_cast<uint32_t>(ends.size());
      ends.push_back(span.end_ns());
      file_.begin_ns = first ? span.start_ns : std::min(file_.begin_ns, span.start_ns);
      file_.end_ns = first ? span.end_ns() : std::max(file_.end_ns, span.end_ns());
      first = false;
    }
  }

  std::string_view file_name_;
  TraceFile file_;
  std::map<std::pair<int64_t, int64_t>, uint32_t> track_ids_;
  std::map<int64_t, std::string> process_names_;
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names_;
  std::map<std::string, int64_t, std::less<>> string_ids_;
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
  };
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> name_ids_;
  std::map<uint32_t, std::vector<Open>> open_;
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Walks a JSON array at |position| ('[' expected there), handing each element to |element|.
template <typename F>
base::Status ForEachElement(std::string_view text, std::string_view file_name, size_t& position,
                            F&& element) {
  auto skip = [&] {
    while (position < text.size() && IsSpace(text[position])) ++position;
  };
  auto error = [&](std::string_view problem) {
    return base::InvalidArgumentError(file_name, ": bad JSON at byte ", position, ": ",
                                      position >= text.size() ? "unexpected end of text" : problem);
  };
  ++position;  // '['
  skip();
  if (position < text.size() && text[position] == ']') {
    ++position;
    return base::Status::Ok();
  }
  while (true) {
    RT_ASSIGN_OR_RETURN(JsonValue value, io::ParseJsonValueAt(text, file_name, position));
    RT_RETURN_IF_ERROR(element(value));
    skip();
    if (position < text.size() && text[position] == ']') {
      ++position;
      return base::Status::Ok();
    }
    if (position >= text.size() || text[position] != ',') {
      return error("expected ',' or ']' in an array");
    }
    ++position;
  }
}

}  // namespace

int64_t TraceFile::FindName(std::string_view name) const {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int64_t>(i);
  }
  return -1;
}

base::StatusOr<TraceFile> ParseTrace(std::string_view text, std::string_view file_name) {
  TraceBuilder builder(file_name);
  auto add = [&](const JsonValue& event) { return builder.Add(event); };
  size_t position = 0;
  while (position < text.size() && IsSpace(text[position])) ++position;
  const auto not_a_trace = [&](std::string_view problem) {
    return base::InvalidArgumentError(file_name, ": not a trace: ", problem,
                                      " (expected {\"traceEvents\":[...]} or an array of events)");
  };
  if (position >= text.size()) return not_a_trace("the file is empty");
  bool found = false;
  if (text[position] == '[') {
    RT_RETURN_IF_ERROR(ForEachElement(text, file_name, position, add));
    found = true;
  } else if (text[position] == '{') {
    ++position;
    while (true) {
      while (position < text.size() && IsSpace(text[position])) ++position;
      if (position < text.size() && text[position] == '}') {
        ++position;
        break;
      }
      RT_ASSIGN_OR_RETURN(JsonValue key, io::ParseJsonValueAt(text, file_name, position));
      while (position < text.size() && IsSpace(text[position])) ++position;
      if (key.type != JsonValue::Type::kString || position >= text.size() ||
          text[position] != ':') {
        return base::InvalidArgumentError(file_name, ": bad JSON at byte ", position,
                                          ": expected a member name and ':'");
      }
      ++position;
      while (position < text.size() && IsSpace(text[position])) ++position;
      if (key.text == "traceEvents") {
        if (position >= text.size() || text[position] != '[') {
          return not_a_trace("traceEvents is not an array");
        }
        RT_RETURN_IF_ERROR(ForEachElement(text, file_name, position, add));
        found = true;
      } else {
        RT_RETURN_IF_ERROR(io::ParseJsonValueAt(text, file_name, position).status());
      }
      while (position < text.size() && IsSpace(text[position])) ++position;
      if (position < text.size() && text[position] == ',') {
        ++position;
        continue;
      }
      if (position < text.size() && text[position] == '}') {
        ++position;
        break;
      }
      return base::InvalidArgumentError(file_name, ": bad JSON at byte ", position, ": ",
                                        position >= text.size() ? "unexpected end of text"
                                                                : "expected ',' or '}'");
    }
    if (!found) return not_a_trace("the object has no traceEvents member");
  } else {
    return not_a_trace("the file is not a JSON object or array");
  }
  while (position < text.size() && IsSpace(text[position])) ++position;
  if (position != text.size()) {
    return base::InvalidArgumentError(file_name, ": bad JSON at byte ", position,
                                      ": trailing characters after the value");
  }
  return std::move(builder).Finish();
}

base::StatusOr<TraceFile> ReadTrace(const std::string& path) {
  RT_ASSIGN_OR_RETURN(base::Ref<base::MappedFile> file, base::MappedFile::Open(path));
  file->Prefetch();
  const auto bytes = file->span();
  return ParseTrace(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                    path);
}

}  // namespace iree_rt::tools::trace
