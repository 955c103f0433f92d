// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::List ("vm.list"): a growable list of primitives (dense storage), of refs of one type,
// or of variants (any value or ref per element), as the vm.list.* ops and host I/O use it.
//
// Size and capacity are separate: Allocate reserves capacity, size starts at 0, Resize grows with
// zeros/nulls and shrinks releasing dropped refs. Out-of-range indices are OUT_OF_RANGE.
// Not internally synchronized.
#ifndef IREE_RT_VM_LIST_H_
#define IREE_RT_VM_LIST_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/memory_budget.h"
#include "base/ref_object.h"
#include "base/status.h"
#include "vm/limits.h"
#include "vm/ref.h"
#include "vm/type.h"
#include "vm/value.h"

namespace iree_rt::vm {

class List : public base::RefObject {
 public:
  // |element_type|: a primitive type, a ref type (Type::OfRef, null ref_type = any ref),
  // or Type::Any() for a variant list. With a |quota| (a program's list), the list's length is
  // capped by its list length limit and its storage is charged to its memory budget for life.
  static base::StatusOr<base::Ref<List>> Create(Type element_type, size_t initial_capacity,
                                                const ContextQuota* quota = nullptr);

  Type element_type() const { return element_type_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }

  // Grows capacity to at least |capacity| (never shrinks); a hint, so it stops at the length
  // limit. RESOURCE_EXHAUSTED past the storage cap or the memory budget.
  base::Status Reserve(size_t capacity);
  // RESOURCE_EXHAUSTED past the length limit (IREE_RT_LIMIT_MAX_LIST_LENGTH), too.
  base::Status Resize(size_t size);

  // Primitive element access with the list.get/set.* conversions: integer widening sign-extends,
  // narrowing truncates, f32<->f64 converts, int<->float is not converted (reads 0). A ref
  // element read as a primitive (or the reverse) is FAILED_PRECONDITION.
  base::StatusOr<Value> GetValue(size_t index, ValueType as_type) const;
  base::Status SetValue(size_t index, const Value& value);

  // Ref elements. GetRef returns a retained ref; a non-null element whose type differs from
  // |expected| (unless expected is Any / any-ref) reads as null, as list.get.ref specifies.
  base::StatusOr<Ref> GetRef(size_t index, Type expected) const;
  // Typed ref lists check the type (INVALID_ARGUMENT "source ref type mismatch").
  base::Status SetRef(size_t index, Ref ref);

  // The element as stored (variant lists: its own type), for host I/O and printing.
  base::StatusOr<Value> GetVariant(size_t index) const;
  // Variant lists take any value; typed lists convert/check as SetValue/SetRef.
  base::Status SetVariant(size_t index, Value value);
  // Appends one element (Resize + SetVariant).
  base::Status Push(Value value);

  ~List() override;

 private:
  explicit List(Type element_type) : element_type_(element_type) {}
  size_t element_size() const;

  Type element_type_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  uint64_t max_length_ = kUnlimited;
  base::MemoryCharge charge_;    // of the storage's capacity
  std::vector<uint8_t> bytes_;   // primitive lists
  std::vector<Ref> refs_;        // ref lists
  std::vector<Value> variants_;  // variant lists
};

extern const RefType kListType;  // "vm.list"
template <>
inline const RefType* RefTypeOf<List>() { return &kListType; }

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_LIST_H_
