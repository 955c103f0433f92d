// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/memory_budget.h"

namespace iree_rt::base {
namespace {

void RaisePeak(std::atomic<uint64_t>& peak, uint64_t now) {
  uint64_t seen = peak.load(std::memory_order_relaxed);
  while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
}

}  // namespace

std::string_view MemoryKindName(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::kHalBuffer: return "hal.buffer";
    case MemoryKind::kVmBuffer: return "vm.buffer";
    case MemoryKind::kVmList: return "vm.list";
    case MemoryKind::kGlobals: return "globals";
    case MemoryKind::kOther: break;
  }
  return "other";
}

Status MemoryBudget::Charge(uint64_t bytes, std::string_view what, MemoryKind kind) {
  const uint64_t limit = this->limit();
  uint64_t used = used_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit || used > limit - bytes) {
      return Status(StatusCode::kResourceExhausted,
                    StrCat("context memory limit exceeded: ", what, " needs ", bytes,
                           " bytes with ", used, " bytes in use, over the limit of ", limit,
                           " bytes (IREE_RT_LIMIT_MAX_CONTEXT_MEMORY); ", DescribeLive()));
    }
  } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  RaisePeak(peak_, used + bytes);
  KindCounters& counters = kinds_[Index(kind)];
  RaisePeak(counters.peak, counters.bytes.fetch_add(bytes, std::memory_order_relaxed) + bytes);
  return Status();
}

void MemoryBudget::Credit(uint64_t bytes, MemoryKind kind) {
  kinds_[Index(kind)].bytes.fetch_sub(bytes, std::memory_order_relaxed);
  used_.fetch_sub(bytes, std::memory_order_relaxed);
}

std::string MemoryBudget::DescribeLive() const {
  std::string out = "live then:";
  bool any = false;
  for (size_t i = 0; i < kMemoryKindCount; ++i) {
    const KindCounters& counters = kinds_[i];
    const uint64_t peak = counters.peak.load(std::memory_order_relaxed);
    const int64_t objects = counters.objects.load(std::memory_order_relaxed);
    if (peak == 0 && objects == 0) continue;
    out += StrCat(any ? ", " : " ", MemoryKindName(static_cast<MemoryKind>(i)), " ",
                  counters.bytes.load(std::memory_order_relaxed), " B in ", objects, " (peak ",
                  peak, " B)");
    any = true;
  }
  if (!any) out += " nothing";
  return StrCat(out, "; context peak ", peak(), " B");
}

StatusOr<MemoryCharge> MemoryCharge::Take(MemoryBudget* budget, uint64_t bytes,
                                          std::string_view what, MemoryKind kind) {
  MemoryCharge charge;
  if (budget == nullptr) return charge;
  // Nothing to charge is never over the limit, even one lowered below the current use.
  if (bytes != 0) RT_RETURN_IF_ERROR(budget->Charge(bytes, what, kind));
  budget->AddObject(kind, 1);
  charge.budget_ = Ref<MemoryBudget>::Retain(budget);
  charge.bytes_ = bytes;
  charge.kind_ = kind;
  return charge;
}

Status MemoryCharge::Resize(uint64_t bytes, std::string_view what) {
  if (!budget_) return Status();
  if (bytes > bytes_) {
    RT_RETURN_IF_ERROR(budget_->Charge(bytes - bytes_, what, kind_));
  } else {
    budget_->Credit(bytes_ - bytes, kind_);
  }
  bytes_ = bytes;
  return Status();
}

}  // namespace iree_rt::base
