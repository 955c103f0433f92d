// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Scalar code through the full pipeline (func, arith, math, scf): loops and branches become
// blocks with remapped arguments, math ops become ext_f32 opcodes (f64 is demoted to f32 by
// default), and internal calls between functions carry i64 and f32 values.
func.func private @poly(%x: f32, %n: i64) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n_index = arith.index_cast %n : i64 to index
  %sum = scf.for %i = %c0 to %n_index step %c1 iter_args(%acc = %zero) -> (f32) {
    %i_i32 = arith.index_cast %i : index to i32
    %i_f32 = arith.sitofp %i_i32 : i32 to f32
    %t = arith.mulf %acc, %x : f32
    %u = arith.addf %t, %i_f32 : f32
    scf.yield %u : f32
  }
  return %sum : f32
}

func.func @float_math(%x: f32, %y: f32) -> (f32, f32, f32, i1) {
  %0 = math.exp %x : f32
  %1 = math.log %y : f32
  %2 = math.sqrt %0 : f32
  %3 = math.tanh %1 : f32
  %4 = math.powf %2, %3 : f32
  %5 = math.floor %4 : f32
  %6 = math.absf %5 : f32
  %7 = math.atan2 %6, %x : f32
  %8 = arith.maximumf %7, %y : f32
  %9 = arith.cmpf olt, %8, %x : f32
  %n = arith.constant 7 : i64
  %10 = func.call @poly(%8, %n) : (f32, i64) -> f32
  %11 = math.erf %10 : f32
  %12 = math.roundeven %11 : f32
  return %12, %6, %7, %9 : f32, f32, f32, i1
}

func.func @integer_math(%a: i32, %b: i64, %c: i8) -> (i64, i32, i16, i64) {
  %0 = arith.extsi %a : i32 to i64
  %1 = arith.muli %0, %b : i64
  %2 = arith.divsi %1, %b : i64
  %3 = arith.remui %a, %a : i32
  %4 = arith.shli %2, %0 : i64
  %5 = arith.shrsi %4, %0 : i64
  %6 = arith.xori %5, %b : i64
  %7 = arith.minsi %6, %1 : i64
  %8 = arith.extui %c : i8 to i32
  %9 = arith.addi %8, %3 : i32
  %10 = arith.trunci %9 : i32 to i16
  %11 = math.ctlz %b : i64
  %12 = arith.maxui %11, %7 : i64
  %cond = arith.cmpi ne, %3, %a : i32
  %13 = arith.select %cond, %12, %11 : i64
  return %13, %9, %10, %5 : i64, i32, i16, i64
}
