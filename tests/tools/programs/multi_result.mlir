// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Several results of different kinds: two tensors and a scalar.
func.func @sum_diff(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, i32) {
  %sum = arith.addf %a, %b : tensor<3xf32>
  %diff = arith.subf %a, %b : tensor<3xf32>
  %c = arith.constant 42 : i32
  return %sum, %diff, %c : tensor<3xf32>, tensor<3xf32>, i32
}
