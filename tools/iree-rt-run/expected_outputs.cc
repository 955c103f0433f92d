// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "expected_outputs.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "hal/buffer.h"
#include "hal/buffer_view.h"
#include "hal/element_type.h"
#include "hal/utils/buffer_view_text.h"
#include "hal/utils/element_value.h"
#include "modules/hal/ref_types.h"
#include "vm/ref.h"

namespace iree_rt::tools {
namespace {

using base::StatusOr;

// iree-run-module prints at most this many elements of each operand of a mismatch.
constexpr size_t kMaxPrintedElements = 1024;

// iree-run-module's spelling: the ref's type name, "empty" for none, else vm::ValueTypeName.
std::string ValueTypeName(const vm::Value& value) {
  if (value.is_ref() && value.ref().type() != nullptr) return std::string(value.ref().type()->name);
  if (value.is_ref() || value.is_none()) return "empty";
  return vm::ValueTypeName(value.type());
}

// "2x3xf32", or "f32" for rank 0.
std::string Metadata(const hal::BufferView& view) {
  std::string text;
  for (int64_t dim : view.shape()) text += std::to_string(dim) + "x";
  return text + hal::ElementTypeName(view.element_type());
}

StatusOr<std::vector<uint8_t>> ReadContents(const hal::BufferView& view) {
  std::vector<uint8_t> bytes(view.byte_length());
  RT_RETURN_IF_ERROR(view.buffer()->Read(0, bytes.data(), bytes.size()));
  return bytes;
}

template <typename T>
bool Near(T actual, T expected, T atol, T rtol) {
  if (std::isnan(actual) && std::isnan(expected)) return true;
  return std::fabs(actual - expected) <= atol + rtol * std::fabs(expected);
}

bool ElementMatches(hal::ElementType type, const uint8_t* expected, const uint8_t* actual,
                    size_t element_bytes, const Tolerances& tol) {
  // f32 and the 16-bit floats compare in float arithmetic, f64 in double, as iree-run-module.
  if (type == hal::ElementTypes::kFloat64) {
    return Near(hal::utils::LoadFloatElement(type, actual),
                hal::utils::LoadFloatElement(type, expected), tol.f64,
                static_cast<double>(tol.rtol));
  }
  float atol = 0;
  switch (type) {
    case hal::ElementTypes::kFloat32: atol = tol.f32; break;
    case hal::ElementTypes::kFloat16: atol = tol.f16; break;
    case hal::ElementTypes::kBFloat16: atol = tol.bf16; break;
    default: return std::memcmp(expected, actual, element_bytes) == 0;
  }
  return Near(static_cast<float>(hal::utils::LoadFloatElement(type, actual)),
              static_cast<float>(hal::utils::LoadFloatElement(type, expected)), atol, tol.rtol);
}

// One element as the buffer view text prints it ("?" inside bit-packed data).
std::string ElementText(hal::ElementType type, const uint8_t* element) {
  if (hal::ElementBitCount(type) % 8 != 0) return "?";
  std::string text;
  hal::utils::AppendElementText(type, element, text);
  return text;
}

bool ScalarMatches(const vm::Value& want, const vm::Value& got, const Tolerances& tolerances) {
  switch (want.type()) {
    case vm::ValueType::kF32:
      return Near(got.f32(), want.f32(), tolerances.f32, tolerances.rtol);
    case vm::ValueType::kF64:
      return Near(got.f64(), want.f64(), tolerances.f64, static_cast<double>(tolerances.rtol));
    default:
      return want.i64() == got.i64();
  }
}

std::string ScalarText(const vm::Value& value) {
  switch (value.type()) {
    case vm::ValueType::kF32: return base::StrCat(value.f32());
    case vm::ValueType::kF64: return base::StrCat(value.f64());
    default: return base::StrCat(value.i64());
  }
}

StatusOr<bool> CompareViews(int index, const hal::BufferView& expected,
                            const hal::BufferView& actual, const Tolerances& tolerances,
                            std::string* out) {
  const std::string expected_metadata = Metadata(expected);
  std::string problem;
  const bool same_shape = std::equal(expected.shape().begin(), expected.shape().end(),
                                     actual.shape().begin(), actual.shape().end());
  if (!same_shape || expected.element_type() != actual.element_type()) {
    problem = base::StrCat("metadata is ", Metadata(actual), "; expected that the view matches ",
                           expected_metadata);
  } else {
    RT_ASSIGN_OR_RETURN(std::vector<uint8_t> expected_bytes, ReadContents(expected));
    RT_ASSIGN_OR_RETURN(std::vector<uint8_t> actual_bytes, ReadContents(actual));
    const hal::ElementType type = expected.element_type();
    const uint64_t count = expected.element_count();
    const size_t element_bytes = count ? expected_bytes.size() / count : 0;
    for (uint64_t i = 0; i < count && problem.empty(); ++i) {
      const uint8_t* want = expected_bytes.data() + i * element_bytes;
      const uint8_t* got = actual_bytes.data() + i * element_bytes;
      if (element_bytes == 0 || ElementMatches(type, want, got, element_bytes, tolerances)) {
        continue;
      }
      problem = base::StrCat("element at index ", i, " (", ElementText(type, got),
                             ") does not match the expected (", ElementText(type, want), ")");
    }
    // Sub-byte types: the packed bytes decide.
    if (element_bytes == 0 && expected_bytes != actual_bytes) {
      problem = "contents differ";
    }
  }
  if (problem.empty()) return true;
  RT_ASSIGN_OR_RETURN(std::string expected_text,
                      hal::utils::FormatBufferView(expected, kMaxPrintedElements));
  RT_ASSIGN_OR_RETURN(std::string actual_text,
                      hal::utils::FormatBufferView(actual, kMaxPrintedElements));
  *out += base::StrCat("[FAILED] result[", index, "]: ", problem,
                       "; expected that the view is equal to contents of a view of ",
                       expected_metadata, "\n  expected:\n", expected_text, "\n  actual:\n",
                       actual_text, "\n");
  return false;
}

}  // namespace

StatusOr<bool> CompareResults(std::span<const vm::Value> expected,
                              std::span<const vm::Value> actual, const Tolerances& tolerances,
                              std::string* out) {
  if (expected.size() != actual.size()) {
    *out += base::StrCat("[FAILED] expected ", expected.size(), " list elements but ",
                         actual.size(), " provided\n");
    return false;
  }
  bool all_match = true;
  for (size_t i = 0; i < expected.size(); ++i) {
    const vm::Value& want = expected[i];
    const vm::Value& got = actual[i];
    if (want.type() == vm::ValueType::kNone || (want.is_ref() && want.ref().is_null())) continue;
    if (want.is_ref() && got.is_ref()) {
      hal::BufferView* want_view = want.ref().Get<hal::BufferView>();
      hal::BufferView* got_view = got.ref().Get<hal::BufferView>();
      if (want_view != nullptr && got_view != nullptr) {
        RT_ASSIGN_OR_RETURN(bool match, CompareViews(static_cast<int>(i), *want_view, *got_view,
                                                     tolerances, out));
        all_match &= match;
        continue;
      }
    }
    // Scalars of one type compare by value (floats within the tolerance). iree-run-module
    // 3.13.0 instead reports every expected scalar as a type mismatch, even an equal one (its
    // type test is inverted); we do not copy that.
    if (!want.is_ref() && want.type() == got.type()) {
      if (ScalarMatches(want, got, tolerances)) continue;
      *out += base::StrCat("[FAILED] result[", i, "]: value ", ScalarText(got),
                           " does not match the expected ", ScalarText(want), "\n");
      all_match = false;
      continue;
    }
    *out += base::StrCat("[FAILED] result[", i, "]: variant types mismatch; expected ",
                         ValueTypeName(want), " but got ", ValueTypeName(got), "\n");
    all_match = false;
  }
  return all_match;
}

}  // namespace iree_rt::tools
