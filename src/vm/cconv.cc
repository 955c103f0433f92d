// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/cconv.h"

#include <string>

namespace iree_rt::vm {

using base::Status;
using base::StatusCode;
using base::StatusOr;

namespace {

bool ScalarType(char c, ValueType* type) {
  switch (c) {
    case 'i':
      *type = ValueType::kI32;
      return true;
    case 'I':
      *type = ValueType::kI64;
      return true;
    case 'f':
      *type = ValueType::kF32;
      return true;
    case 'F':
      *type = ValueType::kF64;
      return true;
    case 'r':
      *type = ValueType::kRef;
      return true;
    default:
      return false;
  }
}

Status BadChar(std::string_view cconv, size_t pos, std::string_view why) {
  if (pos >= cconv.size()) {
    return base::InvalidArgumentError("calling convention '", cconv, "' ends early: ", why);
  }
  return base::InvalidArgumentError("invalid calling convention '", cconv, "': unexpected '",
                                    cconv[pos], "' at position ", pos, " (", why, ")");
}

// A null ref may arrive as an empty Value as well as a kRef one; both mean "no object".
bool Matches(ValueType expected, const Value& value) {
  if (expected == ValueType::kRef) return value.is_ref() || value.is_none();
  return value.type() == expected;
}

}  // namespace

bool Cconv::has_spans() const {
  for (const CconvItem& item : arguments) {
    if (item.is_span()) return true;
  }
  return false;
}

StatusOr<Cconv> ParseCconv(std::string_view cconv) {
  Cconv result;
  if (cconv.empty()) return result;
  if (cconv[0] != '0') {
    return base::UnimplementedError("unsupported calling convention version '", cconv[0], "' in '",
                                    cconv, "'");
  }
  size_t pos = 1;
  // Arguments: 'v' alone, or scalars and C...D spans.
  if (pos < cconv.size() && cconv[pos] == 'v') {
    ++pos;
  } else {
    while (pos < cconv.size() && cconv[pos] != '_') {
      ValueType type;
      if (ScalarType(cconv[pos], &type)) {
        result.arguments.push_back(CconvItem{type, {}});
        ++pos;
        continue;
      }
      if (cconv[pos] != 'C') return BadChar(cconv, pos, "expected an argument type");
      CconvItem span;
      for (++pos; pos < cconv.size() && cconv[pos] != 'D'; ++pos) {
        if (!ScalarType(cconv[pos], &type))
          return BadChar(cconv, pos, "expected a span element type");
        span.tuple.push_back(type);
      }
      if (pos >= cconv.size()) return BadChar(cconv, pos, "unterminated variadic span");
      if (span.tuple.empty()) return BadChar(cconv, pos, "empty variadic span");
      result.arguments.push_back(std::move(span));
      ++pos;  // 'D'
    }
  }
  if (pos == cconv.size()) return result;
  if (cconv[pos] != '_') return BadChar(cconv, pos, "expected '_' after the arguments");
  ++pos;
  // Results: 'v' alone, or scalars; never spans.
  if (pos < cconv.size() && cconv[pos] == 'v') {
    ++pos;
  } else {
    for (; pos < cconv.size(); ++pos) {
      ValueType type;
      if (!ScalarType(cconv[pos], &type)) return BadChar(cconv, pos, "expected a result type");
      result.results.push_back(type);
    }
  }
  if (pos != cconv.size()) return BadChar(cconv, pos, "trailing characters");
  return result;
}

Status CheckValues(std::string_view what, std::span<const CconvItem> items,
                   std::span<const Value> values) {
  size_t next = 0;
  auto mismatch = [&](size_t index, ValueType expected) {
    return base::InvalidArgumentError(what, ": value ", index, " is ",
                                      ValueTypeName(values[index].type()),
                                      " but the calling convention expects ", ValueTypeName(expected));
  };
  auto too_few = [&]() {
    return base::InvalidArgumentError(what, ": too few values (", values.size(),
                                      ") for the calling convention");
  };
  for (const CconvItem& item : items) {
    if (!item.is_span()) {
      if (next >= values.size()) return too_few();
      if (!Matches(item.type, values[next])) return mismatch(next, item.type);
      ++next;
      continue;
    }
    // A span travels as an i32 tuple count followed by the flattened tuples.
    if (next >= values.size()) return too_few();
    if (values[next].type() != ValueType::kI32) return mismatch(next, ValueType::kI32);
    const int32_t count = values[next].i32();
    if (count < 0) {
      return base::InvalidArgumentError(what, ": value ", next, " is a negative span count (",
                                        count, ")");
    }
    ++next;
    const size_t tuple_size = item.tuple.size();
    if (static_cast<size_t>(count) > (values.size() - next) / tuple_size) return too_few();
    for (int32_t t = 0; t < count; ++t) {
      for (ValueType type : item.tuple) {
        if (!Matches(type, values[next])) return mismatch(next, type);
        ++next;
      }
    }
  }
  if (next != values.size()) {
    return base::InvalidArgumentError(what, ": expected ", next, " values but got ", values.size());
  }
  return Status();
}

Status CheckResults(std::string_view what, std::span<const ValueType> types,
                    std::span<const Value> values) {
  if (types.size() != values.size()) {
    return base::InvalidArgumentError(what, ": expected ", types.size(), " values but got ",
                                      values.size());
  }
  for (size_t i = 0; i < types.size(); ++i) {
    if (!Matches(types[i], values[i])) {
      return base::InvalidArgumentError(what, ": value ", i, " is ", ValueTypeName(values[i].type()),
                                        " but the calling convention expects ", ValueTypeName(types[i]));
    }
  }
  return Status();
}

}  // namespace iree_rt::vm
