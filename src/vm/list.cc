// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/list.h"

#include <algorithm>
#include <cstring>

namespace iree_rt::vm {

using base::Status;
using base::StatusCode;
using base::StatusOr;

const RefType kListType{"vm.list"};

namespace {

// Lists are sized by program values; a capacity needing more than this much element storage is
// treated as a runaway request rather than handed to the allocator.
constexpr size_t kMaxStorageBytes = size_t{1} << 30;

bool IsInteger(ValueType type) {
  return type == ValueType::kI8 || type == ValueType::kI16 || type == ValueType::kI32 ||
         type == ValueType::kI64;
}
bool IsFloat(ValueType type) { return type == ValueType::kF32 || type == ValueType::kF64; }
bool IsPrimitive(ValueType type) { return IsInteger(type) || IsFloat(type); }

std::string_view RefTypeName(const RefType* type) { return type ? type->name : "any"; }

// The list.get/set conversions: integers sign-extend or truncate, floats convert between widths,
// and integer<->float is deliberately not converted (the result is zero), as the ISA specifies.
Value Convert(const Value& value, ValueType to) {
  if (value.type() == to) return value;
  if (IsInteger(value.type()) && IsInteger(to)) {
    const int64_t x = value.i64();
    switch (to) {
      case ValueType::kI8:
        return Value::I8(static_cast<int8_t>(x));
      case ValueType::kI16:
        return Value::I16(static_cast<int16_t>(x));
      case ValueType::kI32:
        return Value::I32(static_cast<int32_t>(x));
      default:
        return Value::I64(x);
    }
  }
  if (value.type() == ValueType::kF32 && to == ValueType::kF64) return Value::F64(value.f32());
  if (value.type() == ValueType::kF64 && to == ValueType::kF32) {
    return Value::F32(static_cast<float>(value.f64()));
  }
  return Value::Zero(to);
}

// Elements live in a byte vector with no alignment guarantee for the element type.
template <typename T>
void StoreRaw(uint8_t* target, T value) {
  std::memcpy(target, &value, sizeof(T));
}
template <typename T>
T LoadRaw(const uint8_t* source) {
  T value;
  std::memcpy(&value, source, sizeof(T));
  return value;
}

Status CheckIndex(size_t index, size_t size) {
  if (index >= size) {
    return base::OutOfRangeError("index ", index, " out of bounds (size ", size, ")");
  }
  return Status();
}

// Whether list.get.ref may hand out |ref| when asked for |expected|.
bool RefMatches(const Ref& ref, Type expected) {
  if (ref.is_null() || expected.is_any()) return true;
  if (!expected.is_ref()) return false;
  return expected.ref_type == nullptr || expected.ref_type == ref.type();
}

}  // namespace

StatusOr<base::Ref<List>> List::Create(Type element_type, size_t initial_capacity,
                                       const ContextQuota* quota) {
  if (element_type.value_type == ValueType::kNone && element_type.ref_type != nullptr) {
    return base::InvalidArgumentError("list element type has a ref type but is not a ref");
  }
  base::Ref<List> list = base::Ref<List>::Adopt(new List(element_type));
  if (quota != nullptr) {
    list->max_length_ = quota->limits.max_list_length;
    RT_ASSIGN_OR_RETURN(list->charge_, base::MemoryCharge::Take(quota->budget.get(), 0, "vm.list",
                                                                  base::MemoryKind::kVmList));
  }
  RT_RETURN_IF_ERROR(list->Reserve(initial_capacity));
  return list;
}

List::~List() = default;

size_t List::element_size() const {
  if (element_type_.is_value()) return ValueTypeSize(element_type_.value_type);
  if (element_type_.is_ref()) return sizeof(Ref);
  return sizeof(Value);
}

Status List::Reserve(size_t capacity) {
  if (capacity > max_length_) capacity = static_cast<size_t>(max_length_);
  if (capacity <= capacity_) return Status();
  const size_t element_size = this->element_size();
  const size_t max_capacity = kMaxStorageBytes / element_size;
  if (capacity > max_capacity) {
    return base::ResourceExhaustedError("list capacity ", capacity, " exceeds the limit of ",
                                        max_capacity, " elements");
  }
  RT_RETURN_IF_ERROR(charge_.Resize(uint64_t{capacity} * element_size, "vm.list storage"));
  if (element_type_.is_value()) {
    bytes_.reserve(capacity * element_size);
  } else if (element_type_.is_ref()) {
    refs_.reserve(capacity);
  } else {
    variants_.reserve(capacity);
  }
  capacity_ = capacity;
  return Status();
}

Status List::Resize(size_t size) {
  if (size > max_length_) {
    return LimitExceeded("vm.list length", size, "elements", max_length_, "MAX_LIST_LENGTH");
  }
  if (size > capacity_) {
    // Geometric growth keeps repeated Push linear. Near a cap it stops at the cap (storage or
    // memory budget) in one step rather than growing by one element per push, which would copy
    // the whole list each time.
    const size_t element_size = this->element_size();
    size_t target = capacity_ > SIZE_MAX / 2 ? SIZE_MAX : capacity_ * 2;
    target = std::min(target, kMaxStorageBytes / element_size);
    if (const base::MemoryBudget* budget = charge_.budget()) {
      const uint64_t used = budget->used(), limit = budget->limit();
      const uint64_t room = limit > used ? (limit - used) / element_size : 0;
      if (room < target - capacity_) target = capacity_ + static_cast<size_t>(room);
    }
    if (!Reserve(std::max(size, target)).ok()) RT_RETURN_IF_ERROR(Reserve(size));
  }
  if (element_type_.is_value()) {
    bytes_.resize(size * ValueTypeSize(element_type_.value_type));
  } else if (element_type_.is_ref()) {
    refs_.resize(size);
  } else {
    variants_.resize(size);
  }
  size_ = size;
  return Status();
}

StatusOr<Value> List::GetValue(size_t index, ValueType as_type) const {
  if (!IsPrimitive(as_type)) {
    return base::InvalidArgumentError("cannot read a list element as ", ValueTypeName(as_type));
  }
  RT_RETURN_IF_ERROR(CheckIndex(index, size_));
  if (element_type_.is_ref()) {
    return base::FailedPreconditionError("list element ", index, " is a ref, not a value");
  }
  if (element_type_.is_value()) return Convert(GetVariant(index).value(), as_type);
  const Value& variant = variants_[index];
  if (!IsPrimitive(variant.type())) {
    return base::FailedPreconditionError("list element ", index, " is ",
                                         variant.is_ref() ? "a ref" : "empty", ", not a value");
  }
  return Convert(variant, as_type);
}

Status List::SetValue(size_t index, const Value& value) {
  if (!IsPrimitive(value.type())) {
    return base::InvalidArgumentError("SetValue needs a primitive value, got ",
                                      ValueTypeName(value.type()));
  }
  RT_RETURN_IF_ERROR(CheckIndex(index, size_));
  if (element_type_.is_ref()) {
    return base::FailedPreconditionError("cannot store a ", ValueTypeName(value.type()),
                                         " value in a list of refs");
  }
  if (!element_type_.is_value()) {
    variants_[index] = value;
    return Status();
  }
  const ValueType type = element_type_.value_type;
  const Value converted = Convert(value, type);
  uint8_t* target = bytes_.data() + index * ValueTypeSize(type);
  switch (type) {
    case ValueType::kI8:
      StoreRaw(target, static_cast<int8_t>(converted.i64()));
      break;
    case ValueType::kI16:
      StoreRaw(target, static_cast<int16_t>(converted.i64()));
      break;
    case ValueType::kI32:
      StoreRaw(target, converted.i32());
      break;
    case ValueType::kI64:
      StoreRaw(target, converted.i64());
      break;
    case ValueType::kF32:
      StoreRaw(target, converted.f32());
      break;
    case ValueType::kF64:
      StoreRaw(target, converted.f64());
      break;
    default:
      break;
  }
  return Status();
}

StatusOr<Ref> List::GetRef(size_t index, Type expected) const {
  RT_RETURN_IF_ERROR(CheckIndex(index, size_));
  if (element_type_.is_value()) {
    return base::FailedPreconditionError("list element ", index, " is a ",
                                         ValueTypeName(element_type_.value_type),
                                         " value, not a ref");
  }
  Ref ref;
  if (element_type_.is_ref()) {
    ref = refs_[index];
  } else {
    const Value& variant = variants_[index];
    if (IsPrimitive(variant.type())) {
      return base::FailedPreconditionError("list element ", index, " is a ",
                                           ValueTypeName(variant.type()), " value, not a ref");
    }
    ref = variant.ref();
  }
  // A type mismatch is not an error here: list.get.ref reads it as null.
  if (!RefMatches(ref, expected)) ref.Reset();
  return ref;
}

Status List::SetRef(size_t index, Ref ref) {
  RT_RETURN_IF_ERROR(CheckIndex(index, size_));
  if (element_type_.is_value()) {
    return base::FailedPreconditionError("cannot store a ref in a list of ",
                                         ValueTypeName(element_type_.value_type));
  }
  if (element_type_.is_ref()) {
    if (!ref.is_null() && element_type_.ref_type != nullptr &&
        ref.type() != element_type_.ref_type) {
      return base::InvalidArgumentError("source ref type mismatch: list holds ",
                                        RefTypeName(element_type_.ref_type), " but got ",
                                        RefTypeName(ref.type()));
    }
    refs_[index] = std::move(ref);
    return Status();
  }
  variants_[index] = Value::FromRef(std::move(ref));
  return Status();
}

StatusOr<Value> List::GetVariant(size_t index) const {
  RT_RETURN_IF_ERROR(CheckIndex(index, size_));
  if (element_type_.is_ref()) return Value::FromRef(refs_[index]);
  if (!element_type_.is_value()) return variants_[index];
  const uint8_t* source = bytes_.data() + index * ValueTypeSize(element_type_.value_type);
  switch (element_type_.value_type) {
    case ValueType::kI8:
      return Value::I8(LoadRaw<int8_t>(source));
    case ValueType::kI16:
      return Value::I16(LoadRaw<int16_t>(source));
    case ValueType::kI32:
      return Value::I32(LoadRaw<int32_t>(source));
    case ValueType::kI64:
      return Value::I64(LoadRaw<int64_t>(source));
    case ValueType::kF32:
      return Value::F32(LoadRaw<float>(source));
    case ValueType::kF64:
      return Value::F64(LoadRaw<double>(source));
    default:
      return base::InternalError("list has a corrupt element type");
  }
}

Status List::SetVariant(size_t index, Value value) {
  if (element_type_.is_value()) {
    if (!IsPrimitive(value.type())) {
      return base::InvalidArgumentError("cannot store ",
                                        value.is_ref() ? "a ref" : "an empty value",
                                        " in a list of ", ValueTypeName(element_type_.value_type));
    }
    return SetValue(index, value);
  }
  if (element_type_.is_ref()) {
    if (IsPrimitive(value.type())) {
      return base::InvalidArgumentError("cannot store a ", ValueTypeName(value.type()),
                                        " value in a list of refs");
    }
    return SetRef(index, value.TakeRef());  // an empty value stores a null ref
  }
  RT_RETURN_IF_ERROR(CheckIndex(index, size_));
  variants_[index] = std::move(value);
  return Status();
}

Status List::Push(Value value) {
  const size_t old_size = size_;
  RT_RETURN_IF_ERROR(Resize(old_size + 1));
  Status status = SetVariant(old_size, std::move(value));
  if (!status.ok()) Resize(old_size).IgnoreError();  // shrinking cannot fail
  return status;
}

}  // namespace iree_rt::vm
