// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Calls the check module on scalars: expect_true passes for 1 and fails for 0.
func.func @passes() {
  %c1 = arith.constant 1 : i32
  check.expect_true(%c1) : i32
  return
}
func.func @fails(%x: i32) {
  check.expect_true(%x) : i32
  check.expect_false(%x) : i32
  return
}
