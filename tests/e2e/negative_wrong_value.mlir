// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Negative control: this check must FAIL (1 + 1 != 3), so a runner that reports every case
// as passed is caught. Registered with WILL_FAIL.

func.func @one_plus_one_is_not_three() {
  %a = util.unfoldable_constant dense<1> : tensor<i32>
  %b = arith.addi %a, %a : tensor<i32>
  check.expect_eq_const(%b, dense<3> : tensor<i32>) : tensor<i32>
  return
}
