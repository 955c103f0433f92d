// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Scalars and tensors mixed in arguments and results.
func.func @scale(%x: tensor<4xf32>, %s: f32, %n: i32) -> (tensor<4xf32>, i32) {
  %empty = tensor.empty() : tensor<4xf32>
  %splat = linalg.fill ins(%s : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
  %0 = arith.mulf %x, %splat : tensor<4xf32>
  %c1 = arith.constant 1 : i32
  %1 = arith.addi %n, %c1 : i32
  return %0, %1 : tensor<4xf32>, i32
}
