// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Negative control: one passing case and one failing check.expect_true; the module must
// fail as a whole even though its first case passes. Registered with WILL_FAIL.

func.func @passes() {
  %a = util.unfoldable_constant 1 : i32
  check.expect_true(%a) : i32
  return
}

func.func @expect_true_of_zero() {
  %a = util.unfoldable_constant 0 : i32
  check.expect_true(%a) : i32
  return
}
