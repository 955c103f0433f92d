// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// stablehlo.convolution (NHWC/HWIO, stride, padding) and reduce_window pooling.
// Expected values were computed with numpy (direct-loop convolution).

func.func private @input() -> tensor<1x6x6x1xf32> {
  %x = util.unfoldable_constant dense<[[[[-3.0], [-2.0], [-1.0], [0.0], [1.0], [2.0]], [[3.0], [-3.0], [-2.0], [-1.0], [0.0], [1.0]], [[2.0], [3.0], [-3.0], [-2.0], [-1.0], [0.0]], [[1.0], [2.0], [3.0], [-3.0], [-2.0], [-1.0]], [[0.0], [1.0], [2.0], [3.0], [-3.0], [-2.0]], [[-1.0], [0.0], [1.0], [2.0], [3.0], [-3.0]]]]> : tensor<1x6x6x1xf32>
  return %x : tensor<1x6x6x1xf32>
}

func.func @conv_valid() {
  %x = call @input() : () -> tensor<1x6x6x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0, 1.0]], [[2.0, 0.0]], [[1.0, -1.0]]], [[[0.0, 2.0]], [[0.0, 0.0]], [[0.0, -2.0]]], [[[-1.0, 1.0]], [[-2.0, 0.0]], [[-1.0, -1.0]]]]> : tensor<3x3x1x2xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x6x6x1xf32>, tensor<3x3x1x2xf32>) -> tensor<1x4x4x2xf32>
  check.expect_almost_eq_const(%y, dense<[[[[-13.0, 13.0], [1.0, -1.0], [8.0, -8.0], [8.0, -8.0]], [[-13.0, 13.0], [-13.0, 13.0], [1.0, -1.0], [8.0, -8.0]], [[1.0, -1.0], [-13.0, 13.0], [-13.0, 13.0], [1.0, -1.0]], [[8.0, -8.0], [1.0, -1.0], [-13.0, 13.0], [-13.0, 13.0]]]]> : tensor<1x4x4x2xf32>) : tensor<1x4x4x2xf32>
  return
}

func.func @conv_stride2_pad1() {
  %x = call @input() : () -> tensor<1x6x6x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0, 1.0]], [[2.0, 0.0]], [[1.0, -1.0]]], [[[0.0, 2.0]], [[0.0, 0.0]], [[0.0, -2.0]]], [[[-1.0, 1.0]], [[-2.0, 0.0]], [[-1.0, -1.0]]]]> : tensor<3x3x1x2xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x6x6x1xf32>, tensor<3x3x1x2xf32>) -> tensor<1x3x3x2xf32>
  check.expect_almost_eq_const(%y, dense<[[[[-3.0, 7.0], [8.0, -6.0], [0.0, -6.0]], [[-1.0, -5.0], [-13.0, 13.0], [8.0, -8.0]], [[6.0, -4.0], [1.0, -1.0], [-13.0, 13.0]]]]> : tensor<1x3x3x2xf32>) : tensor<1x3x3x2xf32>
  return
}

// The same stride-2 convolution with NCHW input and OIHW filter layouts.
func.func @conv_nchw() {
  %x = call @input() : () -> tensor<1x6x6x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0, 1.0]], [[2.0, 0.0]], [[1.0, -1.0]]], [[[0.0, 2.0]], [[0.0, 0.0]], [[0.0, -2.0]]], [[[-1.0, 1.0]], [[-2.0, 0.0]], [[-1.0, -1.0]]]]> : tensor<3x3x1x2xf32>
  %xn = stablehlo.transpose %x, dims = [0, 3, 1, 2] : (tensor<1x6x6x1xf32>) -> tensor<1x1x6x6xf32>
  %wn = stablehlo.transpose %w, dims = [3, 2, 0, 1] : (tensor<3x3x1x2xf32>) -> tensor<2x1x3x3xf32>
  %y = stablehlo.convolution(%xn, %wn) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
      window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x3x3xf32>
  %yt = stablehlo.transpose %y, dims = [0, 2, 3, 1] : (tensor<1x2x3x3xf32>) -> tensor<1x3x3x2xf32>
  check.expect_almost_eq_const(%yt, dense<[[[[-3.0, 7.0], [8.0, -6.0], [0.0, -6.0]], [[-1.0, -5.0], [-13.0, 13.0], [8.0, -8.0]], [[6.0, -4.0], [1.0, -1.0], [-13.0, 13.0]]]]> : tensor<1x3x3x2xf32>) : tensor<1x3x3x2xf32>
  return
}

func.func @max_pool_3x3_stride2_pad1() {
  %x = call @input() : () -> tensor<1x6x6x1xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %y = "stablehlo.reduce_window"(%x, %ninf) <{window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>,
                                              padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x6x6x1xf32>, tensor<f32>) -> tensor<1x3x3x1xf32>
  check.expect_almost_eq_const(%y, dense<[[[[3.0], [0.0], [2.0]], [[3.0], [3.0], [1.0]], [[2.0], [3.0], [3.0]]]]> : tensor<1x3x3x1xf32>) : tensor<1x3x3x1xf32>
  return
}

func.func @avg_pool_2x2() {
  %x = call @input() : () -> tensor<1x6x6x1xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x6x6x1xf32>, tensor<f32>) -> tensor<1x3x3x1xf32>
  check.expect_almost_eq_const(%s, dense<[[[[-5.0], [-4.0], [4.0]], [[8.0], [-5.0], [-4.0]], [[0.0], [8.0], [-5.0]]]]> : tensor<1x3x3x1xf32>) : tensor<1x3x3x1xf32>
  %four = stablehlo.constant dense<4.0> : tensor<1x3x3x1xf32>
  %avg = stablehlo.divide %s, %four : tensor<1x3x3x1xf32>
  check.expect_almost_eq_const(%avg, dense<[[[[-1.25], [-1.0], [1.0]], [[2.0], [-1.25], [-1.0]], [[0.0], [2.0], [-1.25]]]]> : tensor<1x3x3x1xf32>) : tensor<1x3x3x1xf32>
  return
}
