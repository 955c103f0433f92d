// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Module loader + verifier fuzzer: any bytes → ModuleImage::Parse, then BytecodeModule::Load
// (type resolution and verification of every function). Either must return a status; on
// success every view the image hands out is read, so ASan catches one that points outside the
// input, and every function is disassembled (the verifier's message path).
#include <cstddef>
#include <cstdint>

#include "fuzz_vm_util.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/bytecode/disassembler.h"
#include "vm/bytecode/module_image.h"
#include "vm/bytecode/verifier.h"

namespace iree_rt::fuzz {
namespace {

using vm::bytecode::ModuleImage;

uint64_t Touch(std::string_view text) {
  uint64_t sum = 0;
  for (char c : text) sum += static_cast<uint8_t>(c);
  return sum;
}

uint64_t TouchImage(const ModuleImage& image) {
  uint64_t sum = Touch(image.name()) + image.version() + image.global_ref_count();
  for (const auto& attr : image.attrs()) sum += Touch(attr.key) + Touch(attr.value);
  for (std::string_view type : image.type_names()) sum += Touch(type);
  for (const auto& import : image.imports()) {
    sum += Touch(import.full_name) + Touch(import.module_name) + Touch(import.function_name) +
           Touch(import.cconv);
  }
  for (const auto& e : image.exports()) sum += Touch(e.name) + e.internal_ordinal;
  for (const auto& dep : image.dependencies()) sum += Touch(dep.name);
  for (std::span<const uint8_t> segment : image.rodata()) {
    for (uint8_t b : segment) sum += b;
  }
  for (uint32_t i = 0; i < image.functions().size(); ++i) {
    const auto& f = image.functions()[i];
    for (uint8_t b : f.bytecode) sum += b;
    sum += Touch(f.cconv) + Touch(f.debug_name);
    for (const auto& attr : f.attrs) sum += Touch(attr.key) + Touch(attr.value);
    // Source locations walk the debug database; a few pcs per function keep this cheap.
    const uint32_t n = static_cast<uint32_t>(f.bytecode.size());
    for (uint32_t pc : {0u, n / 2, n - 1, n}) sum += image.SourceLocation(i, pc).size();
    sum += vm::bytecode::DescribeFunction(image, i).size();
  }
  return sum;
}

}  // namespace
}  // namespace iree_rt::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace iree_rt;
  static base::Ref<vm::Instance> instance = fuzz::CreateFuzzInstance();
  auto bytes = base::MakeRef<fuzz::AlignedBytes>(data, size);
  std::span<const uint8_t> span = bytes->bytes();

  auto image = vm::bytecode::ModuleImage::Parse(span, vm::bytecode::kFeatureAll);
  if (!image.ok()) return 0;
  volatile uint64_t sink = fuzz::TouchImage(*image.value());
  (void)sink;
  for (uint32_t i = 0; i < image.value()->functions().size(); ++i) {
    sink = vm::bytecode::Disassemble(*image.value(), i).size();
  }

  auto module = vm::bytecode::BytecodeModule::Load(*instance, span, bytes);
  if (module.ok()) {
    for (const auto& e : module.value()->exports()) sink = e.name.size() + e.cconv.size();
  }
  return 0;
}
