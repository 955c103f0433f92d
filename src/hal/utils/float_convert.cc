// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/float_convert.h"

#include <bit>
#include <cmath>
#include <limits>

namespace iree_rt::hal::utils {

namespace {

// How a format spends its top exponent code on specials.
enum class Specials : uint8_t {
  kIeee,             // exponent all ones: mantissa 0 = infinity, otherwise NaN
  kMantissaAllOnes,  // only exponent and mantissa all ones is NaN (E4M3FN)
  kNegativeZero,     // the -0 pattern is the only NaN; no -0, no infinity (FNUZ)
  kAllOnes,          // the all-ones pattern is NaN (E8M0FNU)
};

// One narrow binary float format. Every format here has at most 16 bits and at most 10 mantissa
// bits, so every value fits exactly in f32.
struct Format {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool has_sign;
  bool has_subnormals;
  Specials specials;

  int total_bits() const { return (has_sign ? 1 : 0) + exponent_bits + mantissa_bits; }
  uint32_t sign_bit() const { return has_sign ? 1u << (exponent_bits + mantissa_bits) : 0; }
  uint32_t mantissa_mask() const { return (1u << mantissa_bits) - 1; }
  uint32_t exponent_ones() const { return (1u << exponent_bits) - 1; }
  // Smallest unbiased exponent of a normal value (subnormals share it).
  int min_exponent() const { return (has_subnormals ? 1 : 0) - bias; }
  uint32_t max_biased_exponent() const {
    return specials == Specials::kIeee || specials == Specials::kAllOnes ? exponent_ones() - 1
                                                                         : exponent_ones();
  }
  uint32_t max_mantissa_at_max_exponent() const {
    return specials == Specials::kMantissaAllOnes ? mantissa_mask() - 1 : mantissa_mask();
  }
};

constexpr Format kHalf{5, 10, 15, true, true, Specials::kIeee};
constexpr Format kBFloat16{8, 7, 127, true, true, Specials::kIeee};

constexpr Format Float8Desc(Float8Format format) {
  switch (format) {
    case Float8Format::kE5M2:
      return {5, 2, 15, true, true, Specials::kIeee};
    case Float8Format::kE4M3FN:
      return {4, 3, 7, true, true, Specials::kMantissaAllOnes};
    case Float8Format::kE5M2Fnuz:
      return {5, 2, 16, true, true, Specials::kNegativeZero};
    case Float8Format::kE4M3Fnuz:
      return {4, 3, 8, true, true, Specials::kNegativeZero};
    case Float8Format::kE8M0Fnu:
      break;
  }
  return {8, 0, 127, false, false, Specials::kAllOnes};
}

// |sign| is 0 or 1; |payload| is the f32 mantissa, kept where the format has room for it.
uint32_t EncodeNan(const Format& f, uint32_t sign, uint32_t payload) {
  switch (f.specials) {
    case Specials::kIeee: {
      uint32_t quiet = 1u << (f.mantissa_bits - 1);
      uint32_t mantissa = (payload >> (23 - f.mantissa_bits)) | quiet;
      return (sign ? f.sign_bit() : 0) | (f.exponent_ones() << f.mantissa_bits) | mantissa;
    }
    case Specials::kMantissaAllOnes:
      return (sign ? f.sign_bit() : 0) | (f.exponent_ones() << f.mantissa_bits) | f.mantissa_mask();
    case Specials::kNegativeZero:
      return f.sign_bit();
    case Specials::kAllOnes:
      break;
  }
  return (1u << f.total_bits()) - 1;
}

uint32_t Encode(const Format& f, float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = bits >> 31;
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  const uint32_t sign_bits = sign ? f.sign_bit() : 0;
  if (magnitude > 0x7F800000u) return EncodeNan(f, sign, bits & 0x7FFFFFu);
  if (!f.has_sign && (sign || magnitude == 0)) return EncodeNan(f, sign, 0);
  if (magnitude == 0x7F800000u) {
    if (f.specials != Specials::kIeee) return EncodeNan(f, sign, 0);
    return sign_bits | (f.exponent_ones() << f.mantissa_bits);
  }
  if (magnitude == 0) return f.specials == Specials::kNegativeZero ? 0 : sign_bits;

  // |value| = significand * 2^exponent with an integer significand.
  const uint32_t f32_exponent = magnitude >> 23;
  uint64_t significand = magnitude & 0x7FFFFFu;
  int exponent = -149;
  if (f32_exponent != 0) {
    significand |= 0x800000u;
    exponent = static_cast<int>(f32_exponent) - 150;
  }
  const int top_bit = exponent + static_cast<int>(std::bit_width(significand)) - 1;
  int target_exponent = top_bit > f.min_exponent() ? top_bit : f.min_exponent();
  // Round significand * 2^exponent to a multiple of the target quantum 2^(target - mantissa).
  const int shift = target_exponent - f.mantissa_bits - exponent;
  uint64_t n;
  if (shift <= 0) {
    n = significand << -shift;  // never loses bits: the target is coarser than f32 everywhere
  } else if (shift >= 40) {
    n = 0;  // below half the quantum: significand < 2^24
  } else {
    n = significand >> shift;
    const uint64_t remainder = significand & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    if (remainder > half || (remainder == half && (n & 1))) ++n;
  }
  if (n == 0) {
    // Underflow. E8M0 has no zero and saturates to its smallest value instead.
    if (!f.has_subnormals) return 0;
    return f.specials == Specials::kNegativeZero ? 0 : sign_bits;
  }
  const uint64_t implicit_one = uint64_t{1} << f.mantissa_bits;
  if (n >= 2 * implicit_one) {  // rounding carried into the next binade
    n >>= 1;
    ++target_exponent;
  }
  uint32_t biased = 0;
  uint32_t mantissa = static_cast<uint32_t>(n);
  if (n >= implicit_one) {
    biased = static_cast<uint32_t>(target_exponent + f.bias);
    mantissa = static_cast<uint32_t>(n - implicit_one);
  }
  if (biased > f.max_biased_exponent() ||
      (biased == f.max_biased_exponent() && mantissa > f.max_mantissa_at_max_exponent())) {
    if (f.specials == Specials::kIeee) return sign_bits | (f.exponent_ones() << f.mantissa_bits);
    return EncodeNan(f, sign, 0);
  }
  return sign_bits | (biased << f.mantissa_bits) | mantissa;
}

float Decode(const Format& f, uint32_t bits) {
  const bool negative = (bits & f.sign_bit()) != 0;
  const uint32_t biased = (bits >> f.mantissa_bits) & f.exponent_ones();
  const uint32_t mantissa = bits & f.mantissa_mask();
  bool is_nan = false;
  switch (f.specials) {
    case Specials::kIeee:
      if (biased == f.exponent_ones()) {
        if (mantissa == 0) {
          return negative ? -std::numeric_limits<float>::infinity()
                          : std::numeric_limits<float>::infinity();
        }
        // Keep the payload: a NaN read from a tensor prints and round-trips as it was.
        return std::bit_cast<float>((negative ? 0x80000000u : 0) | 0x7F800000u |
                                    (mantissa << (23 - f.mantissa_bits)));
      }
      break;
    case Specials::kMantissaAllOnes:
      is_nan = biased == f.exponent_ones() && mantissa == f.mantissa_mask();
      break;
    case Specials::kNegativeZero:
      is_nan = bits == f.sign_bit();
      break;
    case Specials::kAllOnes:
      is_nan = bits == (1u << f.total_bits()) - 1;
      break;
  }
  if (is_nan) {
    float nan = std::numeric_limits<float>::quiet_NaN();
    return negative ? -nan : nan;
  }
  float magnitude;
  if (biased == 0 && f.has_subnormals) {
    magnitude = std::ldexp(static_cast<float>(mantissa), f.min_exponent() - f.mantissa_bits);
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | (1u << f.mantissa_bits)),
                           static_cast<int>(biased) - f.bias - f.mantissa_bits);
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace

uint16_t FloatToHalf(float value) { return static_cast<uint16_t>(Encode(kHalf, value)); }
float HalfToFloat(uint16_t bits) { return Decode(kHalf, bits); }

uint16_t FloatToBFloat16(float value) { return static_cast<uint16_t>(Encode(kBFloat16, value)); }
float BFloat16ToFloat(uint16_t bits) {
  // bf16 is the top half of an f32: widening is exact for every pattern, NaN payloads included.
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

uint8_t FloatToFloat8(float value, Float8Format format) {
  return static_cast<uint8_t>(Encode(Float8Desc(format), value));
}
float Float8ToFloat(uint8_t bits, Float8Format format) { return Decode(Float8Desc(format), bits); }

}  // namespace iree_rt::hal::utils
