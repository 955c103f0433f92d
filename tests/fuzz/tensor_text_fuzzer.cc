// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// `--input` tensor text fuzzer: ParseElementType, ParseShapeAndType and ParseBufferView on any
// text; every parsed view is formatted back (FormatBufferView), and the formatted text must
// parse again to a view of the same shape and type. Specs whose data is `@PATH`/`+PATH` are not
// parsed as buffer views (they would read files); their shape and type part still is.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "fuzz_allocator.h"
#include "hal/utils/buffer_view_text.h"

namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  return text;
}

// True when ParseBufferView would read a file for |spec| (mirrors its trimming).
bool NamesFile(std::string_view spec) {
  std::string_view text = Trim(spec);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    text = Trim(text.substr(1, text.size() - 2));
  }
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos) return false;
  std::string_view values = Trim(text.substr(equals + 1));
  return !values.empty() && (values.front() == '@' || values.front() == '+');
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace iree_rt;
  static fuzz::FuzzAllocator* allocator = new fuzz::FuzzAllocator();
  const std::string spec(reinterpret_cast<const char*>(data), size);

  (void)hal::ParseElementType(spec);
  (void)hal::utils::ParseShapeAndType(spec.substr(0, spec.find('=')));
  if (NamesFile(spec)) return 0;

  auto view = hal::utils::ParseBufferView(spec, *allocator);
  if (!view.ok()) return 0;
  // Budgeted like the tools: millions of zeros, or empty rows of a zero-sized view, only cost
  // time. Rows past the budget still print `[...]` each (as iree-run-module does), so views with
  // millions of rows are not printed. Text cut with "..." is not meant to parse again.
  uint64_t rows = 1;
  const auto shape = view.value()->shape();
  for (size_t i = 0; i + 1 < shape.size() && rows != 0; ++i) {
    const uint64_t dim = static_cast<uint64_t>(shape[i]);
    rows = dim > (1u << 20) / rows ? (1u << 20) : rows * dim;
  }
  if (rows >= (1u << 16)) return 0;
  auto text = hal::utils::FormatBufferView(*view.value(), 4096);
  if (!text.ok() || text.value().find("...") != std::string::npos) return 0;
  auto again = hal::utils::ParseBufferView(text.value(), *allocator);
  if (!again.ok()) {
    // Printed text is meant to be valid input (iree-run-module round-trips it).
    fprintf(stderr, "'%s' formats as '%s', which does not parse: %s\n", spec.c_str(),
            text.value().c_str(), again.status().ToString().c_str());
    __builtin_trap();
  }
  // Types are compared by printed name: `i01` is the 1-bit integer but prints as `i1`, which
  // reads back as the 8-bit boolean (iree-run-module's spellings are ambiguous the same way).
  if (hal::ElementTypeName(again.value()->element_type()) !=
          hal::ElementTypeName(view.value()->element_type()) ||
      again.value()->shape().size() != view.value()->shape().size()) {
    __builtin_trap();
  }
  return 0;
}
