// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// stablehlo.dot_general / dot: plain, batched, matrix-vector and transposed operands.
// Larger sizes are covered by the generated linalg matmul module.

func.func @dot_2x3x5() {
  %a = util.unfoldable_constant dense<[[-2.0, -1.0, 0.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %b = util.unfoldable_constant dense<[[1.0, 2.0, 0.0, -1.0, 3.0], [0.0, 1.0, 1.0, 2.0, -2.0], [4.0, 0.0, -1.0, 1.0, 1.0]]> : tensor<3x5xf32>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  check.expect_almost_eq_const(%r, dense<[[-2.0, -5.0, -1.0, 0.0, -4.0], [13.0, 4.0, -1.0, 6.0, 2.0]]> : tensor<2x5xf32>) : tensor<2x5xf32>
  %d = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  check.expect_almost_eq_const(%d, dense<[[-2.0, -5.0, -1.0, 0.0, -4.0], [13.0, 4.0, -1.0, 6.0, 2.0]]> : tensor<2x5xf32>) : tensor<2x5xf32>
  return
}

// The rhs is stored transposed (5x3) and contracted on its dim 1.
func.func @dot_transposed_rhs() {
  %a = util.unfoldable_constant dense<[[-2.0, -1.0, 0.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %bt = util.unfoldable_constant dense<[[1.0, 0.0, 4.0], [2.0, 1.0, 0.0], [0.0, 1.0, -1.0], [-1.0, 2.0, 1.0], [3.0, -2.0, 1.0]]> : tensor<5x3xf32>
  %r = stablehlo.dot_general %a, %bt, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<2x5xf32>
  check.expect_almost_eq_const(%r, dense<[[-2.0, -5.0, -1.0, 0.0, -4.0], [13.0, 4.0, -1.0, 6.0, 2.0]]> : tensor<2x5xf32>) : tensor<2x5xf32>
  return
}

func.func @batch_dot() {
  %a = util.unfoldable_constant dense<[[[0.0, 0.5, 1.0], [1.5, 2.0, 2.5]], [[3.0, 3.5, 4.0], [4.5, 5.0, 5.5]]]> : tensor<2x2x3xf32>
  %b = util.unfoldable_constant dense<[[[-5.0, -4.0], [-3.0, -2.0], [-1.0, 0.0]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]> : tensor<2x3x2xf32>
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x3xf32>, tensor<2x3x2xf32>) -> tensor<2x2x2xf32>
  check.expect_almost_eq_const(%r, dense<[[[-2.5, -1.0], [-16.0, -10.0]], [[33.5, 44.0], [47.0, 62.0]]]> : tensor<2x2x2xf32>) : tensor<2x2x2xf32>
  return
}

func.func @matvec() {
  %a = util.unfoldable_constant dense<[[-2.0, -1.0, 0.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %v = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  check.expect_almost_eq_const(%r, dense<[-4.0, 14.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// Integer dot with i32 accumulation.
func.func @dot_i32() {
  %a = util.unfoldable_constant dense<[[1, -2], [3, 4], [100000, 1]]> : tensor<3x2xi32>
  %b = util.unfoldable_constant dense<[[5, 6, 7], [-8, 9, 10]]> : tensor<2x3xi32>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x2xi32>, tensor<2x3xi32>) -> tensor<3x3xi32>
  check.expect_eq_const(%r, dense<[[21, -12, -13], [-17, 54, 61], [499992, 600009, 700010]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}
