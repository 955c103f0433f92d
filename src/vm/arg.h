// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::Arg: one argument of a native function as the interpreter hands it over: a primitive, or
// a ref borrowed from the caller's register (no reference count change either way).
//
// Native calls are the hot path of every tensor program (a dozen `hal` imports per call), so an
// Arg is two words and trivially copyable: building one is two stores, and a call's Args need
// no destruction. The callee's cconv says which accessor applies to which Arg (the verifier has
// proved the caller's registers match it). A callee that keeps a ref retains it.
#ifndef IREE_RT_VM_ARG_H_
#define IREE_RT_VM_ARG_H_

#include <cstdint>
#include <type_traits>

#include "vm/ref.h"
#include "vm/value.h"

namespace iree_rt::vm {

class Arg {
 public:
  Arg() = default;  // indeterminate: arrays of Args are filled before use

  static Arg I32(int32_t v) { return Arg(static_cast<int64_t>(v), nullptr); }
  static Arg I64(int64_t v) { return Arg(v, nullptr); }
  static Arg F32(float v) {
    Arg arg;
    arg.f32_ = v;
    arg.type_ = nullptr;
    return arg;
  }
  static Arg F64(double v) {
    Arg arg;
    arg.f64_ = v;
    arg.type_ = nullptr;
    return arg;
  }
  // Register bits as they are: a 32-bit value (i32 or f32) zero-extended, or a 64-bit one. The
  // i32()/f32() accessors read the low half, so no sign extension is needed.
  static Arg Bits(uint64_t bits) { return Arg(static_cast<int64_t>(bits), nullptr); }
  // A borrowed ref: |object| must outlive the call the Arg is passed to.
  static Arg Borrow(base::RefObject* object, const RefType* type) {
    Arg arg;
    arg.object_ = object;
    arg.type_ = object ? type : nullptr;
    return arg;
  }
  // A borrowed ref from a slot that keeps type null whenever object is (a VM register).
  static Arg BorrowSlot(base::RefObject* object, const RefType* type) {
    Arg arg;
    arg.object_ = object;
    arg.type_ = type;
    return arg;
  }
  // The Arg of a Value of any type (a ref is borrowed from |value|, which must outlive it).
  static Arg From(const Value& value) {
    switch (value.type()) {
      case ValueType::kF32: return F32(value.f32());
      case ValueType::kF64: return F64(value.f64());
      case ValueType::kRef: return Borrow(value.ref().object(), value.ref().type());
      default: return I64(value.i64());
    }
  }

  // Integers read as stored (i8/i16/i32 sign-extended), like Value's accessors.
  int32_t i32() const { return static_cast<int32_t>(i64_); }
  int64_t i64() const { return i64_; }
  float f32() const { return f32_; }
  double f64() const { return f64_; }
  RefView ref() const { return RefView(object_, type_); }

 private:
  Arg(int64_t v, const RefType* type) : i64_(v), type_(type) {}

  union {
    int64_t i64_;
    float f32_;
    double f64_;
    base::RefObject* object_;
  };
  const RefType* type_;
};
static_assert(std::is_trivially_copyable_v<Arg> && std::is_trivially_destructible_v<Arg>);

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_ARG_H_
