// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// .npy fuzzer: the input is a file of zero or more arrays; ReadNpy is called until it fails or
// the stream ends. Each array read is written back (WriteNpy) and must read again to the same
// bytes: the writer's output is the reader's input in iree-run-module's round trips.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_allocator.h"
#include "hal/buffer.h"
#include "tooling/npy.h"

namespace {

std::string Bytes(const iree_rt::hal::BufferView& view) {
  auto& buffer = *view.buffer();
  const uint64_t length = buffer.byte_length();
  if (length == 0) return {};
  auto mapped = buffer.Map(iree_rt::hal::MemoryAccess::kRead, 0, length);
  if (!mapped.ok()) __builtin_trap();
  return std::string(reinterpret_cast<const char*>(mapped.value()), length);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace iree_rt;
  static fuzz::FuzzAllocator* allocator = new fuzz::FuzzAllocator();
  std::istringstream stream(std::string(reinterpret_cast<const char*>(data), size));
  for (int arrays = 0; arrays < 16 && !tooling::NpyAtEnd(stream); ++arrays) {
    auto view = tooling::ReadNpy(stream, *allocator);
    if (!view.ok()) break;
    std::ostringstream out;
    if (!tooling::WriteNpy(*view.value(), out).ok()) continue;  // e.g. a type with no dtype
    std::istringstream back(out.str());
    auto again = tooling::ReadNpy(back, *allocator);
    if (!again.ok() || Bytes(*again.value()) != Bytes(*view.value()) ||
        again.value()->element_type() != view.value()->element_type()) {
      __builtin_trap();
    }
  }
  return 0;
}
