// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What every parameter archive harness checks of a parse that succeeded: each data entry lies
// inside the input (its first and last bytes are read, so ASan sees any range past the end),
// honours its alignment, and the entries merge into an index (no duplicate keys slipped through).
#ifndef IREE_RT_TESTS_FUZZ_FUZZ_PARAMETER_UTIL_H_
#define IREE_RT_TESTS_FUZZ_FUZZ_PARAMETER_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/parameter_entry.h"
#include "io/parameter_index.h"

namespace iree_rt::fuzz {

inline void CheckParameterEntries(const uint8_t* data, size_t size,
                                  base::StatusOr<std::vector<io::ParameterEntry>> parsed) {
  if (!parsed.ok()) return;
  volatile uint8_t sink = 0;
  for (const io::ParameterEntry& entry : *parsed) {
    if (entry.kind == io::ParameterKind::kSplat) {
      const uint8_t n = entry.pattern_length;
      if ((n != 1 && n != 2 && n != 4 && n != 8 && n != 16) || entry.length % n) __builtin_trap();
      continue;
    }
    if (entry.offset > size || entry.stored_length > size - entry.offset) __builtin_trap();
    if (entry.alignment == 0 || entry.offset % entry.alignment) __builtin_trap();
    if (entry.stored_length > entry.length) __builtin_trap();
    if (entry.stored_length) {
      sink = sink + data[entry.offset] + data[entry.offset + entry.stored_length - 1];
    }
  }
  io::ParameterIndex index("fuzz");
  if (!index.AddFile("fuzz", std::move(parsed).value()).ok()) __builtin_trap();
}

}  // namespace iree_rt::fuzz

#endif  // IREE_RT_TESTS_FUZZ_FUZZ_PARAMETER_UTIL_H_
