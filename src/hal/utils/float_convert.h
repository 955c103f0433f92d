// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Conversions between f32 and the narrow float formats that buffer views carry (f16, bf16 and the
// five f8 variants), for parsing and printing tensor text.
//
// Encoding rounds to nearest, ties to even, as if the exponent range were unbounded above; a result
// past the largest finite value becomes infinity where the format has one, NaN otherwise. NaN keeps
// its sign (where the format has one) and becomes quiet. These choices match ml_dtypes/numpy, so a
// file written by the tools compares bit-exactly with one written by Python.
//
// Decoding is exact: every narrow value is representable in f32.
#ifndef IREE_RT_HAL_UTILS_FLOAT_CONVERT_H_
#define IREE_RT_HAL_UTILS_FLOAT_CONVERT_H_

#include <cstdint>

namespace iree_rt::hal::utils {

// The 8-bit float formats, named as MLIR names them.
enum class Float8Format : uint8_t {
  kE5M2,      // IEEE-like: infinities, NaNs, -0.
  kE4M3FN,    // finite: no infinities; only S.1111.111 is NaN.
  kE5M2Fnuz,  // finite, unsigned zero: 0x80 is the only NaN, bias 16.
  kE4M3Fnuz,  // finite, unsigned zero: 0x80 is the only NaN, bias 8.
  kE8M0Fnu,   // unsigned powers of two 2^-127..2^127 (OCP MX scales); 0xFF is NaN.
};

uint16_t FloatToHalf(float value);
float HalfToFloat(uint16_t bits);

uint16_t FloatToBFloat16(float value);
float BFloat16ToFloat(uint16_t bits);

// kE8M0Fnu has no zero and no sign: zero, negative values, infinities and NaN encode as NaN, and
// positive values below 2^-127 as 2^-127 (as ml_dtypes does).
uint8_t FloatToFloat8(float value, Float8Format format);
float Float8ToFloat(uint8_t bits, Float8Format format);

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_FLOAT_CONVERT_H_
