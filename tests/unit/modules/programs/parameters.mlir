// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Weights outside the module: the program imports io_parameters to fetch them by scope and key.
util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<2x2xf32>
util.global private @b = #stream.parameter.named<"model"::"b"> : tensor<2xf32>
util.global private @g_padded = #stream.parameter.named<"model"::"padded"> : tensor<4xi32>
util.global private @g_splat = #stream.parameter.named<"splat"> : tensor<4xf32>
util.global private @g_splat64 = #stream.parameter.named<"splat64"> : tensor<3xi64>

func.func @main(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = util.global.load @w : tensor<2x2xf32>
  %b = util.global.load @b : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2xf32>) -> tensor<1x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%f : tensor<1x2xf32>) -> tensor<1x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<1x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}

// Each returns its parameter plus a zero input, so the values pass through a dispatch.
func.func @padded(%zero: tensor<4xi32>) -> tensor<4xi32> {
  %p = util.global.load @g_padded : tensor<4xi32>
  %r = arith.addi %p, %zero : tensor<4xi32>
  return %r : tensor<4xi32>
}
func.func @splat(%zero: tensor<4xf32>) -> tensor<4xf32> {
  %p = util.global.load @g_splat : tensor<4xf32>
  %r = arith.addf %p, %zero : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @splat64(%zero: tensor<3xi64>) -> tensor<3xi64> {
  %p = util.global.load @g_splat64 : tensor<3xi64>
  %r = arith.addi %p, %zero : tensor<3xi64>
  return %r : tensor<3xi64>
}
