// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TOSA matmul, conv2d, depthwise_conv2d and pooling (TOSA 1.0: zero points are operands;
// the custom assembly of these ops changed, so the generic form is used).
// Expected values were computed with numpy (direct-loop convolution).

func.func @matmul_batched_f32() {
  %a = util.unfoldable_constant dense<[[[-2.0, -1.0, 0.0, 1.0], [2.0, -2.0, -1.0, 0.0], [1.0, 2.0, -2.0, -1.0]], [[0.0, 1.0, 2.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [-2.0, -1.0, 0.0, 1.0]]]> : tensor<2x3x4xf32>
  %b = util.unfoldable_constant dense<[[[-1.0, 0.0, 1.0, -1.0, 0.0], [1.0, -1.0, 0.0, 1.0, -1.0], [0.0, 1.0, -1.0, 0.0, 1.0], [-1.0, 0.0, 1.0, -1.0, 0.0]], [[1.0, -1.0, 0.0, 1.0, -1.0], [0.0, 1.0, -1.0, 0.0, 1.0], [-1.0, 0.0, 1.0, -1.0, 0.0], [1.0, -1.0, 0.0, 1.0, -1.0]]]> : tensor<2x4x5xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  check.expect_almost_eq_const(%r, dense<[[[0.0, 1.0, -1.0, 0.0, 1.0], [-4.0, 1.0, 3.0, -4.0, 1.0], [2.0, -4.0, 2.0, 2.0, -4.0]], [[-4.0, 3.0, 1.0, -4.0, 3.0], [0.0, -1.0, 1.0, 0.0, -1.0], [-1.0, 0.0, 1.0, -1.0, 0.0]]]> : tensor<2x3x5xf32>) : tensor<2x3x5xf32>
  return
}

// i8 x i8 accumulates in i32 (the extremes -128/127 would overflow an i16 accumulator).
func.func @matmul_i8() {
  %a = util.unfoldable_constant dense<[[[100, -100, 5], [-128, 127, 0]]]> : tensor<1x2x3xi8>
  %b = util.unfoldable_constant dense<[[[1, 2], [3, -4], [127, -128]]]> : tensor<1x3x2xi8>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x3xi8>, tensor<1x3x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2xi32>
  check.expect_eq_const(%r, dense<[[[435, -40], [253, -764]]]> : tensor<1x2x2xi32>) : tensor<1x2x2xi32>
  return
}

func.func private @input() -> tensor<1x5x5x2xf32> {
  %x = util.unfoldable_constant dense<[[[[-1.5, -0.5], [0.5, 1.5], [-1.5, -0.5], [0.5, 1.5], [-1.5, -0.5]], [[0.5, 1.5], [-1.5, -0.5], [0.5, 1.5], [-1.5, -0.5], [0.5, 1.5]], [[-1.5, -0.5], [0.5, 1.5], [-1.5, -0.5], [0.5, 1.5], [-1.5, -0.5]], [[0.5, 1.5], [-1.5, -0.5], [0.5, 1.5], [-1.5, -0.5], [0.5, 1.5]], [[-1.5, -0.5], [0.5, 1.5], [-1.5, -0.5], [0.5, 1.5], [-1.5, -0.5]]]]> : tensor<1x5x5x2xf32>
  return %x : tensor<1x5x5x2xf32>
}

func.func @conv2d_valid_bias() {
  %x = call @input() : () -> tensor<1x5x5x2xf32>
  %w = util.unfoldable_constant dense<[[[[-1.0, -0.5], [0.0, 0.5], [1.0, -1.0]], [[-0.5, 0.0], [0.5, 1.0], [-1.0, -0.5]], [[0.0, 0.5], [1.0, -1.0], [-0.5, 0.0]]], [[[0.5, 1.0], [-1.0, -0.5], [0.0, 0.5]], [[1.0, -1.0], [-0.5, 0.0], [0.5, 1.0]], [[-1.0, -0.5], [0.0, 0.5], [1.0, -1.0]]], [[[-0.5, 0.0], [0.5, 1.0], [-1.0, -0.5]], [[0.0, 0.5], [1.0, -1.0], [-0.5, 0.0]], [[0.5, 1.0], [-1.0, -0.5], [0.0, 0.5]]]]> : tensor<3x3x3x2xf32>
  %b = util.unfoldable_constant dense<[0.5, -1.0, 2.0]> : tensor<3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = "tosa.conv2d"(%x, %w, %b, %zp, %zp) <{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}>
      : (tensor<1x5x5x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x3xf32>
  check.expect_almost_eq_const(%y, dense<[[[[-1.25, -0.75, 3.0], [1.75, -1.75, 3.0], [-1.25, -0.75, 3.0]], [[1.75, -1.75, 3.0], [-1.25, -0.75, 3.0], [1.75, -1.75, 3.0]], [[-1.25, -0.75, 3.0], [1.75, -1.75, 3.0], [-1.25, -0.75, 3.0]]]]> : tensor<1x3x3x3xf32>) : tensor<1x3x3x3xf32>
  return
}

func.func @conv2d_stride2_pad1() {
  %x = call @input() : () -> tensor<1x5x5x2xf32>
  %w = util.unfoldable_constant dense<[[[[-1.0, -0.5], [0.0, 0.5], [1.0, -1.0]], [[-0.5, 0.0], [0.5, 1.0], [-1.0, -0.5]], [[0.0, 0.5], [1.0, -1.0], [-0.5, 0.0]]], [[[0.5, 1.0], [-1.0, -0.5], [0.0, 0.5]], [[1.0, -1.0], [-0.5, 0.0], [0.5, 1.0]], [[-1.0, -0.5], [0.0, 0.5], [1.0, -1.0]]], [[[-0.5, 0.0], [0.5, 1.0], [-1.0, -0.5]], [[0.0, 0.5], [1.0, -1.0], [-0.5, 0.0]], [[0.5, 1.0], [-1.0, -0.5], [0.0, 0.5]]]]> : tensor<3x3x3x2xf32>
  %b = util.unfoldable_constant dense<[0.5, -1.0, 2.0]> : tensor<3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = "tosa.conv2d"(%x, %w, %b, %zp, %zp) <{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}>
      : (tensor<1x5x5x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x3xf32>
  check.expect_almost_eq_const(%y, dense<[[[[-2.25, 1.25, -0.75], [-2.75, 2.0, -1.25], [-2.25, 1.25, -0.75]], [[-2.5, -0.25, 2.75], [-1.25, -0.75, 3.0], [0.25, -1.25, 1.75]], [[-2.25, 0.0, 4.25], [-0.75, -2.25, 5.75], [1.5, -3.75, 4.25]]]]> : tensor<1x3x3x3xf32>) : tensor<1x3x3x3xf32>
  return
}

func.func @depthwise_conv2d() {
  %x = call @input() : () -> tensor<1x5x5x2xf32>
  %w = util.unfoldable_constant dense<[[[[-1.0], [0.0]], [[1.0], [-1.0]], [[0.0], [1.0]]], [[[-1.0], [0.0]], [[1.0], [-1.0]], [[0.0], [1.0]]], [[[-1.0], [0.0]], [[1.0], [-1.0]], [[0.0], [1.0]]]]> : tensor<3x3x2x1xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = "tosa.depthwise_conv2d"(%x, %w, %b, %zp, %zp) <{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}>
      : (tensor<1x5x5x2xf32>, tensor<3x3x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x2xf32>
  check.expect_almost_eq_const(%y, dense<[[[[-1.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, -1.0]], [[-2.5, 2.0], [2.0, -2.0], [-2.0, 2.0], [2.0, -2.0], [-2.0, -0.5]], [[-0.5, -2.0], [-2.0, 2.0], [2.0, -2.0], [-2.0, 2.0], [2.0, -2.5]], [[-2.5, 2.0], [2.0, -2.0], [-2.0, 2.0], [2.0, -2.0], [-2.0, -0.5]], [[-1.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, -1.0]]]]> : tensor<1x5x5x2xf32>) : tensor<1x5x5x2xf32>
  return
}

func.func @max_pool_3x3_stride2() {
  %x = call @input() : () -> tensor<1x5x5x2xf32>
  %y = "tosa.max_pool2d"(%x) <{kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}> : (tensor<1x5x5x2xf32>) -> tensor<1x2x2x2xf32>
  check.expect_almost_eq_const(%y, dense<[[[[0.5, 1.5], [0.5, 1.5]], [[0.5, 1.5], [0.5, 1.5]]]]> : tensor<1x2x2x2xf32>) : tensor<1x2x2x2xf32>
  return
}

func.func @avg_pool_3x3() {
  %x = call @input() : () -> tensor<1x5x5x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = "tosa.avg_pool2d"(%x, %zp, %zp) <{acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}>
      : (tensor<1x5x5x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  check.expect_almost_eq_const(%y, dense<[[[[-0.611111104, 0.388888896], [-0.388888896, 0.611111104], [-0.611111104, 0.388888896]], [[-0.388888896, 0.611111104], [-0.611111104, 0.388888896], [-0.388888896, 0.611111104]], [[-0.611111104, 0.388888896], [-0.388888896, 0.611111104], [-0.611111104, 0.388888896]]]]> : tensor<1x3x3x2xf32>, atol 1.0e-5, rtol 1.0e-5) : tensor<1x3x3x2xf32>
  return
}
