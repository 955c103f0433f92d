// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// f64 programs, compiled with --iree-input-demote-f64-to-f32=false so f64 reaches the VM.
func.func @f64_ops(%a: f64, %b: f64) -> (f64, f64, f64, f64, f64, f64) {
  %add = arith.addf %a, %b : f64
  %mul = arith.mulf %a, %b : f64
  %div = arith.divf %a, %b : f64
  %rem = arith.remf %a, %b : f64
  %min = arith.minimumf %a, %b : f64
  %max = arith.maximumf %a, %b : f64
  return %add, %mul, %div, %rem, %min, %max : f64, f64, f64, f64, f64, f64
}
func.func @f64_math(%x: f64) -> (f64, f64, f64, f64) {
  %0 = math.exp %x : f64
  %1 = math.sqrt %x : f64
  %2 = math.round %x : f64
  %3 = math.roundeven %x : f64
  return %0, %1, %2, %3 : f64, f64, f64, f64
}
func.func @f64_mixed(%a: i32, %b: f64, %c: i64, %d: f32) -> (f64, i64, i32, f64, f32) {
  %1 = arith.addf %b, %b : f64
  %2 = arith.addi %c, %c : i64
  %3 = arith.addi %a, %a : i32
  %4 = arith.mulf %d, %d : f32
  return %1, %2, %3, %b, %4 : f64, i64, i32, f64, f32
}
func.func @cmpf64(%a: f64, %b: f64) -> (i32, i32) {
  %olt = arith.cmpf olt, %a, %b : f64
  %ule = arith.cmpf ule, %a, %b : f64
  %0 = arith.extui %olt : i1 to i32
  %1 = arith.extui %ule : i1 to i32
  return %0, %1 : i32, i32
}
