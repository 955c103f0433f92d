// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// 2-D programs: a matmul (2x3 * 3x2) and a transpose.
func.func @matmul(%lhs: tensor<2x3xf32>, %rhs: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<2x3xf32>, tensor<3x2xf32>)
                     outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
func.func @transpose(%x: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %empty = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.transpose ins(%x : tensor<3x2xf32>) outs(%empty : tensor<2x3xf32>) permutation = [1, 0]
  return %0 : tensor<2x3xf32>
}
