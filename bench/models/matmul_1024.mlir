// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A compute-bound program: one 1024x1024x1024 f32 matmul (2.1 GFLOP), inputs as arguments, so
// per-call time is dominated by codegen quality and (on local-task) the worker pool's scaling.
func.func @matmul_1024(%lhs: tensor<1024x1024xf32>, %rhs: tensor<1024x1024xf32>)
    -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                     outs(%acc : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
