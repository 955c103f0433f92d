// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::Limits: the caps a context enforces on the programs it runs, and ContextQuota, the view of
// them (plus the context's memory budget) that module states and the interpreter check against.
//
// Every cap, when passed, fails the operation with RESOURCE_EXHAUSTED naming the limit, the
// amount asked for and the cap; the program's call fails, the context stays usable. The
// defaults are the ones include/iree_rt.h documents (IREE_RT_LIMIT_*).
#ifndef IREE_RT_VM_LIMITS_H_
#define IREE_RT_VM_LIMITS_H_

#include <cstdint>
#include <string_view>

#include "base/memory_budget.h"
#include "base/ref_object.h"
#include "base/status.h"

namespace iree_rt::vm {

inline constexpr uint64_t kUnlimited = UINT64_MAX;

struct Limits {
  // Nested calls (bytecode frames and native calls) of one invocation.
  uint64_t max_call_depth = 1024;
  // Elements of one vm.list.
  uint64_t max_list_length = uint64_t{1} << 24;
  // Bytes of one VM buffer or HAL buffer allocated by a program.
  uint64_t max_allocation_size = uint64_t{1} << 34;
  // Bytes a context holds at once: VM buffers, list storage, globals, HAL buffers.
  uint64_t max_context_memory = kUnlimited;
  // Bytes of a module at load.
  uint64_t max_module_size = uint64_t{1} << 34;
  // Backward branches plus calls one invocation may execute (runaway-loop guard).
  uint64_t max_call_steps = kUnlimited;
};

// Limit ids: the values of include/iree_rt.h's iree_rt_limit_t (the shim static_asserts that).
enum class LimitId : uint32_t {
  kMaxCallDepth = 1,
  kMaxListLength = 2,
  kMaxAllocationSize = 3,
  kMaxContextMemory = 4,
  kMaxModuleSize = 5,
  kMaxCallSteps = 6,
};

// The field of |limits| that |id| names; INVALID_ARGUMENT for an unknown id.
base::StatusOr<uint64_t*> LimitField(Limits& limits, uint32_t id);
// Sets limit |id| to |value|: INVALID_ARGUMENT for an unknown id or a value of 0 (every cap
// must allow something; kUnlimited lifts one).
base::Status SetLimit(Limits& limits, uint32_t id, uint64_t value);
// The id of the limit called |name| ("max_call_depth", as the tools' --limit flag spells it);
// INVALID_ARGUMENT listing the names for an unknown one.
base::StatusOr<uint32_t> LimitIdByName(std::string_view name);

// RESOURCE_EXHAUSTED for |requested| over |cap|, in the one message shape every limit uses:
// "<what> of <requested> <unit> exceeds the limit of <cap> (IREE_RT_LIMIT_<name>)".
base::Status LimitExceeded(std::string_view what, uint64_t requested, std::string_view unit,
                           uint64_t cap, std::string_view limit_name);

// What a context's module states see: its limits and its memory budget. Owned by the context,
// which outlives every state it hands this to.
struct ContextQuota {
  Limits limits;
  base::Ref<base::MemoryBudget> budget;

  // Checks |bytes| against max_allocation_size, then charges it to the budget as |kind|.
  base::StatusOr<base::MemoryCharge> ChargeAllocation(uint64_t bytes, std::string_view what,
                                                      base::MemoryKind kind) const;
};

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_LIMITS_H_
