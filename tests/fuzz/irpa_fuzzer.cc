// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// .irpa archives: ParseIrpa over any bytes (chained headers, every entry type);
// a parse that succeeds must describe only bytes inside the input.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "fuzz_parameter_util.h"
#include "io/irpa_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace iree_rt;
  auto parsed = io::ParseIrpa(std::span<const uint8_t>(data, size), "fuzz.irpa");
  fuzz::CheckParameterEntries(data, size, std::move(parsed));
  return 0;
}
