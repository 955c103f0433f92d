// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ParseJson: a small strict JSON (RFC 8259) reader for archive headers (safetensors) and trace
// files (tools/iree-rt-trace). Our own, because the input is untrusted: nesting is bounded
// (kMaxJsonDepth, no unbounded recursion), every string escape is checked, and numbers keep their
// text so integers convert exactly.
#ifndef IREE_RT_IO_JSON_READER_H_
#define IREE_RT_IO_JSON_READER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace iree_rt::io {

constexpr int kMaxJsonDepth = 64;

struct JsonMember;

struct JsonValue {
  enum class Type : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool boolean = false;
  std::string text;  // kString: the decoded string (UTF-8); kNumber: the number as written
  std::vector<JsonValue> items;                              // kArray
  std::vector<JsonMember> members;                           // kObject, in file order

  // The first member named |key| of an object, or null.
  const JsonValue* Find(std::string_view key) const;
  // A number written as a plain non-negative integer (no sign, fraction or exponent) that fits.
  bool AsUint64(uint64_t& out) const;
};

struct JsonMember {
  std::string name;
  JsonValue value;
};

// INVALID_ARGUMENT "<file_name>: bad JSON at byte N: <problem>" for anything but one JSON value
// surrounded by optional whitespace.
base::StatusOr<JsonValue> ParseJson(std::string_view text, std::string_view file_name);

// The one value that starts at |position| (after optional whitespace), which then moves past it:
// for reading a large document piece by piece (a trace's events one at a time) without holding
// the whole of it parsed. Errors as ParseJson's, their byte offsets counted from |text|'s start.
base::StatusOr<JsonValue> ParseJsonValueAt(std::string_view text, std::string_view file_name,
                                           size_t& position);

}  // namespace iree_rt::io

#endif  // IREE_RT_IO_JSON_READER_H_
