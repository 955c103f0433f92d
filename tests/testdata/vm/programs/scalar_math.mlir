// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Scalar programs in func/arith/math/scf, compiled by the full pipeline (VM-only modules: no
// tensors, so no hal imports). The interpreter tests call each export with edge-case inputs and
// compare against C++ reference math.

// i32 arithmetic, one op per result.
func.func @i32_ops(%a: i32, %b: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32) {
  %add = arith.addi %a, %b : i32
  %sub = arith.subi %a, %b : i32
  %mul = arith.muli %a, %b : i32
  %and = arith.andi %a, %b : i32
  %or = arith.ori %a, %b : i32
  %xor = arith.xori %a, %b : i32
  %min = arith.minsi %a, %b : i32
  %maxu = arith.maxui %a, %b : i32
  return %add, %sub, %mul, %and, %or, %xor, %min, %maxu : i32, i32, i32, i32, i32, i32, i32, i32
}

func.func @divsi(%a: i32, %b: i32) -> i32 {
  %0 = arith.divsi %a, %b : i32
  return %0 : i32
}
func.func @remsi(%a: i32, %b: i32) -> i32 {
  %0 = arith.remsi %a, %b : i32
  return %0 : i32
}
func.func @divui(%a: i32, %b: i32) -> i32 {
  %0 = arith.divui %a, %b : i32
  return %0 : i32
}
func.func @remui(%a: i32, %b: i32) -> i32 {
  %0 = arith.remui %a, %b : i32
  return %0 : i32
}
func.func @divsi64(%a: i64, %b: i64) -> i64 {
  %0 = arith.divsi %a, %b : i64
  return %0 : i64
}
func.func @remsi64(%a: i64, %b: i64) -> i64 {
  %0 = arith.remsi %a, %b : i64
  return %0 : i64
}

func.func @shifts(%a: i32, %b: i32) -> (i32, i32, i32) {
  %shl = arith.shli %a, %b : i32
  %shrs = arith.shrsi %a, %b : i32
  %shru = arith.shrui %a, %b : i32
  return %shl, %shrs, %shru : i32, i32, i32
}
func.func @shifts64(%a: i64, %b: i64) -> (i64, i64, i64) {
  %shl = arith.shli %a, %b : i64
  %shrs = arith.shrsi %a, %b : i64
  %shru = arith.shrui %a, %b : i64
  return %shl, %shrs, %shru : i64, i64, i64
}

func.func @bits(%a: i32, %b: i64) -> (i32, i64, i32, i64) {
  %clz = math.ctlz %a : i32
  %clz64 = math.ctlz %b : i64
  %abs = math.absi %a : i32
  %abs64 = math.absi %b : i64
  return %clz, %clz64, %abs, %abs64 : i32, i64, i32, i64
}

// Mixed widths: i64 arguments and results must travel as whole even-aligned register pairs.
func.func @mixed(%a: i32, %b: i64, %c: f32, %d: i64) -> (i64, f32, i32, i64) {
  %0 = arith.extsi %a : i32 to i64
  %1 = arith.addi %0, %b : i64
  %2 = arith.sitofp %a : i32 to f32
  %3 = arith.mulf %2, %c : f32
  %4 = arith.trunci %d : i64 to i32
  %5 = arith.muli %b, %d : i64
  return %1, %3, %4, %5 : i64, f32, i32, i64
}

func.func @i64_ops(%a: i64, %b: i64) -> (i64, i64, i64, i32, i32, i64, i64) {
  %add = arith.addi %a, %b : i64
  %sub = arith.subi %a, %b : i64
  %mul = arith.muli %a, %b : i64
  %lt = arith.cmpi slt, %a, %b : i64
  %ult = arith.cmpi ult, %a, %b : i64
  %lti = arith.extui %lt : i1 to i32
  %ulti = arith.extui %ult : i1 to i32
  %min = arith.minui %a, %b : i64
  %max = arith.maxsi %a, %b : i64
  return %add, %sub, %mul, %lti, %ulti, %min, %max : i64, i64, i64, i32, i32, i64, i64
}

func.func @fptosi(%a: f32) -> i32 {
  %0 = arith.fptosi %a : f32 to i32
  return %0 : i32
}
func.func @fptoui(%a: f32) -> i32 {
  %0 = arith.fptoui %a : f32 to i32
  return %0 : i32
}
func.func @fptosi64(%a: f32) -> i64 {
  %0 = arith.fptosi %a : f32 to i64
  return %0 : i64
}
func.func @sitofp(%a: i32, %b: i64) -> (f32, f32) {
  %0 = arith.sitofp %a : i32 to f32
  %1 = arith.uitofp %b : i64 to f32
  return %0, %1 : f32, f32
}
func.func @remf(%a: f32, %b: f32) -> f32 {
  %0 = arith.remf %a, %b : f32
  return %0 : f32
}
func.func @minmaxf(%a: f32, %b: f32) -> (f32, f32) {
  %0 = arith.minimumf %a, %b : f32
  %1 = arith.maximumf %a, %b : f32
  return %0, %1 : f32, f32
}
// Ordered and unordered predicates, 1/0 each.
func.func @cmpf(%a: f32, %b: f32) -> (i32, i32, i32, i32, i32, i32) {
  %oeq = arith.cmpf oeq, %a, %b : f32
  %une = arith.cmpf une, %a, %b : f32
  %olt = arith.cmpf olt, %a, %b : f32
  %ult = arith.cmpf ult, %a, %b : f32
  %oge = arith.cmpf oge, %a, %b : f32
  %uno = arith.cmpf uno, %a, %b : f32
  %0 = arith.extui %oeq : i1 to i32
  %1 = arith.extui %une : i1 to i32
  %2 = arith.extui %olt : i1 to i32
  %3 = arith.extui %ult : i1 to i32
  %4 = arith.extui %oge : i1 to i32
  %5 = arith.extui %uno : i1 to i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}
func.func @f32_math(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.log %y : f32
  %2 = math.sin %x : f32
  %3 = math.sqrt %y : f32
  %4 = math.powf %y, %x : f32
  %5 = math.tanh %x : f32
  %6 = math.atan2 %x, %y : f32
  %7 = math.fma %x, %y, %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f32, f32, f32, f32, f32, f32
}
func.func @rounding(%x: f32) -> (f32, f32, f32, f32) {
  %0 = math.round %x : f32
  %1 = math.roundeven %x : f32
  %2 = math.floor %x : f32
  %3 = math.ceil %x : f32
  return %0, %1, %2, %3 : f32, f32, f32, f32
}

// The loop the interpreter benchmark runs: sum of 0..n-1 (5 instructions per iteration).
func.func @loop_sum(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %cond = arith.cmpi slt, %i, %n : i32
    scf.condition(%cond) %i, %acc : i32, i32
  } do {
  ^bb0(%i: i32, %acc: i32):
    %a = arith.addi %acc, %i : i32
    %i2 = arith.addi %i, %c1 : i32
    scf.yield %i2, %a : i32, i32
  }
  return %r#1 : i32
}

// Collatz steps with i64 state: data-dependent branches and 64-bit block arguments.
func.func @collatz(%n: i64) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %one = arith.constant 1 : i32
  %r:2 = scf.while (%x = %n, %steps = %c0) : (i64, i32) -> (i64, i32) {
    %more = arith.cmpi ne, %x, %c1 : i64
    scf.condition(%more) %x, %steps : i64, i32
  } do {
  ^bb0(%x: i64, %steps: i32):
    %rem = arith.remui %x, %c2 : i64
    %odd = arith.cmpi ne, %rem, %c1 : i64
    %next = scf.if %odd -> i64 {
      %h = arith.divui %x, %c2 : i64
      scf.yield %h : i64
    } else {
      %t = arith.muli %x, %c3 : i64
      %t1 = arith.addi %t, %c1 : i64
      scf.yield %t1 : i64
    }
    %s = arith.addi %steps, %one : i32
    scf.yield %next, %s : i64, i32
  }
  return %r#1 : i32
}
