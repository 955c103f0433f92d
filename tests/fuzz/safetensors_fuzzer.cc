// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// .safetensors files: ParseSafetensors over any bytes (header length, the strict JSON reader,
// dtypes);
// a parse that succeeds must describe only bytes inside the input.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "fuzz_parameter_util.h"
#include "io/safetensors_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace iree_rt;
  auto parsed = io::ParseSafetensors(std::span<const uint8_t>(data, size), "fuzz.safetensors");
  fuzz::CheckParameterEntries(data, size, std::move(parsed));
  return 0;
}
