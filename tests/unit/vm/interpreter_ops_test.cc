// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Opcode-level behavior on hand-written VM IR (vm_ops.mlir): globals, lists, buffers, refs,
// switch/select, branches with block arguments, conversions and traps.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <iterator>
#include <optional>

#include "interpreter_test_util.h"
#include "vm/buffer.h"
#include "vm/list.h"

namespace iree_rt::vm::bytecode::testing {
namespace {

using base::StatusCode;

constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();

Value BufferValue(const base::Ref<Buffer>& buffer) { return Value::FromRef(Ref::Make(buffer)); }
base::Ref<Buffer> NewBuffer(size_t length) { return std::move(Buffer::Allocate(length, 0)).value(); }

class OpsTest : public ProgramTest {
 protected:
  void SetUp() override {
    auto module = LoadProgram(*instance_, "vm_ops");
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    Link({*module});
  }
};

TEST_F(OpsTest, GlobalsAndInitializers) {
  auto r = Run("globals", {I32(-7), I64(0x1122334455667788), F32(2.5f), F64(-0.125)});
  EXPECT_EQ(r[0].i32(), -7);
  EXPECT_EQ(r[1].i64(), 0x1122334455667788);
  EXPECT_EQ(r[2].f32(), 2.5f);
  EXPECT_EQ(r[3].f64(), -0.125);
  EXPECT_EQ(r[4].i32(), 42);            // set by __init
  EXPECT_EQ(r[5].i64(), 0x123456789A);  // 64-bit initial value
  // Globals persist between calls of one context.
  EXPECT_EQ(Run("bump", {})[0].i32(), -6);
  EXPECT_EQ(Run("bump", {})[0].i32(), -5);
}

TEST_F(OpsTest, GlobalsAreZeroInitializedPerContext) {
  EXPECT_EQ(Run("bump", {})[0].i32(), 1);
  EXPECT_EQ(Run("bump", {})[0].i32(), 2);
  SetUp();  // a fresh context has fresh state
  EXPECT_EQ(Run("bump", {})[0].i32(), 1);
}

TEST_F(OpsTest, IndirectGlobals) {
  auto r = Run("globals_indirect", {I32(123456), I64(-99999999999)});
  EXPECT_EQ(r[0].i32(), 123456);
  EXPECT_EQ(r[1].i64(), -99999999999);
}

TEST_F(OpsTest, RefGlobal) {
  base::Ref<Buffer> a = NewBuffer(4), b = NewBuffer(8);
  auto r = Run("global_ref", {BufferValue(a)});
  EXPECT_EQ(r[0].ref().Get<Buffer>(), a.get());
  EXPECT_EQ(r[1].i32(), 0);
  r = Run("global_ref", {BufferValue(b)});
  EXPECT_EQ(r[0].ref().Get<Buffer>(), b.get());
  EXPECT_EQ(r[1].i32(), 1);
  r.clear();
  // The global holds b; a is back to its owner only.
  EXPECT_EQ(a->ref_count_for_testing(), 1);
  EXPECT_EQ(b->ref_count_for_testing(), 2);
  program_.reset();  // the context (and its state) releases the global
  EXPECT_EQ(b->ref_count_for_testing(), 1);
}

TEST_F(OpsTest, IntegerLists) {
  const int32_t v = 0x12345687;
  auto r = Run("list_ints", {I32(5), I32(4), I32(v), I64(-0x123456789)});
  EXPECT_EQ(r[0].i32(), static_cast<int8_t>(v & 0xFF));  // narrowed, then sign-extended
  EXPECT_EQ(r[1].i32(), static_cast<int16_t>(v & 0xFFFF));
  EXPECT_EQ(r[2].i32(), v);
  EXPECT_EQ(r[3].i64(), -0x123456789);
  EXPECT_EQ(r[4].i32(), 5);
  EXPECT_TRUE(IsError(RunStatus("list_ints", {I32(2), I32(2), I32(1), I64(1)}), StatusCode::kOutOfRange));
}

TEST_F(OpsTest, ListConversions) {
  const int64_t w = 0x1234567880000001;
  auto r = Run("list_convert", {I64(w), F32(0.1f)});
  const int32_t low = static_cast<int32_t>(static_cast<uint32_t>(w));
  EXPECT_EQ(r[0].i64(), int64_t{low});
  EXPECT_EQ(r[1].i32(), low);
  EXPECT_EQ(r[2].f64(), static_cast<double>(0.1f));
  EXPECT_EQ(r[3].f32(), 0.1f);
}

TEST_F(OpsTest, VariantListsAndRefElements) {
  base::Ref<Buffer> b = NewBuffer(3);
  auto r = Run("list_variant", {BufferValue(b), I32(77), F64(6.5)});
  List* list = r[0].ref().Get<List>();
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->size(), 3u);
  EXPECT_EQ(list->GetVariant(0)->ref().Get<Buffer>(), b.get());
  EXPECT_EQ(list->GetVariant(1)->i32(), 77);
  EXPECT_EQ(list->GetVariant(2)->f64(), 6.5);
  EXPECT_EQ(r[1].ref().Get<Buffer>(), b.get());
  EXPECT_EQ(r[2].i32(), 77);
  EXPECT_EQ(b->ref_count_for_testing(), 3);  // ours, the list's, the result's
  r.clear();
  EXPECT_EQ(b->ref_count_for_testing(), 1);
  // A ref element of another type reads as null.
  EXPECT_EQ(Run("list_get_ref_mismatch", {BufferValue(b)})[0].i32(), 0);
}

TEST_F(OpsTest, ListErrors) {
  EXPECT_TRUE(IsError(RunStatus("list_get_oob", {I32(3), I32(3)}), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(RunStatus("list_get_oob", {I32(3), I32(-1)}), StatusCode::kOutOfRange));
  EXPECT_EQ(Run("list_get_oob", {I32(3), I32(2)})[0].i32(), 0);
  EXPECT_TRUE(IsError(RunStatus("list_null", {Value::FromRef(Ref())}), StatusCode::kInvalidArgument,
                      "list is null"));
  EXPECT_TRUE(IsError(RunStatus("list_null", {BufferValue(NewBuffer(1))}), StatusCode::kInvalidArgument,
                      "vm.buffer"));
}

TEST_F(OpsTest, BufferLoadsAndStores) {
  const int32_t v = -0x1234567F;
  const int64_t w = -0x0102030405060708;
  auto r = Run("buffer_rw", {I64(64), I64(3), I32(v), I64(w), F32(-1.75f), F64(1e-300)});
  EXPECT_EQ(r[0].i32(), static_cast<int8_t>(v & 0xFF));
  EXPECT_EQ(r[1].i32(), v & 0xFF);
  EXPECT_EQ(r[2].i32(), static_cast<int16_t>(v & 0xFFFF));
  EXPECT_EQ(r[3].i32(), v & 0xFFFF);
  EXPECT_EQ(r[4].i32(), v);
  EXPECT_EQ(r[5].i64(), w);
  EXPECT_EQ(r[6].f32(), -1.75f);
  EXPECT_EQ(r[7].f64(), 1e-300);
  EXPECT_EQ(r[8].i64(), 64);
  // 16 bytes: index 2 fits i8/i16/i32 but i64 element 2 (bytes 16..24) does not.
  EXPECT_TRUE(IsError(RunStatus("buffer_rw", {I64(16), I64(2), I32(1), I64(1), F32(1), F64(1)}),
                      StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(RunStatus("buffer_rw", {I64(16), I64(-1), I32(1), I64(1), F32(1), F64(1)}),
                      StatusCode::kOutOfRange));
}

TEST_F(OpsTest, BufferBulkOps) {
  const int32_t v = 0x5A6B7C8D;
  const int64_t w = 0x0102030405060708;
  const float f = 3.25f;
  auto r = Run("buffer_bulk", {I32(v), I64(w), F32(f)});
  Buffer* buffer = r[0].ref().Get<Buffer>();
  Buffer* clone = r[1].ref().Get<Buffer>();
  ASSERT_NE(buffer, nullptr);
  ASSERT_NE(clone, nullptr);
  std::vector<uint8_t> expected(32, 0);
  for (int i = 0; i < 4; ++i) expected[i] = static_cast<uint8_t>(v);
  for (int i = 0; i < 2; ++i) {
    const uint16_t h = static_cast<uint16_t>(v);
    std::memcpy(&expected[4 + 2 * i], &h, 2);
  }
  std::memcpy(&expected[8], &v, 4);
  std::memcpy(&expected[16], &w, 8);
  std::memcpy(&expected[24], &f, 4);
  const int32_t twenty = 20;  // element 1 of the rodata @ro_i32
  std::memcpy(&expected[28], &twenty, 4);
  ASSERT_EQ(buffer->length(), 32u);
  EXPECT_EQ(std::vector<uint8_t>(buffer->bytes().begin(), buffer->bytes().end()), expected);
  ASSERT_EQ(clone->length(), 16u);
  EXPECT_TRUE(clone->is_mutable());
  EXPECT_EQ(std::vector<uint8_t>(clone->bytes().begin(), clone->bytes().end()),
            std::vector<uint8_t>(expected.begin() + 8, expected.begin() + 24));
  EXPECT_EQ(r[2].i32(), 1);
  EXPECT_EQ(r[3].i32(), 0);
  EXPECT_EQ(r[4].i64(), buffer->Hash(0, 32).value());
}

TEST_F(OpsTest, RodataIsReadOnly) {
  auto r = Run("rodata_load", {I64(3)});
  EXPECT_EQ(r[0].i32(), 40);
  EXPECT_EQ(r[1].i32(), -4);
  Buffer* ro = r[2].ref().Get<Buffer>();
  ASSERT_NE(ro, nullptr);
  EXPECT_FALSE(ro->is_mutable());
  EXPECT_EQ(ro->length(), 16u);
  // The same rodata buffer object comes back every time within a context.
  auto again = Run("rodata_load", {I64(0)});
  EXPECT_EQ(again[2].ref().Get<Buffer>(), ro);
  EXPECT_TRUE(IsError(RunStatus("rodata_load", {I64(4)}), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(RunStatus("rodata_store", {I32(1)}), StatusCode::kPermissionDenied));
}

TEST_F(OpsTest, BufferOperandErrors) {
  EXPECT_TRUE(IsError(RunStatus("buffer_load_i32", {Value::FromRef(Ref()), I64(0)}),
                      StatusCode::kInvalidArgument, "buffer is null"));
  auto list = std::move(List::Create(Type::Value(ValueType::kI32), 1)).value();
  EXPECT_TRUE(IsError(RunStatus("buffer_load_i32", {Value::FromRef(Ref::Make(list)), I64(0)}),
                      StatusCode::kInvalidArgument, "vm.list"));
  base::Ref<Buffer> a = NewBuffer(8), b = NewBuffer(8);
  EXPECT_TRUE(IsError(RunStatus("buffer_copy", {BufferValue(a), I64(4), BufferValue(b), I64(0), I64(8)}),
                      StatusCode::kOutOfRange));
  EXPECT_TRUE(RunStatus("buffer_copy", {BufferValue(a), I64(4), BufferValue(b), I64(4), I64(4)}).ok());
}

TEST_F(OpsTest, RefOps) {
  base::Ref<Buffer> a = NewBuffer(1), b = NewBuffer(2);
  {
    auto r = Run("ref_ops", {I32(1), BufferValue(a), BufferValue(b)});
    EXPECT_EQ(r[0].ref().Get<Buffer>(), a.get());
    EXPECT_EQ(r[1].i32(), 1);
    EXPECT_EQ(r[2].i32(), 1);
    EXPECT_EQ(r[3].i32(), 0);
    EXPECT_EQ(r[4].ref().Get<Buffer>(), b.get());
  }
  {
    auto r = Run("ref_ops", {I32(0), BufferValue(a), BufferValue(b)});
    EXPECT_EQ(r[0].ref().Get<Buffer>(), b.get());
    EXPECT_EQ(r[1].i32(), 0);
    EXPECT_EQ(r[2].i32(), 0);
    EXPECT_EQ(r[4].ref().Get<Buffer>(), a.get());
  }
  {
    auto r = Run("ref_ops", {I32(7), BufferValue(a), BufferValue(b)});
    EXPECT_TRUE(r[4].ref().is_null());
  }
  // Nothing the program touched keeps a reference.
  EXPECT_EQ(a->ref_count_for_testing(), 1);
  EXPECT_EQ(b->ref_count_for_testing(), 1);
}

TEST_F(OpsTest, CastAnyRefChecksTheType) {
  auto list = std::move(List::Create(Type::Value(ValueType::kI32), 1)).value();
  EXPECT_EQ(Run("cast_to_list", {Value::FromRef(Ref::Make(list))})[0].i32(), 1);
  EXPECT_EQ(Run("cast_to_list", {Value::FromRef(Ref())})[0].i32(), 0);
  EXPECT_TRUE(IsError(RunStatus("cast_to_list", {BufferValue(NewBuffer(1))}), StatusCode::kInvalidArgument,
                      "type mismatch"));
}

TEST_F(OpsTest, SwitchAndSelect) {
  const int64_t x = 0x7000000000000001, y = -2;
  const float f = 9.5f;
  const double d = -4.0;
  for (int32_t i : {0, 1, 2, 3, -1}) {
    SCOPED_TRACE(i);
    auto r = Run("switches", {I32(i), I64(x), I64(y), F32(f), F64(d)});
    const int32_t ints[] = {10, 20, 30};
    EXPECT_EQ(r[0].i32(), (i >= 0 && i < 3) ? ints[i] : -1);
    const int64_t longs[] = {x, y, 0x100000000};
    EXPECT_EQ(r[1].i64(), (i >= 0 && i < 3) ? longs[i] : 0x100000000);  // whole 64 bits
    EXPECT_EQ(r[2].f32(), i == 0 ? f : 0.5f);
    EXPECT_EQ(r[3].f64(), i == 1 ? d : 0.25);
    EXPECT_EQ(r[4].i64(), i != 0 ? x : y);
    EXPECT_EQ(r[5].f32(), i != 0 ? f : 0.5f);
  }
}

TEST_F(OpsTest, BranchTable) {
  EXPECT_EQ(Run("br_table", {I32(0)})[0].i32(), 100);
  EXPECT_EQ(Run("br_table", {I32(1)})[0].i32(), 7);
  EXPECT_EQ(Run("br_table", {I32(2)})[0].i32(), 200);
  EXPECT_EQ(Run("br_table", {I32(3)})[0].i32(), 300);
  EXPECT_EQ(Run("br_table", {I32(-1)})[0].i32(), 300);
  EXPECT_EQ(Run("br_table", {I32(kMin32)})[0].i32(), 300);
}

TEST_F(OpsTest, BlockArgumentCycles) {
  for (int32_t n : {0, 1, 2, 5}) {
    int32_t x = -3;
    int64_t y = 0x7FFFFFFF80000001;
    for (int32_t i = 0; i < n; ++i) {
      const int32_t nx = static_cast<int32_t>(static_cast<uint64_t>(y));
      y = x;
      x = nx;
    }
    auto r = Run("swap_loop", {I32(n), I32(-3), I64(0x7FFFFFFF80000001)});
    EXPECT_EQ(r[0].i32(), x) << n;
    EXPECT_EQ(r[1].i64(), y) << n;
  }
  base::Ref<Buffer> a = NewBuffer(1), b = NewBuffer(1);
  for (int32_t n : {0, 1, 4, 7}) {
    auto r = Run("swap_refs", {I32(n), BufferValue(a), BufferValue(b)});
    EXPECT_EQ(r[0].ref().Get<Buffer>(), n % 2 ? b.get() : a.get()) << n;
    EXPECT_EQ(r[1].ref().Get<Buffer>(), n % 2 ? a.get() : b.get()) << n;
  }
  EXPECT_EQ(a->ref_count_for_testing(), 1);
  EXPECT_EQ(b->ref_count_for_testing(), 1);
}

TEST_F(OpsTest, FailCarriesTheCodeMessageAndBacktrace) {
  base::Status status = RunStatus("fail_with", {I32(9)});
  EXPECT_TRUE(IsError(status, StatusCode::kFailedPrecondition, "failed on purpose"));
  EXPECT_TRUE(IsError(status, StatusCode::kFailedPrecondition, "VM backtrace:\n[ 0] bytecode vm_ops."));
  EXPECT_TRUE(IsError(RunStatus("fail_with", {I32(11)}), StatusCode::kOutOfRange, "failed on purpose"));
  EXPECT_TRUE(IsError(RunStatus("fail_with", {I32(0)}), StatusCode::kUnknown, "status code 0"));
  EXPECT_TRUE(IsError(RunStatus("fail_with", {I32(17)}), StatusCode::kUnknown, "status code 17"));
  EXPECT_TRUE(IsError(RunStatus("fail_with", {I32(1000)}), StatusCode::kUnknown, "status code 1000"));
}

TEST_F(OpsTest, IntegerConversions) {
  const int32_t a = static_cast<int32_t>(0x89AB80F0u);
  const int64_t b = 0x0123456789ABCDEF;
  auto r = Run("int_misc", {I32(a), I64(b)});
  EXPECT_EQ(r[0].i32(), a & 0xFF);
  EXPECT_EQ(r[1].i32(), a & 0xFFFF);
  EXPECT_EQ(r[2].i32(), static_cast<int8_t>(a));
  EXPECT_EQ(r[3].i32(), a & 0xFF);
  EXPECT_EQ(r[4].i32(), static_cast<int16_t>(a));
  EXPECT_EQ(r[5].i32(), a & 0xFFFF);
  EXPECT_EQ(r[6].i64(), int64_t{0x89AB80F0});
  EXPECT_EQ(r[7].i64(), ~b);
  EXPECT_EQ(r[8].i32(), 1);
  EXPECT_EQ(Run("int_misc", {I32(0), I64(0)})[8].i32(), 0);
}

TEST_F(OpsTest, DivisionEdgeCases) {
  auto r = Run("div_i32", {I32(kMin32), I32(-1)});
  EXPECT_EQ(r[0].i32(), kMin32);
  EXPECT_EQ(r[1].i32(), 0);
  EXPECT_EQ(static_cast<uint32_t>(r[2].i32()), 0x80000000u / 0xFFFFFFFFu);
  EXPECT_EQ(static_cast<uint32_t>(r[3].i32()), 0x80000000u % 0xFFFFFFFFu);
  auto r64 = Run("div_i64", {I64(kMin64), I64(-1)});
  EXPECT_EQ(r64[0].i64(), kMin64);
  EXPECT_EQ(r64[1].i64(), 0);
  EXPECT_TRUE(IsError(RunStatus("div_i32", {I32(1), I32(0)}), StatusCode::kInvalidArgument, "division by zero"));
  EXPECT_TRUE(IsError(RunStatus("div_i64", {I64(1), I64(0)}), StatusCode::kInvalidArgument, "division by zero"));
}

TEST_F(OpsTest, FloatConversions) {
  auto r = Run("f32_casts", {F32(-7.9f)});
  EXPECT_EQ(r[0].i32(), -7);
  EXPECT_EQ(r[1].i32(), 0);
  EXPECT_EQ(r[2].i64(), -7);
  EXPECT_EQ(r[3].i64(), 0);
  EXPECT_EQ(r[4].i32(), static_cast<int32_t>(std::bit_cast<uint32_t>(-7.9f)));
  r = Run("f32_casts", {F32(1e20f)});
  EXPECT_EQ(r[0].i32(), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(r[1].i32(), -1);  // UINT32_MAX
  EXPECT_EQ(r[2].i64(), kMax64);
  EXPECT_EQ(r[3].i64(), -1);  // UINT64_MAX
  r = Run("f32_casts", {F32(std::numeric_limits<float>::quiet_NaN())});
  EXPECT_EQ(r[0].i32(), 0);
  EXPECT_EQ(r[3].i64(), 0);

  const double d = -123456789012.75;
  auto q = Run("f64_casts", {F64(d), I64(-5), F32(0.1f)});
  EXPECT_EQ(q[0].i64(), -123456789012);
  EXPECT_EQ(q[1].i64(), 0);
  EXPECT_EQ(q[2].f64(), -5.0);
  EXPECT_EQ(q[3].f64(), static_cast<double>(static_cast<uint64_t>(-5)));
  EXPECT_EQ(q[4].f32(), static_cast<float>(d));
  EXPECT_EQ(q[5].i64(), std::bit_cast<int64_t>(d));
  EXPECT_EQ(q[6].f64(), static_cast<double>(0.1f));
  q = Run("f64_casts", {F64(1e300), I64(0), F32(0)});
  EXPECT_EQ(q[0].i64(), kMax64);
  EXPECT_EQ(q[1].i64(), -1);
}

TEST_F(OpsTest, FloatMisc) {
  auto r = Run("f_misc", {F32(-0.5f), F32(2.0f), F64(4.0)});
  EXPECT_EQ(r[0].f32(), 0.5f);
  EXPECT_EQ(r[1].f32(), 0.5f);
  EXPECT_EQ(r[2].i32(), 0);
  EXPECT_EQ(r[3].i32(), 1);
  EXPECT_EQ(r[4].f64(), 0.5);
  EXPECT_EQ(r[5].f64(), 4.0);
  EXPECT_EQ(r[6].i32(), 1);
  EXPECT_FLOAT_EQ(r[7].f32(), std::erf(-0.5f));
  r = Run("f_misc", {F32(std::nanf("")), F32(2.0f), F64(std::nan(""))});
  EXPECT_EQ(r[2].i32(), 1);
  EXPECT_EQ(r[3].i32(), 0);
  EXPECT_EQ(r[6].i32(), 1);  // unordered equality
}

TEST_F(OpsTest, MoreF32Math) {
  const float x = 0.625f, y = 3.5f;
  auto r = Run("f32_more", {F32(x), F32(y)});
  EXPECT_FLOAT_EQ(r[0].f32(), std::atan(x));
  EXPECT_FLOAT_EQ(r[1].f32(), std::cos(x));
  EXPECT_FLOAT_EQ(r[2].f32(), std::exp2(x));
  EXPECT_FLOAT_EQ(r[3].f32(), std::expm1(x));
  EXPECT_FLOAT_EQ(r[4].f32(), std::log10(y));
  EXPECT_FLOAT_EQ(r[5].f32(), std::log1p(y));
  EXPECT_FLOAT_EQ(r[6].f32(), std::log2(y));
  EXPECT_FLOAT_EQ(r[7].f32(), 1.0f / std::sqrt(y));
  EXPECT_EQ(r[8].f32(), x + y);
  EXPECT_EQ(r[9].f32(), x - y);
  EXPECT_EQ(r[10].f32(), x / y);
}

TEST_F(OpsTest, MoreF64Math) {
  const double x = -1.375, y = 2.25;
  auto r = Run("f64_more", {F64(x), F64(y), I32(0)});
  const double expected[] = {std::fabs(x),  std::atan(x),      std::atan2(x, y), std::ceil(x),
                             std::floor(x), std::cos(x),       std::sin(x),      std::exp2(x),
                             std::expm1(x), std::log(y),       std::log10(y),    std::log1p(y),
                             std::log2(y),  -x,                std::pow(y, x),   std::tanh(x),
                             std::erf(x),   std::fma(x, y, x), x - y,            y,
                             0.0};
  for (size_t i = 0; i < std::size(expected); ++i) EXPECT_DOUBLE_EQ(r[i].f64(), expected[i]) << i;
  EXPECT_EQ(Run("f64_more", {F64(x), F64(y), I32(1)})[19].f64(), x);
}

TEST_F(OpsTest, MoreComparisons) {
  const float nan = std::nanf("");
  struct Case {
    float x, y;
    double d, e;
    int32_t a, b;
    int64_t w, v;
  } cases[] = {{1, 2, 1, 2, -1, 1, 5, 5}, {2, 2, 3, 3, 1, 1, 5, 6}, {nan, 1, std::nan(""), 0, 0, 0, -1, -1},
               {3, 1, 4, 3.5, 7, -7, 0, 1}};
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << c.x << " " << c.y << " " << c.d << " " << c.e);
    auto r = Run("cmp_more", {F32(c.x), F32(c.y), F64(c.d), F64(c.e), I32(c.a), I32(c.b), I64(c.w), I64(c.v)});
    const bool fu = std::isunordered(c.x, c.y), du = std::isunordered(c.d, c.e);
    EXPECT_EQ(r[0].i32(), (fu || c.x == c.y) ? 1 : 0);
    EXPECT_EQ(r[1].i32(), (fu || c.x <= c.y) ? 1 : 0);
    EXPECT_EQ(r[2].i32(), (!fu && c.x != c.y) ? 1 : 0);
    EXPECT_EQ(r[3].i32(), (!du && c.d == c.e) ? 1 : 0);
    EXPECT_EQ(r[4].i32(), (!du && c.d != c.e) ? 1 : 0);
    EXPECT_EQ(r[5].i32(), (du || c.d != c.e) ? 1 : 0);
    EXPECT_EQ(r[6].i32(), (du || c.d < c.e) ? 1 : 0);
    EXPECT_EQ(r[7].i32(), (!du && c.d <= c.e) ? 1 : 0);
    EXPECT_EQ(r[8].i32(), std::isnan(c.d) ? 1 : 0);
    EXPECT_EQ(r[9].i32(), static_cast<uint32_t>(c.a) < static_cast<uint32_t>(c.b) ? 1 : 0);
    EXPECT_EQ(r[10].i32(), c.a != c.b ? 1 : 0);
    EXPECT_EQ(r[11].i32(), c.w == c.v ? 1 : 0);
  }
}

TEST_F(OpsTest, MoreIntegerOps) {
  const int32_t a = -6, b = 0x7FFFFFF0, c = 3;
  const int64_t w = -0x123456789, v = 0x0FEDCBA987654321;
  auto r = Run("int_more", {I32(a), I32(b), I32(c), I64(w), I64(v)});
  EXPECT_EQ(r[0].i32(), static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b) + c));
  EXPECT_EQ(r[1].i32(), std::max(a, b));
  EXPECT_EQ(static_cast<uint32_t>(r[2].i32()), std::min(static_cast<uint32_t>(a), static_cast<uint32_t>(b)));
  EXPECT_EQ(r[3].i32(), ~a);
  EXPECT_EQ(r[4].i32(), a);  // c != 0
  EXPECT_EQ(r[5].i64(), std::min(w, v));
  EXPECT_EQ(static_cast<uint64_t>(r[6].i64()), std::max(static_cast<uint64_t>(w), static_cast<uint64_t>(v)));
  EXPECT_EQ(r[7].i64(), w | v);
  EXPECT_EQ(r[8].i64(), w & v);
  EXPECT_EQ(r[9].f32(), static_cast<float>(w));
  EXPECT_EQ(r[10].f32(), static_cast<float>(static_cast<uint32_t>(a)));
  EXPECT_EQ(r[11].i32(), 1);
  EXPECT_EQ(r[12].i64(), w);
  EXPECT_EQ(std::bit_cast<uint32_t>(r[13].f32()), static_cast<uint32_t>(a));  // a NaN pattern
  EXPECT_EQ(Run("int_more", {I32(a), I32(b), I32(0), I64(w), I64(v)})[11].i32(), 0);
}

TEST_F(OpsTest, IndirectGlobalsAreBoundsChecked) {
  base::Ref<Buffer> b = NewBuffer(2);
  auto r = Run("indirect_more", {I32(4), I32(8), I32(0), I32(-9), I64(kMin64), F32(0.75f), F64(-2.5), BufferValue(b)});
  EXPECT_EQ(r[0].i32(), -9);
  EXPECT_EQ(r[1].i64(), kMin64);
  EXPECT_EQ(r[2].f32(), 0.75f);
  EXPECT_EQ(r[3].f64(), -2.5);
  EXPECT_EQ(r[4].ref().Get<Buffer>(), b.get());
  auto call = [&](int32_t off32, int32_t off64, int32_t ordinal) {
    return RunStatus("indirect_more", {I32(off32), I32(off64), I32(ordinal), I32(1), I64(1), F32(1), F64(1),
                                       BufferValue(b)});
  };
  EXPECT_TRUE(IsError(call(1 << 20, 8, 0), StatusCode::kOutOfRange, "global byte_offset"));
  EXPECT_TRUE(IsError(call(-1, 8, 0), StatusCode::kOutOfRange, "global byte_offset"));
  EXPECT_TRUE(IsError(call(0, 1 << 20, 0), StatusCode::kOutOfRange, "global byte_offset"));
  EXPECT_TRUE(IsError(call(0, 8, 1), StatusCode::kOutOfRange, "global ref ordinal"));  // one ref global
}

TEST_F(OpsTest, BufferFillF64AndDebugBreaks) {
  auto r = Run("fill_f64", {F64(1.0 / 3.0)});
  Buffer* buffer = r[0].ref().Get<Buffer>();
  ASSERT_NE(buffer, nullptr);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(buffer->Load<double>(i).value(), 1.0 / 3.0);
  EXPECT_EQ(Run("debug_breaks", {I32(0), I32(17)})[0].i32(), 17);
  EXPECT_EQ(Run("debug_breaks", {I32(1), I32(18)})[0].i32(), 18);
}

}  // namespace
}  // namespace iree_rt::vm::bytecode::testing
