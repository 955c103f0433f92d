// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Arithmetic semantics of compiled func/arith/math programs (scalar_math.mlir, f64_math.mlir):
// every expected value is computed here with C++ reference math.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "interpreter_test_util.h"

namespace iree_rt::vm::bytecode::testing {
namespace {

using base::StatusCode;

constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();
constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

int32_t Wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

class ArithTest : public ProgramTest {
 protected:
  void Load(std::string_view name) {
    auto module = LoadProgram(*instance_, name);
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    Link({*module});
  }
  void SetUp() override { Load("scalar_math"); }
};

TEST_F(ArithTest, I32Ops) {
  const int32_t cases[][2] = {{7, 3}, {-7, 3}, {kMax32, 1}, {kMin32, -1}, {0x12345678, -0x0F0F0F0F}, {0, 0}};
  for (const auto& c : cases) {
    const int32_t a = c[0], b = c[1];
    SCOPED_TRACE(::testing::Message() << a << ", " << b);
    auto r = Run("i32_ops", {I32(a), I32(b)});
    EXPECT_EQ(r[0].i32(), Wrap32(int64_t{a} + b));
    EXPECT_EQ(r[1].i32(), Wrap32(int64_t{a} - b));
    EXPECT_EQ(r[2].i32(), Wrap32(int64_t{a} * b));
    EXPECT_EQ(r[3].i32(), a & b);
    EXPECT_EQ(r[4].i32(), a | b);
    EXPECT_EQ(r[5].i32(), a ^ b);
    EXPECT_EQ(r[6].i32(), std::min(a, b));
    EXPECT_EQ(static_cast<uint32_t>(r[7].i32()), std::max(static_cast<uint32_t>(a), static_cast<uint32_t>(b)));
  }
}

TEST_F(ArithTest, DivisionAndRemainderSigns) {
  const int32_t cases[][2] = {{7, 2}, {-7, 2}, {7, -2}, {-7, -2}, {kMax32, 7}, {5, kMin32}};
  for (const auto& c : cases) {
    SCOPED_TRACE(::testing::Message() << c[0] << ", " << c[1]);
    EXPECT_EQ(Run("divsi", {I32(c[0]), I32(c[1])})[0].i32(), c[0] / c[1]);
    EXPECT_EQ(Run("remsi", {I32(c[0]), I32(c[1])})[0].i32(), c[0] % c[1]);
    const uint32_t ua = static_cast<uint32_t>(c[0]), ub = static_cast<uint32_t>(c[1]);
    EXPECT_EQ(static_cast<uint32_t>(Run("divui", {I32(c[0]), I32(c[1])})[0].i32()), ua / ub);
    EXPECT_EQ(static_cast<uint32_t>(Run("remui", {I32(c[0]), I32(c[1])})[0].i32()), ua % ub);
  }
  EXPECT_EQ(Run("divsi64", {I64(-70000000000), I64(3)})[0].i64(), -70000000000 / 3);
  EXPECT_EQ(Run("remsi64", {I64(-70000000001), I64(7)})[0].i64(), -70000000001 % 7);
}

TEST_F(ArithTest, MinOverMinusOneWraps) {
  EXPECT_EQ(Run("divsi", {I32(kMin32), I32(-1)})[0].i32(), kMin32);
  EXPECT_EQ(Run("remsi", {I32(kMin32), I32(-1)})[0].i32(), 0);
  EXPECT_EQ(Run("divsi64", {I64(kMin64), I64(-1)})[0].i64(), kMin64);
  EXPECT_EQ(Run("remsi64", {I64(kMin64), I64(-1)})[0].i64(), 0);
}

TEST_F(ArithTest, DivisionByZeroTraps) {
  for (const char* fn : {"divsi", "remsi", "divui", "remui"}) {
    SCOPED_TRACE(fn);
    EXPECT_TRUE(IsError(RunStatus(fn, {I32(5), I32(0)}), StatusCode::kInvalidArgument,
                        "integer division by zero"));
  }
  base::Status status = RunStatus("divsi64", {I64(5), I64(0)});
  EXPECT_TRUE(IsError(status, StatusCode::kInvalidArgument, "integer division by zero"));
  EXPECT_TRUE(IsError(status, StatusCode::kInvalidArgument, "VM backtrace:"));
  EXPECT_TRUE(IsError(status, StatusCode::kInvalidArgument, "bytecode module."));
  // The context still works after a trap.
  EXPECT_EQ(Run("divsi", {I32(9), I32(3)})[0].i32(), 3);
}

TEST_F(ArithTest, ShiftsMaskTheAmount) {
  const int32_t cases[][2] = {{1, 3}, {-16, 2}, {1, 33}, {-8, 32}, {0x40000000, 31}, {5, -1}};
  for (const auto& c : cases) {
    const uint32_t a = static_cast<uint32_t>(c[0]);
    const uint32_t s = static_cast<uint32_t>(c[1]) & 31;
    SCOPED_TRACE(::testing::Message() << c[0] << " by " << c[1]);
    auto r = Run("shifts", {I32(c[0]), I32(c[1])});
    EXPECT_EQ(static_cast<uint32_t>(r[0].i32()), a << s);
    EXPECT_EQ(r[1].i32(), c[0] >> s);
    EXPECT_EQ(static_cast<uint32_t>(r[2].i32()), a >> s);
  }
  const int64_t cases64[][2] = {{1, 40}, {-1024, 3}, {1, 65}, {kMin64, 63}, {3, 64}};
  for (const auto& c : cases64) {
    const uint64_t a = static_cast<uint64_t>(c[0]);
    const uint64_t s = static_cast<uint64_t>(c[1]) & 63;
    SCOPED_TRACE(::testing::Message() << c[0] << " by " << c[1]);
    auto r = Run("shifts64", {I64(c[0]), I64(c[1])});
    EXPECT_EQ(static_cast<uint64_t>(r[0].i64()), a << s);
    EXPECT_EQ(r[1].i64(), c[0] >> s);
    EXPECT_EQ(static_cast<uint64_t>(r[2].i64()), a >> s);
  }
}

TEST_F(ArithTest, CountLeadingZerosAndAbs) {
  auto zero = Run("bits", {I32(0), I64(0)});
  EXPECT_EQ(zero[0].i32(), 32);
  EXPECT_EQ(zero[1].i64(), 64);
  EXPECT_EQ(zero[2].i32(), 0);
  auto r = Run("bits", {I32(0x00F00000), I64(int64_t{1} << 40)});
  EXPECT_EQ(r[0].i32(), std::countl_zero(uint32_t{0x00F00000}));
  EXPECT_EQ(r[1].i64(), 23);
  auto neg = Run("bits", {I32(-5), I64(-1234567890123)});
  EXPECT_EQ(neg[0].i32(), 0);
  EXPECT_EQ(neg[2].i32(), 5);
  EXPECT_EQ(neg[3].i64(), 1234567890123);
  auto min = Run("bits", {I32(kMin32), I64(kMin64)});
  EXPECT_EQ(min[2].i32(), kMin32);  // wraps
  EXPECT_EQ(min[3].i64(), kMin64);
}

TEST_F(ArithTest, MixedWidthArgumentsAndResults) {
  const int32_t a = -3;
  const int64_t b = 0x123456789AB, d = -0x7FFFFFFF01;
  const float c = 1.5f;
  auto r = Run("mixed", {I32(a), I64(b), F32(c), I64(d)});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].type(), ValueType::kI64);
  EXPECT_EQ(r[0].i64(), a + b);
  EXPECT_EQ(r[1].type(), ValueType::kF32);
  EXPECT_EQ(r[1].f32(), static_cast<float>(a) * c);
  EXPECT_EQ(r[2].i32(), static_cast<int32_t>(static_cast<uint64_t>(d)));
  EXPECT_EQ(r[3].i64(), static_cast<int64_t>(static_cast<uint64_t>(b) * static_cast<uint64_t>(d)));
}

TEST_F(ArithTest, I64Ops) {
  const int64_t cases[][2] = {{1, 2}, {-5, 3}, {kMax64, 1}, {kMin64, kMax64}, {0x100000000, 0xFFFFFFFF}};
  for (const auto& c : cases) {
    const int64_t a = c[0], b = c[1];
    const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    SCOPED_TRACE(::testing::Message() << a << ", " << b);
    auto r = Run("i64_ops", {I64(a), I64(b)});
    EXPECT_EQ(static_cast<uint64_t>(r[0].i64()), ua + ub);
    EXPECT_EQ(static_cast<uint64_t>(r[1].i64()), ua - ub);
    EXPECT_EQ(static_cast<uint64_t>(r[2].i64()), ua * ub);
    EXPECT_EQ(r[3].i32(), a < b ? 1 : 0);
    EXPECT_EQ(r[4].i32(), ua < ub ? 1 : 0);
    EXPECT_EQ(static_cast<uint64_t>(r[5].i64()), std::min(ua, ub));
    EXPECT_EQ(r[6].i64(), std::max(a, b));
  }
}

TEST_F(ArithTest, FloatToIntTruncatesAndSaturates) {
  // arith.fptosi truncates toward zero; iree-compile lowers it straight to vm.cast.f32.si32.
  const float inputs[] = {2.7f, -2.7f, 2.5f, -2.5f, 0.5f, -0.5f, 1e9f, 16777216.0f, -0.0f};
  for (float x : inputs) {
    SCOPED_TRACE(x);
    EXPECT_EQ(Run("fptosi", {F32(x)})[0].i32(), static_cast<int32_t>(std::trunc(x)));
    EXPECT_EQ(Run("fptosi64", {F32(x)})[0].i64(), static_cast<int64_t>(std::trunc(x)));
  }
  EXPECT_EQ(Run("fptosi", {F32(3e9f)})[0].i32(), kMax32);
  EXPECT_EQ(Run("fptosi", {F32(-3e9f)})[0].i32(), kMin32);
  EXPECT_EQ(Run("fptosi", {F32(2147483648.0f)})[0].i32(), kMax32);
  EXPECT_EQ(Run("fptosi", {F32(-2147483648.0f)})[0].i32(), kMin32);
  EXPECT_EQ(Run("fptosi", {F32(kInf)})[0].i32(), kMax32);
  EXPECT_EQ(Run("fptosi", {F32(-kInf)})[0].i32(), kMin32);
  EXPECT_EQ(Run("fptosi", {F32(kNaN)})[0].i32(), 0);
  EXPECT_EQ(Run("fptosi64", {F32(1e19f)})[0].i64(), kMax64);
  EXPECT_EQ(Run("fptosi64", {F32(-1e19f)})[0].i64(), kMin64);
  EXPECT_EQ(Run("fptosi64", {F32(kNaN)})[0].i64(), 0);

  EXPECT_EQ(Run("fptoui", {F32(2.7f)})[0].i32(), 2);
  EXPECT_EQ(static_cast<uint32_t>(Run("fptoui", {F32(3e9f)})[0].i32()), 3000000000u);
  EXPECT_EQ(static_cast<uint32_t>(Run("fptoui", {F32(5e9f)})[0].i32()), UINT32_MAX);
  EXPECT_EQ(Run("fptoui", {F32(-1.5f)})[0].i32(), 0);
  EXPECT_EQ(Run("fptoui", {F32(kNaN)})[0].i32(), 0);
}

TEST_F(ArithTest, IntToFloat) {
  auto r = Run("sitofp", {I32(-7), I64(-1)});
  EXPECT_EQ(r[0].f32(), -7.0f);
  EXPECT_EQ(r[1].f32(), static_cast<float>(UINT64_MAX));  // uitofp reads i64 -1 as 2^64-1
  r = Run("sitofp", {I32(16777217), I64(int64_t{1} << 40)});
  EXPECT_EQ(r[0].f32(), static_cast<float>(16777217));
  EXPECT_EQ(r[1].f32(), std::ldexp(1.0f, 40));
}

TEST_F(ArithTest, RemfIsFmod) {
  const float cases[][2] = {{5.5f, 2.0f}, {-5.5f, 2.0f}, {5.5f, -2.0f}, {7.0f, 2.5f}, {-0.0f, 1.0f}, {1.0f, kInf}};
  for (const auto& c : cases) {
    SCOPED_TRACE(::testing::Message() << c[0] << " rem " << c[1]);
    const float r = Run("remf", {F32(c[0]), F32(c[1])})[0].f32();
    const float expected = std::fmod(c[0], c[1]);
    EXPECT_EQ(r, expected);
    EXPECT_EQ(std::signbit(r), std::signbit(expected));
  }
  EXPECT_TRUE(std::isnan(Run("remf", {F32(1.0f), F32(0.0f)})[0].f32()));
  EXPECT_TRUE(std::isnan(Run("remf", {F32(kInf), F32(1.0f)})[0].f32()));
}

TEST_F(ArithTest, MinimumMaximumPropagateNaNAndOrderZeros) {
  auto r = Run("minmaxf", {F32(1.0f), F32(-2.0f)});
  EXPECT_EQ(r[0].f32(), -2.0f);
  EXPECT_EQ(r[1].f32(), 1.0f);
  for (auto args : {std::pair{kNaN, 1.0f}, std::pair{1.0f, kNaN}, std::pair{kNaN, kNaN}}) {
    r = Run("minmaxf", {F32(args.first), F32(args.second)});
    EXPECT_TRUE(std::isnan(r[0].f32()));
    EXPECT_TRUE(std::isnan(r[1].f32()));
  }
  for (auto args : {std::pair{-0.0f, 0.0f}, std::pair{0.0f, -0.0f}}) {
    r = Run("minmaxf", {F32(args.first), F32(args.second)});
    EXPECT_TRUE(std::signbit(r[0].f32()));
    EXPECT_FALSE(std::signbit(r[1].f32()));
  }
}

TEST_F(ArithTest, FloatComparisonsWithNaN) {
  const float cases[][2] = {{1.0f, 2.0f}, {2.0f, 1.0f}, {3.0f, 3.0f}, {kNaN, 1.0f}, {1.0f, kNaN}, {-0.0f, 0.0f}};
  for (const auto& c : cases) {
    const float a = c[0], b = c[1];
    const bool unordered = std::isnan(a) || std::isnan(b);
    SCOPED_TRACE(::testing::Message() << a << " vs " << b);
    auto r = Run("cmpf", {F32(a), F32(b)});
    EXPECT_EQ(r[0].i32(), (!unordered && a == b) ? 1 : 0);  // oeq
    EXPECT_EQ(r[1].i32(), (unordered || a != b) ? 1 : 0);   // une
    EXPECT_EQ(r[2].i32(), (!unordered && a < b) ? 1 : 0);   // olt
    EXPECT_EQ(r[3].i32(), (unordered || a < b) ? 1 : 0);    // ult
    // iree-compile 3.13 lowers `oge` to xor(cmp.lt.f32.o, 1), i.e. `uge`: true when unordered.
    EXPECT_EQ(r[4].i32(), (unordered || a >= b) ? 1 : 0);
    EXPECT_EQ(r[5].i32(), unordered ? 1 : 0);               // uno
  }
}

TEST_F(ArithTest, F32MathFunctions) {
  const float x = 0.75f, y = 2.5f;
  auto r = Run("f32_math", {F32(x), F32(y)});
  EXPECT_FLOAT_EQ(r[0].f32(), std::exp(x));
  EXPECT_FLOAT_EQ(r[1].f32(), std::log(y));
  EXPECT_FLOAT_EQ(r[2].f32(), std::sin(x));
  EXPECT_FLOAT_EQ(r[3].f32(), std::sqrt(y));
  EXPECT_FLOAT_EQ(r[4].f32(), std::pow(y, x));
  EXPECT_FLOAT_EQ(r[5].f32(), std::tanh(x));
  EXPECT_FLOAT_EQ(r[6].f32(), std::atan2(x, y));
  EXPECT_FLOAT_EQ(r[7].f32(), std::fma(x, y, x));
}

TEST_F(ArithTest, Rounding) {
  const float inputs[] = {2.5f, 3.5f, -2.5f, -3.5f, 0.5f, -0.5f, 1.25f, -1.75f, 8388609.0f};
  for (float x : inputs) {
    SCOPED_TRACE(x);
    auto r = Run("rounding", {F32(x)});
    EXPECT_EQ(r[0].f32(), std::round(x));  // half away from zero
    // Half to even, computed without relying on the rounding mode.
    const float lower = std::floor(x), frac = x - lower;
    const float even = frac > 0.5f ? lower + 1 : frac < 0.5f ? lower
                       : (std::fmod(lower, 2.0f) == 0 ? lower : lower + 1);
    EXPECT_EQ(r[1].f32(), even);
    EXPECT_EQ(std::signbit(r[1].f32()), std::signbit(x));
    EXPECT_EQ(r[2].f32(), std::floor(x));
    EXPECT_EQ(r[3].f32(), std::ceil(x));
  }
}

TEST_F(ArithTest, Loops) {
  for (int32_t n : {0, 1, 10, 1000, 100000}) {
    int32_t sum = 0;
    for (int32_t i = 0; i < n; ++i) sum = Wrap32(int64_t{sum} + i);
    EXPECT_EQ(Run("loop_sum", {I32(n)})[0].i32(), sum);
  }
  for (int64_t n : {int64_t{1}, int64_t{27}, int64_t{97}, int64_t{837799}, int64_t{1} << 40}) {
    int32_t steps = 0;
    for (uint64_t x = static_cast<uint64_t>(n); x != 1; ++steps) x = (x % 2 == 0) ? x / 2 : 3 * x + 1;
    EXPECT_EQ(Run("collatz", {I64(n)})[0].i32(), steps) << n;
  }
}

TEST_F(ArithTest, WrongArgumentsAreRejected) {
  EXPECT_TRUE(IsError(RunStatus("fptosi", {I32(1)}), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(RunStatus("fptosi", {}), StatusCode::kInvalidArgument));
}

class F64Test : public ArithTest {
 protected:
  void SetUp() override { Load("f64_math"); }
};

TEST_F(F64Test, Arithmetic) {
  const double cases[][2] = {{5.5, 2.0}, {-5.5, 2.0}, {1e300, 1e-300}, {-0.0, 1.0}, {3.0, 3.0}};
  for (const auto& c : cases) {
    const double a = c[0], b = c[1];
    SCOPED_TRACE(::testing::Message() << a << ", " << b);
    auto r = Run("f64_ops", {F64(a), F64(b)});
    EXPECT_EQ(r[0].f64(), a + b);
    EXPECT_EQ(r[1].f64(), a * b);
    EXPECT_EQ(r[2].f64(), a / b);
    EXPECT_EQ(r[3].f64(), std::fmod(a, b));
    EXPECT_EQ(r[4].f64(), std::fmin(a, b));
    EXPECT_EQ(r[5].f64(), std::fmax(a, b));
  }
  auto nan = Run("f64_ops", {F64(std::nan("")), F64(1.0)});
  EXPECT_TRUE(std::isnan(nan[4].f64()));
  EXPECT_TRUE(std::isnan(nan[5].f64()));
}

TEST_F(F64Test, MathAndRounding) {
  auto r = Run("f64_math", {F64(2.5)});
  EXPECT_DOUBLE_EQ(r[0].f64(), std::exp(2.5));
  EXPECT_DOUBLE_EQ(r[1].f64(), std::sqrt(2.5));
  EXPECT_EQ(r[2].f64(), 3.0);
  EXPECT_EQ(r[3].f64(), 2.0);
  r = Run("f64_math", {F64(-3.5)});
  EXPECT_EQ(r[2].f64(), -4.0);
  EXPECT_EQ(r[3].f64(), -4.0);
}

TEST_F(F64Test, MixedWidths) {
  const double b = 1.0 / 3.0;
  auto r = Run("f64_mixed", {I32(21), F64(b), I64(-0x100000001), F32(1.5f)});
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].f64(), b + b);
  EXPECT_EQ(r[1].i64(), -0x200000002);
  EXPECT_EQ(r[2].i32(), 42);
  EXPECT_EQ(r[3].f64(), b);
  EXPECT_EQ(r[4].f32(), 2.25f);
}

TEST_F(F64Test, Comparisons) {
  const double nan = std::nan("");
  auto r = Run("cmpf64", {F64(1.0), F64(2.0)});
  EXPECT_EQ(r[0].i32(), 1);
  EXPECT_EQ(r[1].i32(), 1);
  r = Run("cmpf64", {F64(nan), F64(2.0)});
  EXPECT_EQ(r[0].i32(), 0);
  EXPECT_EQ(r[1].i32(), 1);
  r = Run("cmpf64", {F64(3.0), F64(2.0)});
  EXPECT_EQ(r[0].i32(), 0);
  EXPECT_EQ(r[1].i32(), 0);
}

}  // namespace
}  // namespace iree_rt::vm::bytecode::testing
