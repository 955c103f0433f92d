// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// .gguf files: ParseGguf over any bytes (metadata values and arrays, tensor infos, type sizes);
// a parse that succeeds must describe only bytes inside the input.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "fuzz_parameter_util.h"
#include "io/gguf_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace iree_rt;
  auto parsed = io::ParseGguf(std::span<const uint8_t>(data, size), "fuzz.gguf");
  fuzz::CheckParameterEntries(data, size, std::move(parsed));
  return 0;
}
