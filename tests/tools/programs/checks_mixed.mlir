// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree-rt-check cases: two pass, one fails an expectation.
func.func @passes_eq() {
  %a = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = arith.addi %a, %a : tensor<3xi32>
  check.expect_eq_const(%b, dense<[2, 4, 6]> : tensor<3xi32>) : tensor<3xi32>
  return
}
func.func @fails_eq() {
  %a = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.addf %a, %a : tensor<2xf32>
  check.expect_almost_eq_const(%b, dense<[2.0, 5.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
func.func @passes_true() {
  %c = util.unfoldable_constant 1 : i32
  check.expect_true(%c) : i32
  return
}
