// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// StableHLO data movement: transpose, reshape, concatenate, slice (strided), pad, reverse, iota.

func.func private @m2x3x4() -> tensor<2x3x4xi32> {
  %x = util.unfoldable_constant dense<[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]> : tensor<2x3x4xi32>
  return %x : tensor<2x3x4xi32>
}

func.func @transpose_3d() {
  %x = call @m2x3x4() : () -> tensor<2x3x4xi32>
  %t = stablehlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xi32>) -> tensor<4x2x3xi32>
  %s = stablehlo.slice %t [1:3, 0:2, 0:3] : (tensor<4x2x3xi32>) -> tensor<2x2x3xi32>
  check.expect_eq_const(%s, dense<[[[1, 5, 9], [13, 17, 21]], [[2, 6, 10], [14, 18, 22]]]> : tensor<2x2x3xi32>) : tensor<2x2x3xi32>
  return
}

func.func @reshape_roundtrip() {
  %x = call @m2x3x4() : () -> tensor<2x3x4xi32>
  %r = stablehlo.reshape %x : (tensor<2x3x4xi32>) -> tensor<6x4xi32>
  %r2 = stablehlo.reshape %r : (tensor<6x4xi32>) -> tensor<4x6xi32>
  check.expect_eq_const(%r2, dense<[[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17], [18, 19, 20, 21, 22, 23]]> : tensor<4x6xi32>) : tensor<4x6xi32>
  return
}

func.func @strided_slice() {
  %x = call @m2x3x4() : () -> tensor<2x3x4xi32>
  %s = stablehlo.slice %x [0:2:1, 0:3:2, 1:4:2] : (tensor<2x3x4xi32>) -> tensor<2x2x2xi32>
  check.expect_eq_const(%s, dense<[[[1, 3], [9, 11]], [[13, 15], [21, 23]]]> : tensor<2x2x2xi32>) : tensor<2x2x2xi32>
  return
}

func.func @concatenate() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %b = util.unfoldable_constant dense<[[3.0, 4.0], [5.0, 6.0]]> : tensor<2x2xf32>
  %c = stablehlo.concatenate %a, %b, %a, dim = 0 : (tensor<1x2xf32>, tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  %d = stablehlo.concatenate %b, %b, dim = 1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%c, dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [1.0, 2.0]]> : tensor<4x2xf32>) : tensor<4x2xf32>
  check.expect_almost_eq_const(%d, dense<[[3.0, 4.0, 3.0, 4.0], [5.0, 6.0, 5.0, 6.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}

// Edge padding (low/high) and interior padding between elements.
func.func @pad() {
  %x = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %v = stablehlo.constant dense<0> : tensor<i32>
  %p = stablehlo.pad %x, %v, low = [1, 0], high = [0, 1], interior = [0, 1] : (tensor<2x2xi32>, tensor<i32>) -> tensor<3x4xi32>
  check.expect_eq_const(%p, dense<[[0, 0, 0, 0], [1, 0, 2, 0], [3, 0, 4, 0]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  // Negative padding crops.
  %n = stablehlo.pad %x, %v, low = [0, -1], high = [-1, 0], interior = [0, 0] : (tensor<2x2xi32>, tensor<i32>) -> tensor<1x1xi32>
  check.expect_eq_const(%n, dense<[[2]]> : tensor<1x1xi32>) : tensor<1x1xi32>
  return
}

func.func @reverse_iota() {
  %x = call @m2x3x4() : () -> tensor<2x3x4xi32>
  %r = stablehlo.reverse %x, dims = [0, 2] : tensor<2x3x4xi32>
  %s = stablehlo.slice %r [0:1, 0:1, 0:4] : (tensor<2x3x4xi32>) -> tensor<1x1x4xi32>
  check.expect_eq_const(%s, dense<[[[15, 14, 13, 12]]]> : tensor<1x1x4xi32>) : tensor<1x1x4xi32>
  %i = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %one = util.unfoldable_constant dense<1> : tensor<2x3xi32>
  %j = stablehlo.add %i, %one : tensor<2x3xi32>
  check.expect_eq_const(%j, dense<[[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}
