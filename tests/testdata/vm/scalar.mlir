// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Scalar entry points through the full pipeline: i32/i64/f32 calling conventions, reflection
// attrs and the EXT_F32 requirement. (f64 would be demoted to f32 by default.)
func.func @add(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}
func.func @mix(%a: i32, %b: i64, %c: f32) -> (i64, f32) {
  %0 = arith.extsi %a : i32 to i64
  %1 = arith.addi %0, %b : i64
  %2 = arith.mulf %c, %c : f32
  return %1, %2 : i64, f32
}
