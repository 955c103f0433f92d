// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// MemoryBudget: a byte count shared by everything one context allocates (VM buffers, lists,
// globals, HAL buffers made through the hal module), with a cap; and MemoryCharge, the RAII
// share of it that an allocation holds until it is freed.
//
// Charging happens once per allocation, never per instruction, so the counter is a plain atomic:
// objects charged by a context may be released on any thread (a queue retiring a HAL buffer).
#ifndef IREE_RT_BASE_MEMORY_BUDGET_H_
#define IREE_RT_BASE_MEMORY_BUDGET_H_

#include <atomic>
#include <cstdint>
#include <string_view>
#include <utility>

#include "base/ref_object.h"
#include "base/status.h"

namespace iree_rt::base {

class MemoryBudget final : public RefObject {
 public:
  explicit MemoryBudget(uint64_t limit) : limit_(limit) {}

  // Adds |bytes|; RESOURCE_EXHAUSTED naming |what|, the request, the use and the cap if the
  // total would pass the limit (then nothing is added).
  Status Charge(uint64_t bytes, std::string_view what);
  void Credit(uint64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

  uint64_t used() const { return used_.load(std::memory_order_relaxed); }
  uint64_t limit() const { return limit_.load(std::memory_order_relaxed); }
  // Lowering the cap below the current use fails only later charges.
  void set_limit(uint64_t limit) { limit_.store(limit, std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> used_{0};
  std::atomic<uint64_t> limit_;
};

// |bytes| charged to a budget, credited back when destroyed. Empty (no budget) charges nothing,
// which is what objects the host creates carry.
class MemoryCharge {
 public:
  MemoryCharge() = default;
  MemoryCharge(MemoryCharge&& other) noexcept
      : budget_(std::move(other.budget_)), bytes_(std::exchange(other.bytes_, 0)) {}
  MemoryCharge& operator=(MemoryCharge&& other) noexcept {
    Reset();
    budget_ = std::move(other.budget_);
    bytes_ = std::exchange(other.bytes_, 0);
    return *this;
  }
  ~MemoryCharge() { Reset(); }

  // Charges |bytes| to |budget| (null: charges nothing and succeeds).
  static StatusOr<MemoryCharge> Take(MemoryBudget* budget, uint64_t bytes, std::string_view what);

  // Moves the charge to |bytes|: growth is charged (and may fail, leaving it unchanged),
  // shrinking credits the difference.
  Status Resize(uint64_t bytes, std::string_view what);

  MemoryBudget* budget() const { return budget_.get(); }
  uint64_t bytes() const { return bytes_; }

 private:
  void Reset() {
    if (budget_ && bytes_ != 0) budget_->Credit(bytes_);
    budget_ = nullptr;
    bytes_ = 0;
  }

  Ref<MemoryBudget> budget_;
  uint64_t bytes_ = 0;
};

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_MEMORY_BUDGET_H_
