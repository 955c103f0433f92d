// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// StableHLO broadcasts and reductions (sum/max/min over different axes, multi-operand argmax).

func.func @broadcast_in_dim() {
  %v = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %rows = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xi32>) -> tensor<2x3xi32>
  %cols = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<3xi32>) -> tensor<3x2xi32>
  %s = util.unfoldable_constant dense<7> : tensor<i32>
  %splat = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
  check.expect_eq_const(%rows, dense<[[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  check.expect_eq_const(%cols, dense<[[1, 1], [2, 2], [3, 3]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  check.expect_eq_const(%splat, dense<7> : tensor<2x2xi32>) : tensor<2x2xi32>
  // Outer product via two broadcasts.
  %a = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<3xi32>) -> tensor<3x3xi32>
  %b = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xi32>) -> tensor<3x3xi32>
  %outer = stablehlo.multiply %a, %b : tensor<3x3xi32>
  check.expect_eq_const(%outer, dense<[[1, 2, 3], [2, 4, 6], [3, 6, 9]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}

func.func @reduce_sum_each_axis() {
  %x = util.unfoldable_constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[-1.0, -2.0], [0.5, 0.5], [10.0, 20.0]]]> : tensor<2x3x2xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<2x3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %r1 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  %r2 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<2x3x2xf32>, tensor<f32>) -> tensor<2x3xf32>
  %all = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x3x2xf32>, tensor<f32>) -> tensor<f32>
  check.expect_almost_eq_const(%r0, dense<[[0.0, 0.0], [3.5, 4.5], [15.0, 26.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  check.expect_almost_eq_const(%r1, dense<[[9.0, 12.0], [9.5, 18.5]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  check.expect_almost_eq_const(%r2, dense<[[3.0, 7.0, 11.0], [-3.0, 1.0, 30.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_almost_eq_const(%all, dense<49.0> : tensor<f32>) : tensor<f32>
  return
}

func.func @reduce_max_min_int() {
  %x = util.unfoldable_constant dense<[[3, -9, 4, 1], [-5, -6, -7, -8]]> : tensor<2x4xi32>
  %lo = stablehlo.constant dense<-2147483648> : tensor<i32>
  %hi = stablehlo.constant dense<2147483647> : tensor<i32>
  %max = stablehlo.reduce(%x init: %lo) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4xi32>, tensor<i32>) -> tensor<2xi32>
  %min = stablehlo.reduce(%x init: %hi) applies stablehlo.minimum across dimensions = [0] : (tensor<2x4xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_eq_const(%max, dense<[4, -5]> : tensor<2xi32>) : tensor<2xi32>
  check.expect_eq_const(%min, dense<[-5, -9, -7, -8]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// A large 1-D sum: 1000 ones plus index-dependent values from iota.
func.func @reduce_large_iota() {
  %iota = stablehlo.iota dim = 0 : tensor<1000xi32>
  %x = util.unfoldable_constant dense<1> : tensor<1000xi32>
  %s = stablehlo.add %iota, %x : tensor<1000xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %sum = stablehlo.reduce(%s init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<1000xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const(%sum, dense<500500> : tensor<i32>) : tensor<i32>
  return
}

// Argmax as a variadic reduce over (value, index) pairs.
func.func @argmax_variadic_reduce() {
  %x = util.unfoldable_constant dense<[[1.0, 7.0, 3.0, 7.5], [9.0, -1.0, 2.0, 0.0]]> : tensor<2x4xf32>
  %idx = stablehlo.iota dim = 1 : tensor<2x4xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %ninf), (%idx init: %zero) across dimensions = [1]
      : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
    reducer(%av: tensor<f32>, %bv: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
      %gt = stablehlo.compare GT, %av, %bv, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = stablehlo.select %gt, %av, %bv : tensor<i1>, tensor<f32>
      %i = stablehlo.select %gt, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %v, %i : tensor<f32>, tensor<i32>
    }
  check.expect_almost_eq_const(%r#0, dense<[7.5, 9.0]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_eq_const(%r#1, dense<[3, 0]> : tensor<2xi32>) : tensor<2xi32>
  return
}
