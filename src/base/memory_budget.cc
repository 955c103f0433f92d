// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/memory_budget.h"

namespace iree_rt::base {

Status MemoryBudget::Charge(uint64_t bytes, std::string_view what) {
  const uint64_t limit = this->limit();
  uint64_t used = used_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit || used > limit - bytes) {
      return Status(StatusCode::kResourceExhausted,
                    StrCat("context memory limit exceeded: ", what, " needs ", bytes,
                           " bytes with ", used, " bytes in use, over the limit of ", limit,
                           " bytes (IREE_RT_LIMIT_MAX_CONTEXT_MEMORY)"));
    }
  } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return Status();
}

StatusOr<MemoryCharge> MemoryCharge::Take(MemoryBudget* budget, uint64_t bytes,
                                          std::string_view what) {
  MemoryCharge charge;
  if (budget == nullptr) return charge;
  // Nothing to charge is never over the limit, even one lowered below the current use.
  if (bytes != 0) RT_RETURN_IF_ERROR(budget->Charge(bytes, what));
  charge.budget_ = Ref<MemoryBudget>::Retain(budget);
  charge.bytes_ = bytes;
  return charge;
}

Status MemoryCharge::Resize(uint64_t bytes, std::string_view what) {
  if (!budget_) return Status();
  if (bytes > bytes_) {
    RT_RETURN_IF_ERROR(budget_->Charge(bytes - bytes_, what));
  } else {
    budget_->Credit(bytes_ - bytes);
  }
  bytes_ = bytes;
  return Status();
}

}  // namespace iree_rt::base
