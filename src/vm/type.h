// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::ValueType and vm::Type: what a register, a list element or a type-table entry holds.
#ifndef IREE_RT_VM_TYPE_H_
#define IREE_RT_VM_TYPE_H_

#include <cstddef>
#include <cstdint>

#include "vm/ref.h"

namespace iree_rt::vm {

enum class ValueType : uint8_t {
  kNone = 0,  // empty (a variant list slot never set, a null Value)
  kI8,
  kI16,
  kI32,
  kI64,
  kF32,
  kF64,
  kRef,
};

// Storage bytes of a primitive value type (0 for kNone and kRef).
constexpr size_t ValueTypeSize(ValueType type) {
  switch (type) {
    case ValueType::kI8: return 1;
    case ValueType::kI16: return 2;
    case ValueType::kI32: return 4;
    case ValueType::kI64: return 8;
    case ValueType::kF32: return 4;
    case ValueType::kF64: return 8;
    default: return 0;
  }
}

// "i32", "f64", "ref", "none": for messages.
constexpr const char* ValueTypeName(ValueType type) {
  switch (type) {
    case ValueType::kNone: return "none";
    case ValueType::kI8: return "i8";
    case ValueType::kI16: return "i16";
    case ValueType::kI32: return "i32";
    case ValueType::kI64: return "i64";
    case ValueType::kF32: return "f32";
    case ValueType::kF64: return "f64";
    case ValueType::kRef: return "ref";
  }
  return "?";
}

// A resolved type-table entry:
//   primitive:  {kI8..kF64, nullptr}
//   typed ref:  {kRef, &type}
//   any:        {kNone, nullptr} = "!vm.opaque": a variant list's element type, and the
//               wildcard that type-checked ref ops accept any ref type against.
struct Type {
  ValueType value_type = ValueType::kNone;
  const RefType* ref_type = nullptr;

  static constexpr Type Any() { return {}; }
  static constexpr Type Value(ValueType type) { return {type, nullptr}; }
  static constexpr Type OfRef(const RefType* type) { return {ValueType::kRef, type}; }

  bool is_any() const { return value_type == ValueType::kNone; }
  bool is_value() const { return value_type != ValueType::kNone && value_type != ValueType::kRef; }
  bool is_ref() const { return value_type == ValueType::kRef; }
  bool operator==(const Type& other) const {
    return value_type == other.value_type && ref_type == other.ref_type;
  }
};

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_TYPE_H_
