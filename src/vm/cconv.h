// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Calling-convention strings: parsing, and checking values against them.
//
// "0" then arguments, "_", results. i=i32 I=i64 f=f32 F=f64 r=ref v=none; C...D is a variadic
// span of tuples (arguments of imports only). The compiler always writes both sides
// ("0v_v"); a missing "_" (all arguments) and an empty string (no arguments, no results) are
// accepted as the reference runtime does.
#ifndef IREE_RT_VM_CCONV_H_
#define IREE_RT_VM_CCONV_H_

#include <span>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "vm/type.h"
#include "vm/value.h"

namespace iree_rt::vm {

// One top-level argument or result: a scalar, or a variadic span of |tuple| elements.
struct CconvItem {
  ValueType type = ValueType::kNone;  // kI32/kI64/kF32/kF64/kRef; kNone for a span
  std::vector<ValueType> tuple;       // span element types, empty for scalars
  bool is_span() const { return !tuple.empty(); }
};

struct Cconv {
  std::vector<CconvItem> arguments;
  std::vector<ValueType> results;
  bool has_spans() const;
};

// INVALID_ARGUMENT naming |cconv| and the offending character; UNIMPLEMENTED for a version
// other than '0'.
base::StatusOr<Cconv> ParseCconv(std::string_view cconv);

// Checks |values| against |items| with the Module-boundary layout (a span is an i32 count
// followed by its flattened tuples). INVALID_ARGUMENT naming |what| and the first mismatch.
base::Status CheckValues(std::string_view what, std::span<const CconvItem> items,
                         std::span<const Value> values);
base::Status CheckResults(std::string_view what, std::span<const ValueType> types,
                          std::span<const Value> values);

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_CCONV_H_
