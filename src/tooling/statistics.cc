// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "tooling/statistics.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

#include "base/trace.h"
#include "hal/allocator.h"

namespace iree_rt::tooling {

std::string FormatAllocatorStatistics(std::span<const base::Ref<hal::Device>> devices) {
  std::string out;
  for (const base::Ref<hal::Device>& device : devices) {
    const hal::AllocatorStatistics stats = device->allocator().statistics();
    out += base::StrCat("[statistics] device ", device->id(), ": live ", stats.bytes_allocated,
                        " B, peak ", stats.peak_bytes_allocated, " B, allocations ",
                        stats.allocation_count, "\n");
    const std::pair<const char*, const hal::AllocatorStatistics::ByType*> types[] = {
        {"DEVICE_LOCAL", &stats.device_local}, {"HOST_LOCAL", &stats.host_local}};
    for (const auto& [name, typed] : types) {
      out += base::StrCat("[statistics]   ", name, ": live ", typed->bytes_allocated, " B, peak ",
                          typed->peak_bytes_allocated, " B, allocations ", typed->allocation_count,
                          "\n");
    }
  }
  return out;
}

std::string FormatDispatchStatistics() {
  struct Totals {
    uint64_t count = 0, total = 0, min = UINT64_MAX, max = 0;
  };
  std::map<std::string, Totals, std::less<>> by_name;
  base::trace::VisitComplete("dispatch", [&](std::string_view name, uint64_t dur_ns) {
    auto it = by_name.find(name);
    if (it == by_name.end()) it = by_name.emplace(std::string(name), Totals()).first;
    Totals& t = it->second;
    ++t.count;
    t.total += dur_ns;
    t.min = std::min(t.min, dur_ns);
    t.max = std::max(t.max, dur_ns);
  });
  std::vector<std::pair<std::string, Totals>> rows(by_name.begin(), by_name.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second.total > b.second.total; });
  std::string out = base::StrCat("[dispatch] ", rows.size(), " exports dispatched\n");
  for (const auto& [name, t] : rows) {
    char numbers[160];
    std::snprintf(numbers, sizeof(numbers),
                  " count=%" PRIu64 " total_us=%.3f mean_us=%.3f min_us=%.3f max_us=%.3f\n",
                  t.count, t.total / 1e3, t.total / 1e3 / static_cast<double>(t.count), t.min / 1e3,
                  t.max / 1e3);
    out += base::StrCat("[dispatch] ", name, numbers);
  }
  return out;
}

}  // namespace iree_rt::tooling
