// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::Value: one argument, result or variant-list element: a primitive or a ref.
#ifndef IREE_RT_VM_VALUE_H_
#define IREE_RT_VM_VALUE_H_

#include <cstdint>
#include <utility>

#include "vm/ref.h"
#include "vm/type.h"

namespace iree_rt::vm {

class Value {
 public:
  Value() = default;

  static Value I8(int8_t v) { return Primitive(ValueType::kI8, static_cast<int64_t>(v)); }
  static Value I16(int16_t v) { return Primitive(ValueType::kI16, static_cast<int64_t>(v)); }
  static Value I32(int32_t v) { return Primitive(ValueType::kI32, static_cast<int64_t>(v)); }
  static Value I64(int64_t v) { return Primitive(ValueType::kI64, v); }
  static Value F32(float v) {
    Value value;
    value.type_ = ValueType::kF32;
    value.f32_ = v;
    return value;
  }
  static Value F64(double v) {
    Value value;
    value.type_ = ValueType::kF64;
    value.f64_ = v;
    return value;
  }
  // The zero of |type| (a null ref for kRef, an empty Value for kNone).
  static Value Zero(ValueType type) {
    switch (type) {
      case ValueType::kF32: return F32(0.0f);
      case ValueType::kF64: return F64(0.0);
      case ValueType::kRef: return FromRef(Ref());
      case ValueType::kNone: return Value();
      default: return Primitive(type, 0);
    }
  }
  static Value FromRef(Ref ref) {
    Value value;
    value.type_ = ValueType::kRef;
    value.ref_ = std::move(ref);
    return value;
  }

  ValueType type() const { return type_; }
  bool is_none() const { return type_ == ValueType::kNone; }
  bool is_ref() const { return type_ == ValueType::kRef; }

  // Integer accessors read the value as stored (i8/i16/i32 are kept sign-extended).
  int32_t i32() const { return static_cast<int32_t>(i64_); }
  int64_t i64() const { return i64_; }
  float f32() const { return f32_; }
  double f64() const { return f64_; }
  const Ref& ref() const { return ref_; }
  Ref& ref() { return ref_; }
  Ref TakeRef() { return std::move(ref_); }

 private:
  static Value Primitive(ValueType type, int64_t v) {
    Value value;
    value.type_ = type;
    value.i64_ = v;
    return value;
  }

  ValueType type_ = ValueType::kNone;
  union {
    int64_t i64_ = 0;
    float f32_;
    double f64_;
  };
  Ref ref_;
};

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_VALUE_H_
