// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// MemoryBudget: a byte count shared by everything one context allocates (VM buffers, lists,
// globals, HAL buffers made through the hal module), with a cap; and MemoryCharge, the RAII
// share of it that an allocation holds until it is freed.
//
// Charging happens once per allocation, never per instruction, so the counters are plain atomics:
// objects charged by a context may be released on any thread (a queue retiring a HAL buffer).
// The budget also keeps live bytes, live objects and peaks per MemoryKind, so a refused charge
// says what held the memory when it happened (an out-of-memory report without a trace).
#ifndef IREE_RT_BASE_MEMORY_BUDGET_H_
#define IREE_RT_BASE_MEMORY_BUDGET_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "base/ref_object.h"
#include "base/status.h"

namespace iree_rt::base {

// What a charge pays for; the names are the ones a refused charge's message uses.
enum class MemoryKind : uint8_t { kHalBuffer, kVmBuffer, kVmList, kGlobals, kOther };
inline constexpr size_t kMemoryKindCount = 5;
std::string_view MemoryKindName(MemoryKind kind);  // "hal.buffer", "vm.buffer", ...

class MemoryBudget final : public RefObject {
 public:
  explicit MemoryBudget(uint64_t limit) : limit_(limit) {}

  // Adds |bytes| of |kind|; RESOURCE_EXHAUSTED naming |what|, the request, the use and the cap
  // if the total would pass the limit (then nothing is added), followed by DescribeLive().
  Status Charge(uint64_t bytes, std::string_view what, MemoryKind kind = MemoryKind::kOther);
  void Credit(uint64_t bytes, MemoryKind kind = MemoryKind::kOther);
  // Live objects of |kind| (MemoryCharge counts itself from Take to its end).
  void AddObject(MemoryKind kind, int64_t delta) {
    kinds_[Index(kind)].objects.fetch_add(delta, std::memory_order_relaxed);
  }

  uint64_t used() const { return used_.load(std::memory_order_relaxed); }
  uint64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  uint64_t limit() const { return limit_.load(std::memory_order_relaxed); }
  // Lowering the cap below the current use fails only later charges.
  void set_limit(uint64_t limit) { limit_.store(limit, std::memory_order_relaxed); }

  // "live then: vm.buffer 3145728 B in 1 (peak 3145728 B), globals 64 B in 1 (peak 64 B);
  // context peak 3145792 B": each kind that ever held memory or an object.
  std::string DescribeLive() const;

 private:
  struct KindCounters {
    std::atomic<uint64_t> bytes{0};
    std::atomic<uint64_t> peak{0};
    std::atomic<int64_t> objects{0};
  };
  static size_t Index(MemoryKind kind) { return static_cast<size_t>(kind); }

  std::atomic<uint64_t> used_{0};
  std::atomic<uint64_t> peak_{0};
  std::atomic<uint64_t> limit_;
  KindCounters kinds_[kMemoryKindCount];
};

// |bytes| charged to a budget, credited back when destroyed. Empty (no budget) charges nothing,
// which is what objects the host creates carry.
class MemoryCharge {
 public:
  MemoryCharge() = default;
  MemoryCharge(MemoryCharge&& other) noexcept
      : budget_(std::move(other.budget_)),
        bytes_(std::exchange(other.bytes_, 0)),
        kind_(other.kind_) {}
  MemoryCharge& operator=(MemoryCharge&& other) noexcept {
    Reset();
    budget_ = std::move(other.budget_);
    bytes_ = std::exchange(other.bytes_, 0);
    kind_ = other.kind_;
    return *this;
  }
  ~MemoryCharge() { Reset(); }

  // Charges |bytes| of |kind| to |budget| (null: charges nothing and succeeds); the charge counts
  // as one live object of |kind| until it ends.
  static StatusOr<MemoryCharge> Take(MemoryBudget* budget, uint64_t bytes, std::string_view what,
                                     MemoryKind kind = MemoryKind::kOther);

  // Moves the charge to |bytes|: growth is charged (and may fail, leaving it unchanged),
  // shrinking credits the difference.
  Status Resize(uint64_t bytes, std::string_view what);

  MemoryBudget* budget() const { return budget_.get(); }
  uint64_t bytes() const { return bytes_; }

 private:
  void Reset() {
    if (budget_) {
      if (bytes_ != 0) budget_->Credit(bytes_, kind_);
      budget_->AddObject(kind_, -1);
    }
    budget_ = nullptr;
    bytes_ = 0;
  }

  Ref<MemoryBudget> budget_;
  uint64_t bytes_ = 0;
  MemoryKind kind_ = MemoryKind::kOther;
};

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_MEMORY_BUDGET_H_
