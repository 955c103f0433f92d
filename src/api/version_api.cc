// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Version queries and iree_rt_get_proc.
#include <algorithm>
#include <cstring>

#include "api/handles.h"
#include "iree_rt.h"

static_assert(IREE_RT_ABI_VERSION ==
                  ((IREE_RT_ABI_VERSION_MAJOR << 16) | IREE_RT_ABI_VERSION_MINOR),
              "IREE_RT_ABI_VERSION must equal (major << 16) | minor");

namespace {

struct ProcEntry {
  const char* name;
  iree_rt_proc_t proc;
};

}  // namespace

uint32_t iree_rt_get_abi_version(void) { return IREE_RT_ABI_VERSION; }

// IREE_RT_VERSION_STRING ("1.0.0 (ABI 1.0)") is defined by src/api/CMakeLists.txt.
const char* iree_rt_get_version_string(void) { return IREE_RT_VERSION_STRING; }

iree_rt_proc_t iree_rt_get_proc(const char* name) {
  if (!name) return nullptr;
  using iree_rt::api::ToProc;
  // Generated from include/iree_rt.symbols, sorted by name (strcmp order).
  static const ProcEntry kProcs[] = {
#include "api/proc_table.inc"
  };
  auto end = std::end(kProcs);
  auto it = std::lower_bound(
      std::begin(kProcs), end, name,
      [](const ProcEntry& entry, const char* key) { return std::strcmp(entry.name, key) < 0; });
  return it != end && std::strcmp(it->name, name) == 0 ? it->proc : nullptr;
}
