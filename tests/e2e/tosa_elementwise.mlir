// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TOSA elementwise ops (TOSA 1.0 syntax: tosa.mul takes a shift operand, tosa.negate takes
// zero-point operands).

func.func @f32_arith() {
  %a = util.unfoldable_constant dense<[1.5, -2.0, 4.0, 0.25]> : tensor<4xf32>
  %b = util.unfoldable_constant dense<[0.5, 3.0, -2.0, 8.0]> : tensor<4xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %add = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %sub = tosa.sub %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %mul = tosa.mul %a, %b, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %max = tosa.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %min = tosa.minimum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %rcp = tosa.reciprocal %b : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%add, dense<[2.0, 1.0, 2.0, 8.25]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%sub, dense<[1.0, -5.0, 6.0, -7.75]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%mul, dense<[0.75, -6.0, -8.0, 2.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%max, dense<[1.5, 3.0, 4.0, 8.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%min, dense<[0.5, -2.0, -2.0, 0.25]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%rcp, dense<[2.0, 0.333333343, -0.5, 0.125]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @f32_math() {
  %a = util.unfoldable_constant dense<[0.0, 1.0, -1.0, 2.0]> : tensor<4xf32>
  %p = util.unfoldable_constant dense<[1.0, 4.0, 0.25, 2.718281828]> : tensor<4xf32>
  %izp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %exp = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  %log = tosa.log %p : (tensor<4xf32>) -> tensor<4xf32>
  %tanh = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
  %sig = tosa.sigmoid %a : (tensor<4xf32>) -> tensor<4xf32>
  %rsq = tosa.rsqrt %p : (tensor<4xf32>) -> tensor<4xf32>
  %abs = tosa.abs %a : (tensor<4xf32>) -> tensor<4xf32>
  %neg = tosa.negate %a, %izp, %izp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  %clamp = "tosa.clamp"(%a) <{min_val = -0.5 : f32, max_val = 1.5 : f32}> : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%exp, dense<[1.0, 2.71828183, 0.36787944, 7.3890561]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%log, dense<[0.0, 1.38629436, -1.38629436, 1.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%tanh, dense<[0.0, 0.76159416, -0.76159416, 0.96402758]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%sig, dense<[0.5, 0.73105858, 0.26894142, 0.88079708]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%rsq, dense<[1.0, 0.5, 2.0, 0.60653066]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%abs, dense<[0.0, 1.0, 1.0, 2.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%neg, dense<[0.0, -1.0, 1.0, -2.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%clamp, dense<[0.0, 1.0, -0.5, 1.5]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @compare_select() {
  %a = util.unfoldable_constant dense<[1, 5, -3, 7]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[2, 5, -4, 0]> : tensor<4xi32>
  %gt = tosa.greater %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %ge = tosa.greater_equal %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %eq = tosa.equal %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %sel = tosa.select %gt, %a, %b : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %not = tosa.logical_not %ge : (tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const(%gt, dense<[false, false, true, true]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq_const(%eq, dense<[false, true, false, false]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq_const(%sel, dense<[2, 5, -3, 7]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%not, dense<[true, false, false, false]> : tensor<4xi1>) : tensor<4xi1>
  return
}

func.func @int_ops() {
  %a = util.unfoldable_constant dense<[7, -8, 100, 1]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[2, 3, -7, 1]> : tensor<4xi32>
  %s = util.unfoldable_constant dense<[1, 2, 3, 31]> : tensor<4xi32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mul = tosa.mul %a, %b, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  // intdiv truncates toward zero.
  %div = tosa.intdiv %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %shl = tosa.logical_left_shift %a, %s : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %sra = "tosa.arithmetic_right_shift"(%a, %s) <{round = false}> : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %and = tosa.bitwise_and %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %xor = tosa.bitwise_xor %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%mul, dense<[14, -24, -700, 1]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%div, dense<[3, -2, -14, 1]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%shl, dense<[14, -32, 800, -2147483648]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%sra, dense<[3, -2, 12, 0]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%and, dense<[2, 0, 96, 1]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%xor, dense<[5, -5, -99, 0]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @int8_ops() {
  // TOSA's profile checker rejects i8 add/maximum, so i8 is widened with tosa.cast first.
  %a = util.unfoldable_constant dense<[100, -100, 5, -128]> : tensor<4xi8>
  %b = util.unfoldable_constant dense<[27, -28, -6, 1]> : tensor<4xi8>
  %wa = tosa.cast %a : (tensor<4xi8>) -> tensor<4xi32>
  %wb = tosa.cast %b : (tensor<4xi8>) -> tensor<4xi32>
  %add = tosa.add %wa, %wb : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %and = tosa.bitwise_and %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %f = tosa.cast %a : (tensor<4xi8>) -> tensor<4xf32>
  check.expect_eq_const(%add, dense<[127, -128, -1, -127]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%and, dense<[0, -124, 0, 0]> : tensor<4xi8>) : tensor<4xi8>
  check.expect_almost_eq_const(%f, dense<[100.0, -100.0, 5.0, -128.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @f16_ops() {
  %a = util.unfoldable_constant dense<[1.5, -2.0, 0.5, 3.0]> : tensor<4xf16>
  %b = util.unfoldable_constant dense<[2.0, 2.0, -0.25, 0.5]> : tensor<4xf16>
  %add = tosa.add %a, %b : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %exp = tosa.exp %b : (tensor<4xf16>) -> tensor<4xf16>
  %f32 = tosa.cast %add : (tensor<4xf16>) -> tensor<4xf32>
  check.expect_almost_eq_const(%add, dense<[3.5, 0.0, 0.25, 3.5]> : tensor<4xf16>) : tensor<4xf16>
  check.expect_almost_eq_const(%exp, dense<[7.390625, 7.390625, 0.7788, 1.6487]> : tensor<4xf16>, atol 1.0e-2) : tensor<4xf16>
  check.expect_almost_eq_const(%f32, dense<[3.5, 0.0, 0.25, 3.5]> : tensor<4xf32>) : tensor<4xf32>
  return
}
