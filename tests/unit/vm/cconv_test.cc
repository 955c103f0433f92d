// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/cconv.h"

#include <gtest/gtest.h>

#include <vector>

#include "object_model_test_util.h"
#include "vm/buffer.h"

namespace iree_rt::vm {
namespace {

using base::StatusCode;
using testing::IsError;

std::vector<ValueType> Scalars(const Cconv& cconv) {
  std::vector<ValueType> types;
  for (const CconvItem& item : cconv.arguments) types.push_back(item.type);
  return types;
}

TEST(CconvTest, ParsesEmptySignatures) {
  for (const char* text : {"0v_v", "", "0", "0v", "0_", "0_v", "0v_"}) {
    auto cconv = ParseCconv(text);
    ASSERT_TRUE(cconv.ok()) << text << ": " << cconv.status().ToString();
    EXPECT_TRUE(cconv->arguments.empty()) << text;
    EXPECT_TRUE(cconv->results.empty()) << text;
    EXPECT_FALSE(cconv->has_spans());
  }
}

TEST(CconvTest, ParsesScalars) {
  auto cconv = ParseCconv("0iIfFr_rFfIi");
  ASSERT_TRUE(cconv.ok());
  EXPECT_EQ(Scalars(*cconv),
            (std::vector<ValueType>{ValueType::kI32, ValueType::kI64, ValueType::kF32,
                                    ValueType::kF64, ValueType::kRef}));
  EXPECT_EQ(cconv->results,
            (std::vector<ValueType>{ValueType::kRef, ValueType::kF64, ValueType::kF32,
                                    ValueType::kI64, ValueType::kI32}));
  for (const CconvItem& item : cconv->arguments) EXPECT_FALSE(item.is_span());
}

TEST(CconvTest, MissingSeparatorMeansArgumentsOnly) {
  auto cconv = ParseCconv("0rrr");
  ASSERT_TRUE(cconv.ok());
  EXPECT_EQ(cconv->arguments.size(), 3u);
  EXPECT_TRUE(cconv->results.empty());
  auto results_only = ParseCconv("0v_f");
  ASSERT_TRUE(results_only.ok());
  EXPECT_TRUE(results_only->arguments.empty());
  EXPECT_EQ(results_only->results, std::vector<ValueType>{ValueType::kF32});
}

TEST(CconvTest, ParsesVariadicSpans) {
  auto cconv = ParseCconv("0iICrD_i");  // hal.fence.await-like
  ASSERT_TRUE(cconv.ok());
  ASSERT_EQ(cconv->arguments.size(), 3u);
  EXPECT_EQ(cconv->arguments[0].type, ValueType::kI32);
  EXPECT_EQ(cconv->arguments[1].type, ValueType::kI64);
  EXPECT_TRUE(cconv->arguments[2].is_span());
  EXPECT_EQ(cconv->arguments[2].type, ValueType::kNone);
  EXPECT_EQ(cconv->arguments[2].tuple, std::vector<ValueType>{ValueType::kRef});
  EXPECT_TRUE(cconv->has_spans());
  EXPECT_EQ(cconv->results, std::vector<ValueType>{ValueType::kI32});

  auto tuples = ParseCconv("0CiIDrCfD_v");
  ASSERT_TRUE(tuples.ok());
  ASSERT_EQ(tuples->arguments.size(), 3u);
  EXPECT_EQ(tuples->arguments[0].tuple, (std::vector<ValueType>{ValueType::kI32, ValueType::kI64}));
  EXPECT_EQ(tuples->arguments[1].type, ValueType::kRef);
  EXPECT_EQ(tuples->arguments[2].tuple, std::vector<ValueType>{ValueType::kF32});
}

TEST(CconvTest, OtherVersionsAreUnimplemented) {
  EXPECT_TRUE(IsError(ParseCconv("1i_v"), StatusCode::kUnimplemented, "version '1' in '1i_v'"));
  EXPECT_TRUE(IsError(ParseCconv("v"), StatusCode::kUnimplemented));
}

TEST(CconvTest, ErrorsNameTheStringAndPosition) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"0x_v", "invalid calling convention '0x_v': unexpected 'x' at position 1"},
      {"0i_x", "unexpected 'x' at position 3"},
      {"0vi_v", "unexpected 'i' at position 2"},
      {"0i_vi", "unexpected 'i' at position 4"},
      {"0i_i_i", "unexpected '_' at position 4"},
      {"0i_Cr", "unexpected 'C' at position 3"},     // spans are arguments only
      {"0CCiDD_v", "unexpected 'C' at position 2"},  // no nesting
      {"0CD_v", "unexpected 'D' at position 2 (empty variadic span)"},
      {"0D_v", "unexpected 'D' at position 1"},
      {"0Cv_v", "unexpected 'v' at position 2"},
      {"0Ci", "calling convention '0Ci' ends early: unterminated variadic span"},
      {"0i v", "unexpected ' ' at position 2"},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(IsError(ParseCconv(c.text), StatusCode::kInvalidArgument, c.message)) << c.text;
  }
}

TEST(CconvTest, CheckValuesAcceptsMatchingValuesAndNullRefs) {
  auto cconv = ParseCconv("0iIfFr_v");
  ASSERT_TRUE(cconv.ok());
  auto buffer = Buffer::Allocate(1, 0);
  ASSERT_TRUE(buffer.ok());
  const Value with_ref[] = {Value::I32(1), Value::I64(2), Value::F32(3), Value::F64(4),
                            Value::FromRef(Ref::Make(*buffer))};
  EXPECT_TRUE(CheckValues("args", cconv->arguments, with_ref).ok());
  const Value null_ref[] = {Value::I32(1), Value::I64(2), Value::F32(3), Value::F64(4),
                            Value::FromRef(Ref())};
  EXPECT_TRUE(CheckValues("args", cconv->arguments, null_ref).ok());
  const Value empty_ref[] = {Value::I32(1), Value::I64(2), Value::F32(3), Value::F64(4), Value()};
  EXPECT_TRUE(CheckValues("args", cconv->arguments, empty_ref).ok());
}

TEST(CconvTest, CheckValuesReportsMismatches) {
  auto cconv = ParseCconv("0iI_v");
  ASSERT_TRUE(cconv.ok());
  const Value swapped[] = {Value::I64(1), Value::I32(2)};
  EXPECT_TRUE(IsError(CheckValues("arguments of f", cconv->arguments, swapped),
                      StatusCode::kInvalidArgument,
                      "arguments of f: value 0 is i64 but the calling convention expects i32"));
  const Value narrow[] = {Value::I8(1), Value::I64(2)};
  EXPECT_TRUE(IsError(CheckValues("a", cconv->arguments, narrow), StatusCode::kInvalidArgument,
                      "value 0 is i8"));
  const Value too_few[] = {Value::I32(1)};
  EXPECT_TRUE(IsError(CheckValues("a", cconv->arguments, too_few), StatusCode::kInvalidArgument,
                      "too few values (1)"));
  const Value too_many[] = {Value::I32(1), Value::I64(2), Value::I32(3)};
  EXPECT_TRUE(IsError(CheckValues("a", cconv->arguments, too_many), StatusCode::kInvalidArgument,
                      "expected 2 values but got 3"));
  const Value ref_for_int[] = {Value::FromRef(Ref()), Value::I64(2)};
  EXPECT_TRUE(IsError(CheckValues("a", cconv->arguments, ref_for_int), StatusCode::kInvalidArgument,
                      "value 0 is ref"));
  auto refs = ParseCconv("0r_v");
  ASSERT_TRUE(refs.ok());
  const Value int_for_ref[] = {Value::I32(0)};
  EXPECT_TRUE(IsError(CheckValues("a", refs->arguments, int_for_ref), StatusCode::kInvalidArgument,
                      "value 0 is i32 but the calling convention expects ref"));
}

TEST(CconvTest, CheckValuesWalksSpans) {
  auto cconv = ParseCconv("0iCrID_v");
  ASSERT_TRUE(cconv.ok());
  const Value two[] = {Value::I32(9), Value::I32(2),         Value::FromRef(Ref()),
                       Value::I64(1), Value::FromRef(Ref()), Value::I64(2)};
  EXPECT_TRUE(CheckValues("a", cconv->arguments, two).ok());
  const Value none[] = {Value::I32(9), Value::I32(0)};
  EXPECT_TRUE(CheckValues("a", cconv->arguments, none).ok());
  const Value negative[] = {Value::I32(9), Value::I32(-1)};
  EXPECT_TRUE(IsError(CheckValues("a", cconv->arguments, negative), StatusCode::kInvalidArgument,
                      "negative span count"));
  const Value short_tuples[] = {Value::I32(9), Value::I32(2), Value::FromRef(Ref()), Value::I64(1),
                                Value::FromRef(Ref())};
  EXPECT_TRUE(IsError(CheckValues("a", cconv->arguments, short_tuples),
                      StatusCode::kInvalidArgument, "too few values"));
  const Value huge_count[] = {Value::I32(9), Value::I32(0x7fffffff), Value::FromRef(Ref()),
                              Value::I64(1)};
  EXPECT_TRUE(IsError(CheckValues("a", cconv->arguments, huge_count), StatusCode::kInvalidArgument,
                      "too few values"));
  const Value i64_count[] = {Value::I32(9), Value::I64(1), Value::FromRef(Ref()), Value::I64(1)};
  EXPECT_TRUE(IsError(CheckValues("a", cconv->arguments, i64_count), StatusCode::kInvalidArgument,
                      "value 1 is i64 but the calling convention expects i32"));
  const Value bad_element[] = {Value::I32(9), Value::I32(1), Value::FromRef(Ref()), Value::I32(1)};
  EXPECT_TRUE(IsError(CheckValues("a", cconv->arguments, bad_element), StatusCode::kInvalidArgument,
                      "value 3 is i32 but the calling convention expects i64"));
  const Value missing_count[] = {Value::I32(9)};
  EXPECT_TRUE(IsError(CheckValues("a", cconv->arguments, missing_count),
                      StatusCode::kInvalidArgument, "too few values"));
}

TEST(CconvTest, CheckResults) {
  const std::vector<ValueType> types = {ValueType::kF32, ValueType::kRef};
  const Value good[] = {Value::F32(1), Value::FromRef(Ref())};
  EXPECT_TRUE(CheckResults("results", types, good).ok());
  const Value bad[] = {Value::F64(1), Value::FromRef(Ref())};
  EXPECT_TRUE(IsError(CheckResults("results", types, bad), StatusCode::kInvalidArgument,
                      "results: value 0 is f64 but the calling convention expects f32"));
  const Value short_list[] = {Value::F32(1)};
  EXPECT_TRUE(IsError(CheckResults("results", types, short_list), StatusCode::kInvalidArgument,
                      "expected 2 values but got 1"));
  EXPECT_TRUE(CheckResults("results", {}, {}).ok());
}

}  // namespace
}  // namespace iree_rt::vm
