// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Elementwise programs over integer, boolean and half-precision element types.
func.func @add_i32(%a: tensor<2x2xi32>, %b: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %0 = arith.addi %a, %b : tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}
func.func @mul_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = arith.muli %a, %b : tensor<4xi8>
  return %0 : tensor<4xi8>
}
func.func @add_f16(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = arith.addf %a, %b : tensor<4xf16>
  return %0 : tensor<4xf16>
}
func.func @and_i1(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %0 = arith.andi %a, %b : tensor<4xi1>
  return %0 : tensor<4xi1>
}
