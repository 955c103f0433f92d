// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// f16 arithmetic: results are rounded to half precision, so tolerances are loose.

func.func @f16_arith() {
  %a = util.unfoldable_constant dense<[1.5, -2.0, 0.125, 1000.0]> : tensor<4xf16>
  %b = util.unfoldable_constant dense<[0.5, 4.0, -0.5, 24.0]> : tensor<4xf16>
  %add = arith.addf %a, %b : tensor<4xf16>
  %sub = arith.subf %a, %b : tensor<4xf16>
  %mul = arith.mulf %a, %b : tensor<4xf16>
  %div = arith.divf %a, %b : tensor<4xf16>
  %max = arith.maximumf %a, %b : tensor<4xf16>
  %neg = arith.negf %a : tensor<4xf16>
  check.expect_almost_eq_const(%add, dense<[2.0, 2.0, -0.375, 1024.0]> : tensor<4xf16>) : tensor<4xf16>
  check.expect_almost_eq_const(%sub, dense<[1.0, -6.0, 0.625, 976.0]> : tensor<4xf16>) : tensor<4xf16>
  check.expect_almost_eq_const(%mul, dense<[0.75, -8.0, -0.0625, 24000.0]> : tensor<4xf16>) : tensor<4xf16>
  check.expect_almost_eq_const(%div, dense<[3.0, -0.5, -0.25, 41.66]> : tensor<4xf16>, atol 2.0e-2) : tensor<4xf16>
  check.expect_almost_eq_const(%max, dense<[1.5, 4.0, 0.125, 1000.0]> : tensor<4xf16>) : tensor<4xf16>
  check.expect_almost_eq_const(%neg, dense<[-1.5, 2.0, -0.125, -1000.0]> : tensor<4xf16>) : tensor<4xf16>
  return
}

func.func @f16_math() {
  %x = util.unfoldable_constant dense<[0.0, 1.0, -1.0, 2.0]> : tensor<4xf16>
  %p = util.unfoldable_constant dense<[1.0, 4.0, 0.25, 9.0]> : tensor<4xf16>
  %exp = math.exp %x : tensor<4xf16>
  %tanh = math.tanh %x : tensor<4xf16>
  %sqrt = math.sqrt %p : tensor<4xf16>
  %log = math.log %p : tensor<4xf16>
  check.expect_almost_eq_const(%exp, dense<[1.0, 2.718, 0.3679, 7.389]> : tensor<4xf16>, atol 1.0e-2, rtol 1.0e-3) : tensor<4xf16>
  check.expect_almost_eq_const(%tanh, dense<[0.0, 0.7617, -0.7617, 0.964]> : tensor<4xf16>, atol 2.0e-3) : tensor<4xf16>
  check.expect_almost_eq_const(%sqrt, dense<[1.0, 2.0, 0.5, 3.0]> : tensor<4xf16>) : tensor<4xf16>
  check.expect_almost_eq_const(%log, dense<[0.0, 1.386, -1.386, 2.197]> : tensor<4xf16>, atol 2.0e-3) : tensor<4xf16>
  return
}

// f16 overflows to inf past 65504.
func.func @f16_overflow_and_convert() {
  %a = util.unfoldable_constant dense<[60000.0, 0.1]> : tensor<2xf16>
  %b = arith.addf %a, %a : tensor<2xf16>
  %wide = arith.extf %b : tensor<2xf16> to tensor<2xf32>
  %inf = arith.constant dense<0x7F800000> : tensor<2xf32>
  %isinf = arith.cmpf oeq, %wide, %inf : tensor<2xf32>
  check.expect_eq_const(%isinf, dense<[true, false]> : tensor<2xi1>) : tensor<2xi1>
  %f = util.unfoldable_constant dense<[1.0009765625, 3.14159265]> : tensor<2xf32>
  %h = arith.truncf %f : tensor<2xf32> to tensor<2xf16>
  %back = arith.extf %h : tensor<2xf16> to tensor<2xf32>
  // 3.14159265 rounds to the nearest half 3.140625.
  check.expect_almost_eq_const(%back, dense<[1.0009765625, 3.140625]> : tensor<2xf32>, atol 0.0, rtol 0.0) : tensor<2xf32>
  return
}
