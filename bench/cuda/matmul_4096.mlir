// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A compute-bound program for the cuda driver: one 4096x4096x4096 f32 matmul (137 GFLOP),
// inputs as arguments. docs/facts_corrections.md has IREE 3.13.0's own runtime at 35.3 ms per
// call for this shape (sm_80 PTX on an H200).
func.func @matmul_4096(%lhs: tensor<4096x4096xf32>, %rhs: tensor<4096x4096xf32>)
    -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<4096x4096xf32>, tensor<4096x4096xf32>)
                     outs(%acc : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
