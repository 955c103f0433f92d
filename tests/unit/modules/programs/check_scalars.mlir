// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Scalar expectations through the real compiler's optional check.* imports (no HAL needed).
func.func @passes() {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  check.expect_true(%c1) : i32
  check.expect_false(%c0) : i32
  return
}
func.func @fails(%x: i32) {
  check.expect_true(%x) : i32
  check.expect_false(%x) : i32
  return
}
// The compiler truncates an i64 operand to i32 before the call.
func.func @wide(%x: i64) {
  check.expect_true(%x) : i64
  return
}
