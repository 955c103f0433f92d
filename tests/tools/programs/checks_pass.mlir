// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree-rt-check cases that all pass, one of them with stateful globals.
util.global private mutable @counter = 0 : i32
func.func @counter_starts_at_zero() {
  %0 = util.global.load @counter : i32
  %c0 = arith.constant 0 : i32
  %eq = arith.cmpi eq, %0, %c0 : i32
  %b = arith.extui %eq : i1 to i32
  check.expect_true(%b) : i32
  %c1 = arith.constant 1 : i32
  %1 = arith.addi %0, %c1 : i32
  util.global.store %1, @counter : i32
  return
}
func.func @counter_still_zero() {
  %0 = util.global.load @counter : i32
  %c0 = arith.constant 0 : i32
  %eq = arith.cmpi eq, %0, %c0 : i32
  %b = arith.extui %eq : i1 to i32
  check.expect_true(%b) : i32
  %c1 = arith.constant 1 : i32
  %1 = arith.addi %0, %c1 : i32
  util.global.store %1, @counter : i32
  return
}
func.func @matmul_ok() {
  %lhs = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %rhs = util.unfoldable_constant dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<2x2xf32>, tensor<2x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}
