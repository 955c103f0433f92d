// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Convolutions and pooling as named linalg ops (NHWC/HWCF and NCHW/FCHW, strides, padding).
// Expected values were computed with numpy (direct-loop convolution).

func.func private @input_nhwc() -> tensor<1x5x5x2xf32> {
  %x = util.unfoldable_constant dense<[[[[0.100000001, 0.200000003], [0.300000012, 0.400000006], [0.5, 0.600000024], [0.699999988, 0.800000012], [0.899999976, 1.0]], [[1.10000002, 1.20000005], [1.29999995, 1.39999998], [1.5, 1.60000002], [1.70000005, 1.79999995], [1.89999998, 2.0]], [[2.0999999, 2.20000005], [2.29999995, 2.4000001], [2.5, 2.5999999], [2.70000005, 2.79999995], [2.9000001, 3.0]], [[3.0999999, 3.20000005], [3.29999995, 3.4000001], [3.5, 3.5999999], [3.70000005, 3.79999995], [3.9000001, 4.0]], [[4.0999999, 4.19999981], [4.30000019, 4.4000001], [4.5, 4.5999999], [4.69999981, 4.80000019], [4.9000001, 5.0]]]]> : tensor<1x5x5x2xf32>
  return %x : tensor<1x5x5x2xf32>
}

func.func private @filter_hwcf() -> tensor<3x3x2x2xf32> {
  %w = util.unfoldable_constant dense<[[[[1.0, 0.0], [0.0, 1.0]], [[0.0, 0.0], [0.0, 2.0]], [[-1.0, 0.0], [0.0, 1.0]]], [[[2.0, 0.0], [0.0, 0.0]], [[0.0, 1.0], [0.0, 0.0]], [[-2.0, 0.0], [0.0, 0.0]]], [[[1.0, 0.0], [0.0, -1.0]], [[0.0, 0.0], [0.0, -2.0]], [[-1.0, 0.0], [0.0, -1.0]]]]> : tensor<3x3x2x2xf32>
  return %w : tensor<3x3x2x2xf32>
}

func.func @conv2d_nhwc_valid() {
  %x = call @input_nhwc() : () -> tensor<1x5x5x2xf32>
  %w = call @filter_hwcf() : () -> tensor<3x3x2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x3x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x5x5x2xf32>, tensor<3x3x2x2xf32>) outs(%init : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  check.expect_almost_eq_const(%y, dense<[[[[-1.60000002, -6.69999981], [-1.60000002, -6.5], [-1.60000002, -6.30000019]], [[-1.60000002, -5.69999981], [-1.60000002, -5.5], [-1.60000002, -5.30000019]], [[-1.60000002, -4.69999981], [-1.60000002, -4.5], [-1.60000002, -4.30000019]]]]> : tensor<1x3x3x2xf32>, atol 1.0e-5, rtol 1.0e-5) : tensor<1x3x3x2xf32>
  return
}

// Padding is explicit in linalg: tensor.pad by 1 on each spatial side, then stride 2.
func.func @conv2d_nhwc_stride2_pad1() {
  %x = call @input_nhwc() : () -> tensor<1x5x5x2xf32>
  %w = call @filter_hwcf() : () -> tensor<3x3x2x2xf32>
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x5x5x2xf32> to tensor<1x7x7x2xf32>
  %e = tensor.empty() : tensor<1x3x3x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%xp, %w : tensor<1x7x7x2xf32>, tensor<3x3x2x2xf32>) outs(%init : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  check.expect_almost_eq_const(%y, dense<[[[[-1.89999998, -3.70000005], [-1.20000005, -5.9000001], [3.0999999, -4.9000001]], [[-9.19999981, -3.9000001], [-1.60000002, -5.5], [10.8000002, -3.0999999]], [[-11.8999996, 13.8999996], [-1.20000005, 18.8999996], [13.1000004, 16.7000008]]]]> : tensor<1x3x3x2xf32>, atol 1.0e-5, rtol 1.0e-5) : tensor<1x3x3x2xf32>
  return
}

func.func @conv2d_nchw_stride2() {
  %x = util.unfoldable_constant dense<[[[[0.100000001, 0.300000012, 0.5, 0.699999988, 0.899999976], [1.10000002, 1.29999995, 1.5, 1.70000005, 1.89999998], [2.0999999, 2.29999995, 2.5, 2.70000005, 2.9000001], [3.0999999, 3.29999995, 3.5, 3.70000005, 3.9000001], [4.0999999, 4.30000019, 4.5, 4.69999981, 4.9000001]], [[0.200000003, 0.400000006, 0.600000024, 0.800000012, 1.0], [1.20000005, 1.39999998, 1.60000002, 1.79999995, 2.0], [2.20000005, 2.4000001, 2.5999999, 2.79999995, 3.0], [3.20000005, 3.4000001, 3.5999999, 3.79999995, 4.0], [4.19999981, 4.4000001, 4.5999999, 4.80000019, 5.0]]]]> : tensor<1x2x5x5xf32>
  %w = util.unfoldable_constant dense<[[[[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]], [[1.0, 2.0, 1.0], [0.0, 0.0, 0.0], [-1.0, -2.0, -1.0]]]]> : tensor<2x2x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  check.expect_almost_eq_const(%y, dense<[[[[-1.60000002, -1.60000002], [-1.60000002, -1.60000002]], [[-6.69999981, -6.30000019], [-4.69999981, -4.30000019]]]]> : tensor<1x2x2x2xf32>, atol 1.0e-5, rtol 1.0e-5) : tensor<1x2x2x2xf32>
  return
}

func.func private @pool_input() -> tensor<1x4x4x1xf32> {
  %p = util.unfoldable_constant dense<[[[[1.0], [5.0], [2.0], [0.0]], [[-3.0], [4.0], [8.0], [1.0]], [[0.0], [0.0], [-1.0], [-2.0]], [[7.0], [3.0], [6.0], [9.0]]]]> : tensor<1x4x4x1xf32>
  return %p : tensor<1x4x4x1xf32>
}

func.func @max_pool_2x2_stride2() {
  %x = call @pool_input() : () -> tensor<1x4x4x1xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x2x2x1xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k : tensor<1x4x4x1xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  check.expect_almost_eq_const(%y, dense<[[[[5.0], [8.0]], [[7.0], [9.0]]]]> : tensor<1x2x2x1xf32>) : tensor<1x2x2x1xf32>
  return
}

// Average pooling = sum pooling followed by a divide by the window size.
func.func @avg_pool_2x2_and_sum_pool_3x3() {
  %x = call @pool_input() : () -> tensor<1x4x4x1xf32>
  %zero = arith.constant 0.0 : f32
  %k2 = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %s2 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k2 : tensor<1x4x4x1xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %four = arith.constant dense<4.0> : tensor<1x2x2x1xf32>
  %avg = arith.divf %s2, %four : tensor<1x2x2x1xf32>
  check.expect_almost_eq_const(%avg, dense<[[[[1.75], [2.75]], [[2.5], [3.0]]]]> : tensor<1x2x2x1xf32>) : tensor<1x2x2x1xf32>
  %k3 = tensor.empty() : tensor<3x3xf32>
  %s3 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k3 : tensor<1x4x4x1xf32>, tensor<3x3xf32>) outs(%init : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  check.expect_almost_eq_const(%s3, dense<[[[[16.0], [17.0]], [[24.0], [28.0]]]]> : tensor<1x2x2x1xf32>) : tensor<1x2x2x1xf32>
  return
}
