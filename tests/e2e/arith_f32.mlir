// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// arith/math ops on f32 tensors (elementwise arith on tensors is lowered by IREE).

func.func @add_sub_mul_div() {
  %a = util.unfoldable_constant dense<[[1.5, -2.0, 4.0], [0.25, 10.0, -7.5]]> : tensor<2x3xf32>
  %b = util.unfoldable_constant dense<[[0.5, 4.0, -8.0], [2.0, -0.5, 2.5]]> : tensor<2x3xf32>
  %add = arith.addf %a, %b : tensor<2x3xf32>
  %sub = arith.subf %a, %b : tensor<2x3xf32>
  %mul = arith.mulf %a, %b : tensor<2x3xf32>
  %div = arith.divf %a, %b : tensor<2x3xf32>
  check.expect_almost_eq_const(%add, dense<[[2.0, 2.0, -4.0], [2.25, 9.5, -5.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_almost_eq_const(%sub, dense<[[1.0, -6.0, 12.0], [-1.75, 10.5, -10.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_almost_eq_const(%mul, dense<[[0.75, -8.0, -32.0], [0.5, -5.0, -18.75]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_almost_eq_const(%div, dense<[[3.0, -0.5, -0.5], [0.125, -20.0, -3.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

func.func @max_min_abs_neg() {
  %a = util.unfoldable_constant dense<[1.0, -3.0, 0.0, -0.5, 8.0]> : tensor<5xf32>
  %b = util.unfoldable_constant dense<[2.0, -4.0, -1.0, 0.5, 7.0]> : tensor<5xf32>
  %max = arith.maximumf %a, %b : tensor<5xf32>
  %min = arith.minimumf %a, %b : tensor<5xf32>
  %abs = math.absf %a : tensor<5xf32>
  %neg = arith.negf %a : tensor<5xf32>
  check.expect_almost_eq_const(%max, dense<[2.0, -3.0, 0.0, 0.5, 8.0]> : tensor<5xf32>) : tensor<5xf32>
  check.expect_almost_eq_const(%min, dense<[1.0, -4.0, -1.0, -0.5, 7.0]> : tensor<5xf32>) : tensor<5xf32>
  check.expect_almost_eq_const(%abs, dense<[1.0, 3.0, 0.0, 0.5, 8.0]> : tensor<5xf32>) : tensor<5xf32>
  check.expect_almost_eq_const(%neg, dense<[-1.0, 3.0, -0.0, 0.5, -8.0]> : tensor<5xf32>) : tensor<5xf32>
  return
}

func.func @transcendental() {
  %x = util.unfoldable_constant dense<[0.0, 0.5, 1.0, -2.0, 3.0]> : tensor<5xf32>
  %p = util.unfoldable_constant dense<[1.0, 0.25, 2.0, 100.0, 1.0e-3]> : tensor<5xf32>
  %exp = math.exp %x : tensor<5xf32>
  %tanh = math.tanh %x : tensor<5xf32>
  %log = math.log %p : tensor<5xf32>
  %sqrt = math.sqrt %p : tensor<5xf32>
  %rsqrt = math.rsqrt %p : tensor<5xf32>
  %pow = math.powf %p, %x : tensor<5xf32>
  check.expect_almost_eq_const(%exp, dense<[1.0, 1.64872127, 2.71828183, 0.135335283, 20.0855369]> : tensor<5xf32>, atol 1.0e-5, rtol 1.0e-5) : tensor<5xf32>
  check.expect_almost_eq_const(%tanh, dense<[0.0, 0.462117157, 0.761594156, -0.96402758, 0.995054754]> : tensor<5xf32>) : tensor<5xf32>
  check.expect_almost_eq_const(%log, dense<[0.0, -1.38629436, 0.693147181, 4.60517019, -6.90775528]> : tensor<5xf32>) : tensor<5xf32>
  check.expect_almost_eq_const(%sqrt, dense<[1.0, 0.5, 1.41421356, 10.0, 0.0316227766]> : tensor<5xf32>) : tensor<5xf32>
  check.expect_almost_eq_const(%rsqrt, dense<[1.0, 2.0, 0.707106781, 0.1, 31.6227766]> : tensor<5xf32>, atol 1.0e-4, rtol 1.0e-5) : tensor<5xf32>
  check.expect_almost_eq_const(%pow, dense<[1.0, 0.5, 2.0, 1.0e-4, 1.0e-9]> : tensor<5xf32>, atol 1.0e-6, rtol 1.0e-5) : tensor<5xf32>
  return
}

func.func @compare_select() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, -1.0]> : tensor<4xf32>
  %b = util.unfoldable_constant dense<[1.0, 3.0, 2.0, -2.0]> : tensor<4xf32>
  %lt = arith.cmpf olt, %a, %b : tensor<4xf32>
  %eq = arith.cmpf oeq, %a, %b : tensor<4xf32>
  %ge = arith.cmpf oge, %a, %b : tensor<4xf32>
  %sel = arith.select %lt, %a, %b : tensor<4xi1>, tensor<4xf32>
  check.expect_eq_const(%lt, dense<[false, true, false, false]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq_const(%eq, dense<[true, false, false, false]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq_const(%ge, dense<[true, false, true, true]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_almost_eq_const(%sel, dense<[1.0, 2.0, 2.0, -2.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// NaN handling: maximumf propagates NaN; a NaN compares unordered.
func.func @nan_semantics() {
  %a = util.unfoldable_constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>
  %b = util.unfoldable_constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %max = arith.maximumf %a, %b : tensor<2xf32>
  %isnan = arith.cmpf uno, %max, %max : tensor<2xf32>
  %maxnum = arith.maxnumf %a, %b : tensor<2xf32>
  check.expect_eq_const(%isnan, dense<[true, true]> : tensor<2xi1>) : tensor<2xi1>
  check.expect_almost_eq_const(%maxnum, dense<[1.0, 1.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// Scalars (not tensors) go through the VM / host path rather than a dispatch.
func.func @scalar_math() {
  %a = util.unfoldable_constant 3.0 : f32
  %b = util.unfoldable_constant 4.0 : f32
  %aa = arith.mulf %a, %a : f32
  %bb = arith.mulf %b, %b : f32
  %s = arith.addf %aa, %bb : f32
  %five = arith.constant 5.0 : f32
  %r = math.sqrt %s : f32
  %eq = arith.cmpf oeq, %r, %five : f32
  %eq32 = arith.extui %eq : i1 to i32
  check.expect_true(%eq32) : i32
  return
}
