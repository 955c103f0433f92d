// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Shared by the VM fuzzers: an instance that resolves every type compiled programs name, and a
// copy of the input at an 8-byte aligned address (the loader reads the FlatBuffer in place).
#ifndef IREE_RT_TESTS_FUZZ_FUZZ_VM_UTIL_H_
#define IREE_RT_TESTS_FUZZ_FUZZ_VM_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

#include "base/ref_object.h"
#include "vm/instance.h"
#include "vm/ref.h"

namespace iree_rt::fuzz {

// Stand-ins for the hal module's ref types: loading only needs the names to resolve, and the
// fuzzers never create objects of these types.
inline base::Ref<vm::Instance> CreateFuzzInstance() {
  static const vm::RefType kTypes[] = {
      {"hal.allocator"},      {"hal.buffer"}, {"hal.buffer_view"}, {"hal.channel"},
      {"hal.command_buffer"}, {"hal.device"}, {"hal.event"},       {"hal.executable"},
      {"hal.fence"},          {"hal.file"},   {"hal.semaphore"}};
  base::Ref<vm::Instance> instance = vm::Instance::Create();
  for (const vm::RefType& type : kTypes) {
    if (!instance->RegisterType(&type).ok()) __builtin_trap();
  }
  return instance;
}

// Owns a copy of the fuzz input; the module keeps it alive through keep_alive.
class AlignedBytes final : public base::RefObject {
 public:
  AlignedBytes(const uint8_t* data, size_t size)
      : storage_(new uint64_t[(size + 7) / 8 + 1]), size_(size) {
    if (size != 0) std::memcpy(storage_.get(), data, size);
  }
  std::span<const uint8_t> bytes() const {
    return {reinterpret_cast<const uint8_t*>(storage_.get()), size_};
  }

 private:
  std::unique_ptr<uint64_t[]> storage_;
  size_t size_;
};

}  // namespace iree_rt::fuzz

#endif  // IREE_RT_TESTS_FUZZ_FUZZ_VM_UTIL_H_
