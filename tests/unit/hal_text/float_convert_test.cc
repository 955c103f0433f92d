// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/float_convert.h"

#include <gtest/gtest.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace iree_rt {
namespace {

using hal::utils::BFloat16ToFloat;
using hal::utils::Float8Format;
using hal::utils::Float8ToFloat;
using hal::utils::FloatToBFloat16;
using hal::utils::FloatToFloat8;
using hal::utils::FloatToHalf;
using hal::utils::HalfToFloat;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

// One narrow format seen through the converters under test.
struct Codec {
  const char* name;
  uint32_t pattern_count;
  uint32_t sign_bit;   // 0 for unsigned formats
  bool unsigned_zero;  // FNUZ: -0 does not exist
  bool ties_up;        // E8M0: no mantissa bit, so a tie goes to the larger power of two
  std::function<uint32_t(float)> encode;
  std::function<float(uint32_t)> decode;
};

Codec HalfCodec() {
  return {"f16",
          65536,
          0x8000,
          false,
          false,
          [](float v) { return uint32_t{FloatToHalf(v)}; },
          [](uint32_t p) { return HalfToFloat(static_cast<uint16_t>(p)); }};
}
Codec BFloat16Codec() {
  return {"bf16",
          65536,
          0x8000,
          false,
          false,
          [](float v) { return uint32_t{FloatToBFloat16(v)}; },
          [](uint32_t p) { return BFloat16ToFloat(static_cast<uint16_t>(p)); }};
}
Codec Float8Codec(Float8Format format) {
  const bool fnuz = format == Float8Format::kE5M2Fnuz || format == Float8Format::kE4M3Fnuz;
  const bool e8m0 = format == Float8Format::kE8M0Fnu;
  static constexpr const char* kNames[] = {"f8E5M2", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ",
                                           "f8E8M0FNU"};
  return {kNames[static_cast<int>(format)],
          256,
          e8m0 ? 0u : 0x80u,
          fnuz,
          e8m0,
          [format](float v) { return uint32_t{FloatToFloat8(v, format)}; },
          [format](uint32_t p) { return Float8ToFloat(static_cast<uint8_t>(p), format); }};
}

std::vector<Codec> AllCodecs() {
  std::vector<Codec> codecs = {HalfCodec(), BFloat16Codec()};
  for (Float8Format f : {Float8Format::kE5M2, Float8Format::kE4M3FN, Float8Format::kE5M2Fnuz,
                         Float8Format::kE4M3Fnuz, Float8Format::kE8M0Fnu}) {
    codecs.push_back(Float8Codec(f));
  }
  return codecs;
}

// What encoding -|v| must give, given the encoding of |v| (v > 0).
uint32_t Negated(const Codec& codec, uint32_t positive_pattern) {
  if (codec.unsigned_zero && positive_pattern == 0) return 0;
  return positive_pattern | codec.sign_bit;
}

TEST(FloatConvertTest, EveryPatternRoundTrips) {
  for (const Codec& codec : AllCodecs()) {
    SCOPED_TRACE(codec.name);
    int failures = 0;
    for (uint32_t p = 0; p < codec.pattern_count && failures < 10; ++p) {
      const float value = codec.decode(p);
      const uint32_t back = codec.encode(value);
      if (std::isnan(value)) {
        // A NaN stays a NaN of the same sign (payloads may be quieted).
        const float again = codec.decode(back);
        EXPECT_TRUE(std::isnan(again)) << std::hex << p;
        if (codec.sign_bit && !codec.unsigned_zero) {
          EXPECT_EQ(std::signbit(again), std::signbit(value)) << std::hex << p;
        }
        continue;
      }
      if (back != p) ++failures;
      EXPECT_EQ(back, p) << std::hex << "pattern 0x" << p << " decodes to " << value;
    }
  }
}

TEST(FloatConvertTest, MidpointsRoundToNearestEven) {
  for (const Codec& codec : AllCodecs()) {
    SCOPED_TRACE(codec.name);
    std::vector<std::pair<float, uint32_t>> values;
    for (uint32_t p = 0; p < codec.pattern_count; ++p) {
      const float v = codec.decode(p);
      if (std::isfinite(v) && !std::signbit(v)) values.emplace_back(v, p);
    }
    std::sort(values.begin(), values.end());
    int failures = 0;
    for (size_t i = 1; i < values.size() && failures < 10; ++i) {
      const auto [lo, lo_bits] = values[i - 1];
      const auto [hi, hi_bits] = values[i];
      // Exact in f32: neighbours differ in one bit past their precision, which f32 has room for.
      const float mid = static_cast<float>((static_cast<double>(lo) + hi) / 2);
      const uint32_t tie = codec.ties_up || (lo_bits & 1) ? hi_bits : lo_bits;
      const float above = std::nextafter(mid, kInf);
      const float below = std::nextafter(mid, 0.0f);
      const bool ok = codec.encode(mid) == tie && codec.encode(above) == hi_bits &&
                      codec.encode(below) == lo_bits;
      if (!ok) ++failures;
      EXPECT_EQ(codec.encode(mid), tie) << "tie between " << lo << " and " << hi;
      EXPECT_EQ(codec.encode(above), hi_bits)
          << "just above the tie between " << lo << " and " << hi;
      EXPECT_EQ(codec.encode(below), lo_bits)
          << "just below the tie between " << lo << " and " << hi;
      if (codec.sign_bit) {
        EXPECT_EQ(codec.encode(-mid), Negated(codec, tie)) << -mid;
        EXPECT_EQ(codec.encode(-above), Negated(codec, hi_bits)) << -above;
        EXPECT_EQ(codec.encode(-below), Negated(codec, lo_bits)) << -below;
      } else {
        EXPECT_TRUE(std::isnan(codec.decode(codec.encode(-mid)))) << -mid;
      }
    }
  }
}

// Special values, encoded as ml_dtypes 0.6 (numpy) encodes them; the expectations were printed
// by ml_dtypes for the same inputs.
TEST(FloatConvertTest, SpecialValuesMatchMlDtypes) {
  const float inputs[] = {0.0f, -0.0f, kNan, -kNan, kInf, -kInf, 1e6f, -1e6f, 1e-30f, -1e-30f};
  struct Expected {
    Codec codec;
    uint32_t bits[10];
  };
  const Expected table[] = {
      {HalfCodec(), {0, 0x8000, 0x7e00, 0xfe00, 0x7c00, 0xfc00, 0x7c00, 0xfc00, 0, 0x8000}},
      {BFloat16Codec(),
       {0, 0x8000, 0x7fc0, 0xffc0, 0x7f80, 0xff80, 0x4974, 0xc974, 0x0da2, 0x8da2}},
      {Float8Codec(Float8Format::kE5M2), {0, 0x80, 0x7e, 0xfe, 0x7c, 0xfc, 0x7c, 0xfc, 0, 0x80}},
      {Float8Codec(Float8Format::kE4M3FN), {0, 0x80, 0x7f, 0xff, 0x7f, 0xff, 0x7f, 0xff, 0, 0x80}},
      {Float8Codec(Float8Format::kE5M2Fnuz), {0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0, 0}},
      {Float8Codec(Float8Format::kE4M3Fnuz), {0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0, 0}},
      {Float8Codec(Float8Format::kE8M0Fnu),
       {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x93, 0xff, 0x1b, 0xff}},
  };
  for (const Expected& expected : table) {
    SCOPED_TRACE(expected.codec.name);
    for (size_t i = 0; i < std::size(inputs); ++i) {
      EXPECT_EQ(expected.codec.encode(inputs[i]), expected.bits[i]) << "input " << inputs[i];
    }
  }
}

// The overflow edges: values that round to the largest finite value, and those past it.
TEST(FloatConvertTest, OverflowEdges) {
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65519.996f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);  // the tie goes to even: infinity
  EXPECT_EQ(FloatToBFloat16(3.4e38f), 0x7f80);
  EXPECT_EQ(FloatToBFloat16(3.39e38f), 0x7f7f);
  EXPECT_EQ(FloatToFloat8(464.0f, Float8Format::kE4M3FN), 0x7e);    // 448, the largest
  EXPECT_EQ(FloatToFloat8(465.0f, Float8Format::kE4M3FN), 0x7f);    // NaN: no infinity
  EXPECT_EQ(FloatToFloat8(61439.0f, Float8Format::kE5M2), 0x7b);    // 57344
  EXPECT_EQ(FloatToFloat8(61440.0f, Float8Format::kE5M2), 0x7c);    // infinity
  EXPECT_EQ(FloatToFloat8(247.0f, Float8Format::kE4M3Fnuz), 0x7f);  // 240
  EXPECT_EQ(FloatToFloat8(248.0f, Float8Format::kE4M3Fnuz), 0x80);  // NaN
  EXPECT_EQ(FloatToFloat8(57344.0f, Float8Format::kE5M2Fnuz), 0x7f);
  EXPECT_EQ(FloatToFloat8(61440.0f, Float8Format::kE5M2Fnuz), 0x80);
  EXPECT_EQ(FloatToFloat8(2.5e38f, Float8Format::kE8M0Fnu), 0xfe);  // 2^127
  EXPECT_EQ(FloatToFloat8(3.4e38f, Float8Format::kE8M0Fnu), 0xff);  // NaN
}

TEST(FloatConvertTest, E8M0PowersOfTwo) {
  EXPECT_EQ(Float8ToFloat(0x7f, Float8Format::kE8M0Fnu), 1.0f);
  EXPECT_EQ(Float8ToFloat(0x00, Float8Format::kE8M0Fnu), std::ldexp(1.0f, -127));
  EXPECT_EQ(Float8ToFloat(0xfe, Float8Format::kE8M0Fnu), std::ldexp(1.0f, 127));
  EXPECT_TRUE(std::isnan(Float8ToFloat(0xff, Float8Format::kE8M0Fnu)));
  // Ties go up (as in ml_dtypes), and values below 2^-127 saturate to it.
  EXPECT_EQ(FloatToFloat8(1.5f, Float8Format::kE8M0Fnu), 0x80);
  EXPECT_EQ(FloatToFloat8(3.0f, Float8Format::kE8M0Fnu), 0x81);
  EXPECT_EQ(FloatToFloat8(0.75f, Float8Format::kE8M0Fnu), 0x7f);
  EXPECT_EQ(FloatToFloat8(1e-45f, Float8Format::kE8M0Fnu), 0x00);
  EXPECT_EQ(FloatToFloat8(-1.0f, Float8Format::kE8M0Fnu), 0xff);
}

TEST(FloatConvertTest, Float8Extremes) {
  EXPECT_EQ(Float8ToFloat(0x7e, Float8Format::kE4M3FN), 448.0f);
  EXPECT_EQ(Float8ToFloat(0x01, Float8Format::kE4M3FN), std::ldexp(1.0f, -9));
  EXPECT_TRUE(std::isnan(Float8ToFloat(0xff, Float8Format::kE4M3FN)));
  EXPECT_EQ(Float8ToFloat(0x7b, Float8Format::kE5M2), 57344.0f);
  EXPECT_EQ(Float8ToFloat(0x7c, Float8Format::kE5M2), kInf);
  EXPECT_EQ(Float8ToFloat(0x01, Float8Format::kE5M2), std::ldexp(1.0f, -16));
  EXPECT_EQ(Float8ToFloat(0x7f, Float8Format::kE4M3Fnuz), 240.0f);
  EXPECT_EQ(Float8ToFloat(0x01, Float8Format::kE4M3Fnuz), std::ldexp(1.0f, -10));
  EXPECT_EQ(Float8ToFloat(0x7f, Float8Format::kE5M2Fnuz), 57344.0f);
  EXPECT_EQ(Float8ToFloat(0x01, Float8Format::kE5M2Fnuz), std::ldexp(1.0f, -17));
  EXPECT_TRUE(std::isnan(Float8ToFloat(0x80, Float8Format::kE5M2Fnuz)));
  EXPECT_TRUE(std::isnan(Float8ToFloat(0x80, Float8Format::kE4M3Fnuz)));
}

// bf16 round-to-nearest-even by the classic integer trick, valid for every non-NaN f32.
uint16_t ReferenceBFloat16(float value) {
  const uint32_t u = std::bit_cast<uint32_t>(value);
  return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1)) >> 16);
}

// Walks ~4.3M f32 patterns spread over the whole space, plus every pattern near the binade edges.
template <typename Fn>
void ForSampledFloats(Fn&& fn) {
  for (uint64_t u = 0; u <= 0xFFFFFFFFull; u += 997)
    fn(std::bit_cast<float>(static_cast<uint32_t>(u)));
  for (uint32_t exponent = 0; exponent < 512; ++exponent) {
    for (uint32_t low = 0; low < 64; ++low) {
      const uint32_t base = exponent << 23;
      fn(std::bit_cast<float>(base | low));
      fn(std::bit_cast<float>(base | (0x7FFFFFu - low)));
      fn(std::bit_cast<float>(base | (0x1000u + low - 32)));  // f16 rounding boundary
      fn(std::bit_cast<float>(base | (0x8000u + low - 32)));  // bf16 rounding boundary
    }
  }
}

TEST(FloatConvertTest, BFloat16MatchesIntegerRounding) {
  int failures = 0;
  ForSampledFloats([&](float v) {
    if (std::isnan(v) || failures >= 10) return;
    if (FloatToBFloat16(v) != ReferenceBFloat16(v)) {
      ++failures;
      ADD_FAILURE() << std::hex << "f32 0x" << std::bit_cast<uint32_t>(v) << ": got 0x"
                    << FloatToBFloat16(v) << ", want 0x" << ReferenceBFloat16(v);
    }
  });
}

// An independent IEEE round-to-nearest-even oracle for f16: the CPU's F16C conversion
// instructions on x86-64 (clang 14 has no _Float16 there), the compiler's _Float16 elsewhere.
#if defined(__x86_64__)
#define RT_HAVE_HALF_ORACLE 1
__attribute__((target("f16c"))) uint16_t OracleToHalf(float v) {
  return static_cast<uint16_t>(_cvtss_sh(v, _MM_FROUND_TO_NEAREST_INT));
}
__attribute__((target("f16c"))) float OracleFromHalf(uint16_t h) { return _cvtsh_ss(h); }
bool HalfOracleRuns() {  // CPUID leaf 1, ECX bit 29 (clang 14's __builtin_cpu_supports lacks it)
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));
}
#elif defined(__FLT16_MAX__)
#define RT_HAVE_HALF_ORACLE 1
uint16_t OracleToHalf(float v) { return std::bit_cast<uint16_t>(static_cast<_Float16>(v)); }
float OracleFromHalf(uint16_t h) { return static_cast<float>(std::bit_cast<_Float16>(h)); }
bool HalfOracleRuns() { return true; }
#endif

#if defined(RT_HAVE_HALF_ORACLE)
TEST(FloatConvertTest, HalfMatchesCompilerFloat16) {
  if (!HalfOracleRuns()) GTEST_SKIP() << "this CPU has no F16C conversions to compare with";
  int failures = 0;
  ForSampledFloats([&](float v) {
    if (std::isnan(v) || failures >= 10) return;
    const uint16_t want = OracleToHalf(v);
    if (FloatToHalf(v) != want) {
      ++failures;
      ADD_FAILURE() << std::hex << "f32 0x" << std::bit_cast<uint32_t>(v) << ": got 0x"
                    << FloatToHalf(v) << ", want 0x" << want;
    }
  });
  for (uint32_t p = 0; p < 65536; ++p) {
    const float want = OracleFromHalf(static_cast<uint16_t>(p));
    const float got = HalfToFloat(static_cast<uint16_t>(p));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << p;
    } else {
      EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want)) << p;
    }
  }
}
#endif

TEST(FloatConvertTest, NanPayloadsSurviveWidening) {
  // A quiet f16 NaN with a payload widens to an f32 NaN that narrows back to the same bits.
  for (uint16_t p : {uint16_t{0x7e01}, uint16_t{0xfe55}, uint16_t{0x7fff}}) {
    EXPECT_EQ(FloatToHalf(HalfToFloat(p)), p);
  }
  EXPECT_EQ(FloatToBFloat16(BFloat16ToFloat(0xffc1)), 0xffc1);
}

}  // namespace
}  // namespace iree_rt
