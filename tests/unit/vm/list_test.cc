// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/list.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "object_model_test_util.h"
#include "vm/buffer.h"

namespace iree_rt::vm {
namespace {

using base::StatusCode;
using testing::IsError;

base::Ref<List> MakeList(Type element_type, size_t capacity = 0) {
  auto list = List::Create(element_type, capacity);
  EXPECT_TRUE(list.ok()) << list.status().ToString();
  return list.ok() ? *list : base::Ref<List>();
}

base::Ref<Buffer> MakeBuffer() {
  auto buffer = Buffer::Allocate(4, 0);
  EXPECT_TRUE(buffer.ok());
  return *buffer;
}

TEST(ListTest, SizeStartsAtZeroAndCapacityIsReserved) {
  base::Ref<List> list = MakeList(Type::Value(ValueType::kI32), 5);
  EXPECT_EQ(list->size(), 0u);
  EXPECT_GE(list->capacity(), 5u);
  EXPECT_EQ(list->element_type(), Type::Value(ValueType::kI32));
  ASSERT_TRUE(list->Reserve(2).ok());
  EXPECT_GE(list->capacity(), 5u);  // never shrinks
  ASSERT_TRUE(list->Reserve(50).ok());
  EXPECT_GE(list->capacity(), 50u);
  EXPECT_EQ(list->size(), 0u);
}

// A program's list (one made with a context's quota): its length is capped, its storage is
// charged to the budget while it lives, and growth near the budget stops at the budget in one
// step instead of one element per push.
TEST(ListTest, QuotaCapsLengthAndChargesStorage) {
  ContextQuota quota;
  quota.limits.max_list_length = 300;
  quota.budget = base::MakeRef<base::MemoryBudget>(1000);
  {
    EXPECT_TRUE(IsError(List::Create(Type::Value(ValueType::kI32), 251, &quota),
                        StatusCode::kResourceExhausted, "vm.list storage needs 1004 bytes"));
    EXPECT_EQ(quota.budget->used(), 0u);
    auto created = List::Create(Type::Value(ValueType::kI32), 200, &quota);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    base::Ref<List> list = *created;
    EXPECT_EQ(quota.budget->used(), 800u);
    ASSERT_TRUE(list->Resize(250).ok());  // doubling would pass the budget: stops at it
    EXPECT_EQ(list->capacity(), 250u);
    EXPECT_TRUE(IsError(list->Resize(251), StatusCode::kResourceExhausted,
                        "IREE_RT_LIMIT_MAX_CONTEXT_MEMORY"));
    EXPECT_EQ(list->size(), 250u);
    quota.budget->set_limit(10000);
    EXPECT_TRUE(IsError(list->Resize(301), StatusCode::kResourceExhausted,
                        "vm.list length of 301 elements exceeds the limit of 300 "
                        "(IREE_RT_LIMIT_MAX_LIST_LENGTH)"));
    ASSERT_TRUE(list->Resize(300).ok());
    EXPECT_EQ(quota.budget->used(), list->capacity() * 4);
  }
  EXPECT_EQ(quota.budget->used(), 0u);
  // Growth by one element at a time reaches the budget in a few reallocations.
  quota.budget->set_limit(4000);
  quota.limits.max_list_length = kUnlimited;
  auto grown = List::Create(Type::Value(ValueType::kI8), 0, &quota);
  ASSERT_TRUE(grown.ok());
  size_t reallocations = 0;
  for (size_t capacity = 0; (*grown)->Push(Value::I32(1)).ok();) {
    if ((*grown)->capacity() != capacity) ++reallocations;
    capacity = (*grown)->capacity();
  }
  EXPECT_EQ((*grown)->size(), 4000u);
  EXPECT_LE(reallocations, 14u);
}

TEST(ListTest, ResizeGrowsWithZerosAndGrowsCapacity) {
  base::Ref<List> list = MakeList(Type::Value(ValueType::kF64));
  ASSERT_TRUE(list->Resize(3).ok());
  EXPECT_EQ(list->size(), 3u);
  EXPECT_GE(list->capacity(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    auto value = list->GetValue(i, ValueType::kF64);
    ASSERT_TRUE(value.ok());
    EXPECT_EQ(value->type(), ValueType::kF64);
    EXPECT_EQ(value->f64(), 0.0);
  }
  ASSERT_TRUE(list->SetValue(2, Value::F64(4.5)).ok());
  ASSERT_TRUE(list->Resize(1).ok());
  ASSERT_TRUE(list->Resize(3).ok());
  EXPECT_EQ(list->GetValue(2, ValueType::kF64)->f64(), 0.0);  // regrown slots are zero again
}

TEST(ListTest, IndicesAreBoundsChecked) {
  base::Ref<List> list = MakeList(Type::Value(ValueType::kI32), 8);
  ASSERT_TRUE(list->Resize(3).ok());
  EXPECT_TRUE(IsError(list->GetValue(3, ValueType::kI32), StatusCode::kOutOfRange,
                      "index 3 out of bounds (size 3)"));
  EXPECT_TRUE(IsError(list->SetValue(7, Value::I32(1)), StatusCode::kOutOfRange,
                      "index 7 out of bounds (size 3)"));
  EXPECT_TRUE(
      IsError(list->GetVariant(std::numeric_limits<size_t>::max()), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(list->SetVariant(3, Value::I32(1)), StatusCode::kOutOfRange));
  base::Ref<List> refs = MakeList(Type::OfRef(&kBufferType));
  EXPECT_TRUE(IsError(refs->GetRef(0, Type::Any()), StatusCode::kOutOfRange,
                      "index 0 out of bounds (size 0)"));
  EXPECT_TRUE(IsError(refs->SetRef(0, Ref()), StatusCode::kOutOfRange));
}

TEST(ListTest, IntegerConversionsSignExtendAndTruncate) {
  base::Ref<List> i8 = MakeList(Type::Value(ValueType::kI8));
  ASSERT_TRUE(i8->Resize(2).ok());
  ASSERT_TRUE(i8->SetValue(0, Value::I32(300)).ok());  // 0x12C truncates to 0x2C
  ASSERT_TRUE(i8->SetValue(1, Value::I64(-1)).ok());
  EXPECT_EQ(i8->GetValue(0, ValueType::kI32)->i32(), 44);
  EXPECT_EQ(i8->GetValue(1, ValueType::kI32)->i32(), -1);  // i8 is signed: sign-extends
  EXPECT_EQ(i8->GetValue(1, ValueType::kI64)->i64(), -1);
  auto variant = i8->GetVariant(1);
  ASSERT_TRUE(variant.ok());
  EXPECT_EQ(variant->type(), ValueType::kI8);

  base::Ref<List> i16 = MakeList(Type::Value(ValueType::kI16));
  ASSERT_TRUE(i16->Resize(1).ok());
  ASSERT_TRUE(i16->SetValue(0, Value::I32(0x18000)).ok());
  EXPECT_EQ(i16->GetValue(0, ValueType::kI32)->i32(), -32768);

  base::Ref<List> i32 = MakeList(Type::Value(ValueType::kI32));
  ASSERT_TRUE(i32->Resize(1).ok());
  ASSERT_TRUE(i32->SetValue(0, Value::I64(0x100001234ll)).ok());
  EXPECT_EQ(i32->GetValue(0, ValueType::kI32)->i32(), 0x1234);
  auto narrowed = i32->GetValue(0, ValueType::kI8);
  ASSERT_TRUE(narrowed.ok());
  EXPECT_EQ(narrowed->type(), ValueType::kI8);
  EXPECT_EQ(narrowed->i32(), 0x34);
  ASSERT_TRUE(i32->SetValue(0, Value::I32(-7)).ok());
  EXPECT_EQ(i32->GetValue(0, ValueType::kI64)->i64(), -7);

  base::Ref<List> i64 = MakeList(Type::Value(ValueType::kI64));
  ASSERT_TRUE(i64->Resize(1).ok());
  ASSERT_TRUE(i64->SetValue(0, Value::I16(-5)).ok());
  EXPECT_EQ(i64->GetValue(0, ValueType::kI64)->i64(), -5);
}

TEST(ListTest, FloatConversionsAndNoIntFloatConversion) {
  base::Ref<List> f32 = MakeList(Type::Value(ValueType::kF32));
  ASSERT_TRUE(f32->Resize(2).ok());
  ASSERT_TRUE(f32->SetValue(0, Value::F64(1.5)).ok());
  EXPECT_EQ(f32->GetValue(0, ValueType::kF32)->f32(), 1.5f);
  EXPECT_EQ(f32->GetValue(0, ValueType::kF64)->f64(), 1.5);
  EXPECT_EQ(f32->GetValue(0, ValueType::kI32)->i32(), 0);  // float -> int reads 0
  ASSERT_TRUE(f32->SetValue(1, Value::I32(7)).ok());       // int -> float stores 0
  EXPECT_EQ(f32->GetValue(1, ValueType::kF32)->f32(), 0.0f);

  base::Ref<List> i32 = MakeList(Type::Value(ValueType::kI32));
  ASSERT_TRUE(i32->Resize(1).ok());
  ASSERT_TRUE(i32->SetValue(0, Value::F32(2.5f)).ok());
  EXPECT_EQ(i32->GetValue(0, ValueType::kI32)->i32(), 0);
  ASSERT_TRUE(i32->SetValue(0, Value::I32(3)).ok());
  auto as_float = i32->GetValue(0, ValueType::kF64);
  ASSERT_TRUE(as_float.ok());
  EXPECT_EQ(as_float->type(), ValueType::kF64);
  EXPECT_EQ(as_float->f64(), 0.0);
}

TEST(ListTest, ValueAccessRejectsNonPrimitives) {
  base::Ref<List> list = MakeList(Type::Value(ValueType::kI32));
  ASSERT_TRUE(list->Resize(1).ok());
  EXPECT_TRUE(IsError(list->GetValue(0, ValueType::kRef), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(list->GetValue(0, ValueType::kNone), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(list->SetValue(0, Value()), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(list->SetValue(0, Value::FromRef(Ref())), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(list->GetRef(0, Type::Any()), StatusCode::kFailedPrecondition, "not a ref"));
  EXPECT_TRUE(IsError(list->SetRef(0, Ref::Make(MakeBuffer())), StatusCode::kFailedPrecondition));
  EXPECT_TRUE(IsError(list->SetVariant(0, Value::FromRef(Ref())), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(list->SetVariant(0, Value()), StatusCode::kInvalidArgument));
}

TEST(ListTest, TypedRefListChecksAssignmentsAndCountsReferences) {
  base::Ref<List> list = MakeList(Type::OfRef(&kBufferType), 2);
  ASSERT_TRUE(list->Resize(2).ok());
  base::Ref<Buffer> buffer = MakeBuffer();
  ASSERT_TRUE(list->SetRef(0, Ref::Make(buffer)).ok());
  EXPECT_EQ(buffer->ref_count_for_testing(), 2);
  ASSERT_TRUE(list->SetRef(1, Ref()).ok());  // null always passes

  base::Ref<List> other = MakeList(Type::Value(ValueType::kI32));
  EXPECT_TRUE(IsError(list->SetRef(1, Ref::Make(other)), StatusCode::kInvalidArgument,
                      "source ref type mismatch: list holds vm.buffer but got vm.list"));
  EXPECT_EQ(other->ref_count_for_testing(), 1);  // the rejected ref was released
  EXPECT_TRUE(list->GetRef(1, Type::Any())->is_null());

  EXPECT_TRUE(IsError(list->GetValue(0, ValueType::kI32), StatusCode::kFailedPrecondition));
  EXPECT_TRUE(IsError(list->SetValue(0, Value::I32(1)), StatusCode::kFailedPrecondition));
  EXPECT_TRUE(IsError(list->SetVariant(0, Value::I32(1)), StatusCode::kInvalidArgument));

  {
    auto ref = list->GetRef(0, Type::OfRef(&kBufferType));
    ASSERT_TRUE(ref.ok());
    EXPECT_EQ(ref->Get<Buffer>(), buffer.get());
    EXPECT_EQ(buffer->ref_count_for_testing(), 3);  // GetRef retains
  }
  EXPECT_EQ(buffer->ref_count_for_testing(), 2);
  // Empty values become null refs in a ref list.
  ASSERT_TRUE(list->SetVariant(0, Value()).ok());
  EXPECT_EQ(buffer->ref_count_for_testing(), 1);
}

TEST(ListTest, GetRefReadsMismatchedTypesAsNull) {
  base::Ref<List> list = MakeList(Type::OfRef(nullptr));  // any ref type
  base::Ref<Buffer> buffer = MakeBuffer();
  ASSERT_TRUE(list->Push(Value::FromRef(Ref::Make(buffer))).ok());
  ASSERT_TRUE(list->Push(Value::FromRef(Ref::Make(MakeList(Type::Any())))).ok());
  EXPECT_EQ(list->GetRef(0, Type::OfRef(&kBufferType))->Get<Buffer>(), buffer.get());
  EXPECT_EQ(list->GetRef(0, Type::Any())->Get<Buffer>(), buffer.get());
  EXPECT_EQ(list->GetRef(0, Type::OfRef(nullptr))->Get<Buffer>(), buffer.get());
  EXPECT_TRUE(list->GetRef(0, Type::OfRef(&kListType))->is_null());
  EXPECT_TRUE(list->GetRef(0, Type::Value(ValueType::kI32))->is_null());
  EXPECT_EQ(list->GetRef(1, Type::OfRef(&kListType))->type(), &kListType);
  EXPECT_EQ(buffer->ref_count_for_testing(), 2);  // the nulled reads released their retain
}

TEST(ListTest, ShrinkingAndDestructionReleaseRefs) {
  base::Ref<Buffer> a = MakeBuffer();
  base::Ref<Buffer> b = MakeBuffer();
  {
    base::Ref<List> list = MakeList(Type::OfRef(&kBufferType));
    ASSERT_TRUE(list->Push(Value::FromRef(Ref::Make(a))).ok());
    ASSERT_TRUE(list->Push(Value::FromRef(Ref::Make(b))).ok());
    EXPECT_EQ(a->ref_count_for_testing(), 2);
    EXPECT_EQ(b->ref_count_for_testing(), 2);
    ASSERT_TRUE(list->Resize(1).ok());
    EXPECT_EQ(a->ref_count_for_testing(), 2);
    EXPECT_EQ(b->ref_count_for_testing(), 1);
    ASSERT_TRUE(list->Resize(2).ok());
    EXPECT_TRUE(list->GetRef(1, Type::Any())->is_null());
    base::Ref<List> variants = MakeList(Type::Any());
    ASSERT_TRUE(variants->Push(Value::FromRef(Ref::Make(b))).ok());
    ASSERT_TRUE(list->Push(Value::FromRef(Ref::Make(a))).ok());
    EXPECT_EQ(a->ref_count_for_testing(), 3);
    EXPECT_EQ(b->ref_count_for_testing(), 2);
  }
  EXPECT_EQ(a->ref_count_for_testing(), 1);
  EXPECT_EQ(b->ref_count_for_testing(), 1);
}

TEST(ListTest, VariantListStoresEachElementWithItsOwnType) {
  base::Ref<List> list = MakeList(Type::Any());
  base::Ref<Buffer> buffer = MakeBuffer();
  ASSERT_TRUE(list->Push(Value::I32(-3)).ok());
  ASSERT_TRUE(list->Push(Value::F64(0.25)).ok());
  ASSERT_TRUE(list->Push(Value::FromRef(Ref::Make(buffer))).ok());
  ASSERT_TRUE(list->Push(Value()).ok());
  ASSERT_TRUE(list->Push(Value::I8(-1)).ok());
  ASSERT_EQ(list->size(), 5u);

  EXPECT_EQ(list->GetVariant(0)->type(), ValueType::kI32);
  EXPECT_EQ(list->GetVariant(1)->f64(), 0.25);
  EXPECT_EQ(list->GetVariant(2)->ref().Get<Buffer>(), buffer.get());
  EXPECT_TRUE(list->GetVariant(3)->is_none());
  EXPECT_EQ(list->GetVariant(4)->type(), ValueType::kI8);

  EXPECT_EQ(list->GetValue(0, ValueType::kI64)->i64(), -3);
  EXPECT_EQ(list->GetValue(1, ValueType::kF32)->f32(), 0.25f);
  EXPECT_EQ(list->GetValue(1, ValueType::kI32)->i32(), 0);
  EXPECT_EQ(list->GetValue(4, ValueType::kI32)->i32(), -1);
  EXPECT_TRUE(IsError(list->GetValue(2, ValueType::kI32), StatusCode::kFailedPrecondition,
                      "list element 2 is a ref"));
  EXPECT_TRUE(IsError(list->GetValue(3, ValueType::kI32), StatusCode::kFailedPrecondition,
                      "list element 3 is empty"));
  EXPECT_TRUE(IsError(list->GetRef(0, Type::Any()), StatusCode::kFailedPrecondition,
                      "is a i32 value, not a ref"));
  EXPECT_TRUE(list->GetRef(3, Type::Any())->is_null());
  EXPECT_EQ(list->GetRef(2, Type::OfRef(&kBufferType))->Get<Buffer>(), buffer.get());

  // A variant element can change kind.
  ASSERT_TRUE(list->SetRef(0, Ref::Make(buffer)).ok());
  ASSERT_TRUE(list->SetValue(2, Value::F32(1.0f)).ok());
  EXPECT_EQ(list->GetVariant(0)->type(), ValueType::kRef);
  EXPECT_EQ(list->GetVariant(2)->type(), ValueType::kF32);
  EXPECT_EQ(buffer->ref_count_for_testing(), 2);
  ASSERT_TRUE(list->Resize(0).ok());
  EXPECT_EQ(buffer->ref_count_for_testing(), 1);
}

TEST(ListTest, PushGrowsAndFailedPushLeavesTheListUnchanged) {
  base::Ref<List> list = MakeList(Type::Value(ValueType::kI16));
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(list->Push(Value::I32(i)).ok());
  EXPECT_EQ(list->size(), 1000u);
  EXPECT_EQ(list->GetValue(999, ValueType::kI32)->i32(), 999);
  EXPECT_TRUE(
      IsError(list->Push(Value::FromRef(Ref::Make(MakeBuffer()))), StatusCode::kInvalidArgument));
  EXPECT_EQ(list->size(), 1000u);
}

TEST(ListTest, CapacityIsCapped) {
  EXPECT_TRUE(IsError(List::Create(Type::Value(ValueType::kI8), size_t{1} << 40),
                      StatusCode::kResourceExhausted, "list capacity 1099511627776"));
  base::Ref<List> list = MakeList(Type::Any());
  ASSERT_TRUE(list->Push(Value::I32(1)).ok());
  EXPECT_TRUE(
      IsError(list->Reserve(std::numeric_limits<size_t>::max()), StatusCode::kResourceExhausted));
  EXPECT_TRUE(
      IsError(list->Resize(std::numeric_limits<size_t>::max()), StatusCode::kResourceExhausted));
  EXPECT_EQ(list->size(), 1u);
  EXPECT_EQ(list->GetValue(0, ValueType::kI32)->i32(), 1);
}

TEST(ListTest, CreateRejectsMalformedElementType) {
  EXPECT_TRUE(
      IsError(List::Create(Type{ValueType::kNone, &kBufferType}, 0), StatusCode::kInvalidArgument));
}

TEST(ListTest, ListsNestAsRefs) {
  base::Ref<List> inner = MakeList(Type::Value(ValueType::kI32));
  Ref ref = Ref::Make(inner);
  EXPECT_EQ(ref.type(), &kListType);
  EXPECT_EQ(kListType.name, "vm.list");
  EXPECT_EQ(ref.Get<List>(), inner.get());
  base::Ref<List> outer = MakeList(Type::OfRef(&kListType));
  ASSERT_TRUE(outer->Push(Value::FromRef(std::move(ref))).ok());
  EXPECT_EQ(inner->ref_count_for_testing(), 2);
  outer = nullptr;
  EXPECT_EQ(inner->ref_count_for_testing(), 1);
}

}  // namespace
}  // namespace iree_rt::vm
