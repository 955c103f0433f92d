// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/limits.h"

#include <string>

namespace iree_rt::vm {

base::Status LimitExceeded(std::string_view what, uint64_t requested, std::string_view unit,
                           uint64_t cap, std::string_view limit_name) {
  return base::Status(base::StatusCode::kResourceExhausted,
                      base::StrCat(what, " of ", requested, " ", unit, " exceeds the limit of ",
                                   cap, " (IREE_RT_LIMIT_", limit_name, ")"));
}

namespace {

struct LimitEntry {
  LimitId id;
  const char* name;
  uint64_t Limits::*field;
};
constexpr LimitEntry kLimitTable[] = {
    {LimitId::kMaxCallDepth, "max_call_depth", &Limits::max_call_depth},
    {LimitId::kMaxListLength, "max_list_length", &Limits::max_list_length},
    {LimitId::kMaxAllocationSize, "max_allocation_size", &Limits::max_allocation_size},
    {LimitId::kMaxContextMemory, "max_context_memory", &Limits::max_context_memory},
    {LimitId::kMaxModuleSize, "max_module_size", &Limits::max_module_size},
    {LimitId::kMaxCallSteps, "max_call_steps", &Limits::max_call_steps},
};

}  // namespace

base::StatusOr<uint64_t*> LimitField(Limits& limits, uint32_t id) {
  for (const LimitEntry& entry : kLimitTable) {
    if (static_cast<uint32_t>(entry.id) == id) return &(limits.*entry.field);
  }
  return base::InvalidArgumentError("unknown limit id ", id);
}

base::Status SetLimit(Limits& limits, uint32_t id, uint64_t value) {
  RT_ASSIGN_OR_RETURN(uint64_t * field, LimitField(limits, id));
  if (value == 0) {
    return base::InvalidArgumentError("limit ", kLimitTable[id - 1].name,
                                      " must be at least 1 (IREE_RT_LIMIT_UNLIMITED lifts it)");
  }
  *field = value;
  return base::Status();
}

base::StatusOr<uint32_t> LimitIdByName(std::string_view name) {
  std::string names;
  for (const LimitEntry& entry : kLimitTable) {
    if (name == entry.name) return static_cast<uint32_t>(entry.id);
    names += names.empty() ? entry.name : std::string(", ") + entry.name;
  }
  return base::InvalidArgumentError("unknown limit '", name, "' (known: ", names, ")");
}

base::StatusOr<base::MemoryCharge> ContextQuota::ChargeAllocation(uint64_t bytes,
                                                                  std::string_view what,
                                                                  base::MemoryKind kind) const {
  if (bytes > limits.max_allocation_size) {
    return LimitExceeded(what, bytes, "bytes", limits.max_allocation_size, "MAX_ALLOCATION_SIZE");
  }
  return base::MemoryCharge::Take(budget.get(), bytes, what, kind);
}

}  // namespace iree_rt::vm
