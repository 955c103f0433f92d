// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Scalar functions compiled from func/arith: no HAL imports, only VM bytecode.
func.func @add(%a: i32, %b: i64, %c: f32) -> (i64, f32) {
  %0 = arith.extsi %a : i32 to i64
  %1 = arith.addi %0, %b : i64
  %2 = arith.mulf %c, %c : f32
  return %1, %2 : i64, f32
}
