// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Two chained 384x384 matmuls (2 dispatches of one export): enough work (milliseconds) that
// local-task runs the submission on its workers, for the trace test of that path.
func.func @matmuls(%lhs: tensor<384x384xf32>, %rhs: tensor<384x384xf32>) -> tensor<384x384xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<384x384xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<384x384xf32>) -> tensor<384x384xf32>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<384x384xf32>, tensor<384x384xf32>)
                     outs(%init : tensor<384x384xf32>) -> tensor<384x384xf32>
  %1 = linalg.matmul ins(%0, %rhs : tensor<384x384xf32>, tensor<384x384xf32>)
                     outs(%init : tensor<384x384xf32>) -> tensor<384x384xf32>
  return %1 : tensor<384x384xf32>
}
