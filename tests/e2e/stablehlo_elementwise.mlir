// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// StableHLO elementwise ops across f32, f16, i32, i8, i64 and i1.

func.func @f32_binary() {
  %a = util.unfoldable_constant dense<[1.5, -2.0, 9.0, 0.5]> : tensor<4xf32>
  %b = util.unfoldable_constant dense<[0.5, 4.0, -3.0, 2.0]> : tensor<4xf32>
  %add = stablehlo.add %a, %b : tensor<4xf32>
  %sub = stablehlo.subtract %a, %b : tensor<4xf32>
  %mul = stablehlo.multiply %a, %b : tensor<4xf32>
  %div = stablehlo.divide %a, %b : tensor<4xf32>
  %max = stablehlo.maximum %a, %b : tensor<4xf32>
  %min = stablehlo.minimum %a, %b : tensor<4xf32>
  // Positive bases only: 3.13.0 lowers f32 power via exp/log, so a negative base gives NaN.
  %pow = stablehlo.power %max, %b : tensor<4xf32>
  check.expect_almost_eq_const(%add, dense<[2.0, 2.0, 6.0, 2.5]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%sub, dense<[1.0, -6.0, 12.0, -1.5]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%mul, dense<[0.75, -8.0, -27.0, 1.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%div, dense<[3.0, -0.5, -3.0, 0.25]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%max, dense<[1.5, 4.0, 9.0, 2.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%min, dense<[0.5, -2.0, -3.0, 0.5]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%pow, dense<[1.22474487, 256.0, 0.00137174211, 4.0]> : tensor<4xf32>, atol 1.0e-4, rtol 1.0e-5) : tensor<4xf32>
  return
}

func.func @f32_unary() {
  %x = util.unfoldable_constant dense<[0.0, 1.0, -1.5, 2.25]> : tensor<4xf32>
  %abs = stablehlo.abs %x : tensor<4xf32>
  %neg = stablehlo.negate %x : tensor<4xf32>
  %exp = stablehlo.exponential %x : tensor<4xf32>
  %tanh = stablehlo.tanh %x : tensor<4xf32>
  %sqrt = stablehlo.sqrt %abs : tensor<4xf32>
  %p = stablehlo.add %abs, %abs : tensor<4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<4xf32>
  %p1 = stablehlo.add %p, %one : tensor<4xf32>
  %log = stablehlo.log %p1 : tensor<4xf32>
  %floor = stablehlo.floor %x : tensor<4xf32>
  %ceil = stablehlo.ceil %x : tensor<4xf32>
  %logistic = stablehlo.logistic %x : tensor<4xf32>
  check.expect_almost_eq_const(%abs, dense<[0.0, 1.0, 1.5, 2.25]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%neg, dense<[0.0, -1.0, 1.5, -2.25]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%exp, dense<[1.0, 2.71828183, 0.22313016, 9.48773584]> : tensor<4xf32>, atol 1.0e-5, rtol 1.0e-5) : tensor<4xf32>
  check.expect_almost_eq_const(%tanh, dense<[0.0, 0.761594156, -0.905148254, 0.978026987]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%sqrt, dense<[0.0, 1.0, 1.22474487, 1.5]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%log, dense<[0.0, 1.09861229, 1.38629436, 1.70474809]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%floor, dense<[0.0, 1.0, -2.0, 2.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%ceil, dense<[0.0, 1.0, -1.0, 3.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%logistic, dense<[0.5, 0.731058579, 0.182425524, 0.904650535]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @compare_select_clamp() {
  %a = util.unfoldable_constant dense<[1.0, 5.0, -2.0, 3.0]> : tensor<4xf32>
  %b = util.unfoldable_constant dense<[2.0, 5.0, -3.0, 4.0]> : tensor<4xf32>
  %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %sel = stablehlo.select %lt, %b, %a : tensor<4xi1>, tensor<4xf32>
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %hi = stablehlo.constant dense<2.5> : tensor<f32>
  %cl = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const(%lt, dense<[true, false, false, true]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq_const(%eq, dense<[false, true, false, false]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_almost_eq_const(%sel, dense<[2.0, 5.0, -2.0, 4.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%cl, dense<[1.0, 2.5, 0.0, 2.5]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @int_ops() {
  %a = util.unfoldable_constant dense<[7, -7, 1024, -1]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[2, 2, 3, 31]> : tensor<4xi32>
  %div = stablehlo.divide %a, %b : tensor<4xi32>
  %rem = stablehlo.remainder %a, %b : tensor<4xi32>
  %shl = stablehlo.shift_left %a, %b : tensor<4xi32>
  %sra = stablehlo.shift_right_arithmetic %a, %b : tensor<4xi32>
  %srl = stablehlo.shift_right_logical %a, %b : tensor<4xi32>
  %and = stablehlo.and %a, %b : tensor<4xi32>
  %not = stablehlo.not %a : tensor<4xi32>
  %gt = stablehlo.compare GT, %a, %b, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  check.expect_eq_const(%div, dense<[3, -3, 341, 0]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%rem, dense<[1, -1, 1, -1]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%shl, dense<[28, -28, 8192, -2147483648]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%sra, dense<[1, -2, 128, -1]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%srl, dense<[1, 1073741822, 128, 1]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%and, dense<[2, 0, 0, 31]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%not, dense<[-8, 6, -1025, 0]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%gt, dense<[true, false, true, false]> : tensor<4xi1>) : tensor<4xi1>
  return
}

func.func @i8_i64_i1() {
  %a = util.unfoldable_constant dense<[120, -120, 3]> : tensor<3xi8>
  %b = util.unfoldable_constant dense<[10, -10, -4]> : tensor<3xi8>
  %add = stablehlo.add %a, %b : tensor<3xi8>
  %mul = stablehlo.multiply %a, %b : tensor<3xi8>
  %absb = stablehlo.abs %b : tensor<3xi8>
  check.expect_eq_const(%add, dense<[-126, 126, -1]> : tensor<3xi8>) : tensor<3xi8>
  check.expect_eq_const(%mul, dense<[-80, -80, -12]> : tensor<3xi8>) : tensor<3xi8>
  check.expect_eq_const(%absb, dense<[10, 10, 4]> : tensor<3xi8>) : tensor<3xi8>
  %l = util.unfoldable_constant dense<[4000000000, -5]> : tensor<2xi64>
  %l2 = stablehlo.multiply %l, %l : tensor<2xi64>
  check.expect_eq_const(%l2, dense<[-2446744073709551616, 25]> : tensor<2xi64>) : tensor<2xi64>
  %p = util.unfoldable_constant dense<[true, false, true]> : tensor<3xi1>
  %q = util.unfoldable_constant dense<[true, true, false]> : tensor<3xi1>
  %or = stablehlo.or %p, %q : tensor<3xi1>
  %xor = stablehlo.xor %p, %q : tensor<3xi1>
  check.expect_eq_const(%or, dense<[true, true, true]> : tensor<3xi1>) : tensor<3xi1>
  check.expect_eq_const(%xor, dense<[false, true, true]> : tensor<3xi1>) : tensor<3xi1>
  return
}

func.func @convert() {
  %f = util.unfoldable_constant dense<[1.75, -1.75, 300.0]> : tensor<3xf32>
  %i = stablehlo.convert %f : (tensor<3xf32>) -> tensor<3xi32>
  %h = stablehlo.convert %f : (tensor<3xf32>) -> tensor<3xf16>
  %back = stablehlo.convert %i : (tensor<3xi32>) -> tensor<3xf32>
  %b = stablehlo.convert %i : (tensor<3xi32>) -> tensor<3xi1>
  check.expect_eq_const(%i, dense<[1, -1, 300]> : tensor<3xi32>) : tensor<3xi32>
  check.expect_almost_eq_const(%h, dense<[1.75, -1.75, 300.0]> : tensor<3xf16>) : tensor<3xf16>
  check.expect_almost_eq_const(%back, dense<[1.0, -1.0, 300.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_eq_const(%b, dense<[true, true, true]> : tensor<3xi1>) : tensor<3xi1>
  return
}

func.func @f16_ops() {
  %a = util.unfoldable_constant dense<[0.5, -1.0, 2.0]> : tensor<3xf16>
  %b = util.unfoldable_constant dense<[0.25, 3.0, 2.0]> : tensor<3xf16>
  %m = stablehlo.multiply %a, %b : tensor<3xf16>
  %t = stablehlo.tanh %a : tensor<3xf16>
  %r = stablehlo.rsqrt %b : tensor<3xf16>
  check.expect_almost_eq_const(%m, dense<[0.125, -3.0, 4.0]> : tensor<3xf16>) : tensor<3xf16>
  check.expect_almost_eq_const(%t, dense<[0.4621, -0.7617, 0.964]> : tensor<3xf16>, atol 2.0e-3) : tensor<3xf16>
  check.expect_almost_eq_const(%r, dense<[2.0, 0.5774, 0.7071]> : tensor<3xf16>, atol 2.0e-3) : tensor<3xf16>
  return
}
