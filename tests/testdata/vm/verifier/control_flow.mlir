// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Control flow through the full pipeline: nested scf loops and conditionals, a switch
// (cf.switch becomes br_table), while loops carrying several values of mixed widths, and
// a loop around an internal call that is kept out of line.
func.func @collatz(%start: i64) -> (i64, i32) {
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %result:2 = scf.while (%n = %start, %steps = %zero) : (i64, i32) -> (i64, i32) {
    %done = arith.cmpi ugt, %n, %c1 : i64
    scf.condition(%done) %n, %steps : i64, i32
  } do {
  ^bb0(%n: i64, %steps: i32):
    %rem = arith.remui %n, %c2 : i64
    %is_even = arith.cmpi eq, %rem, %c1 : i64
    %next = scf.if %is_even -> (i64) {
      %t = arith.muli %n, %c3 : i64
      %u = arith.addi %t, %c1 : i64
      scf.yield %u : i64
    } else {
      %h = arith.divui %n, %c2 : i64
      scf.yield %h : i64
    }
    %s = arith.addi %steps, %one : i32
    scf.yield %next, %s : i64, i32
  }
  return %result#0, %result#1 : i64, i32
}

func.func @switch(%flag: i32, %x: f32, %y: i64) -> (f32, i64) {
  cf.switch %flag : i32, [
    default: ^default(%x : f32),
    0: ^first(%y : i64),
    1: ^second,
    5: ^default(%x : f32)
  ]
^first(%a: i64):
  %a2 = arith.addi %a, %a : i64
  %af = arith.sitofp %a2 : i64 to f32
  cf.br ^exit(%af, %a2 : f32, i64)
^second:
  %c = arith.constant 2.5 : f32
  cf.br ^exit(%c, %y : f32, i64)
^default(%d: f32):
  %dd = arith.mulf %d, %d : f32
  cf.br ^exit(%dd, %y : f32, i64)
^exit(%r: f32, %s: i64):
  return %r, %s : f32, i64
}

func.func private @step(%a: i32, %b: i64) -> (i64, i32) attributes {inlining_policy = #util.inline.never} {
  %ae = arith.extsi %a : i32 to i64
  %s = arith.addi %ae, %b : i64
  %t = arith.trunci %s : i64 to i32
  return %s, %t : i64, i32
}

func.func @fib(%n: i32) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i32
  %count = arith.index_cast %n : i32 to index
  %r:2 = scf.for %i = %c0 to %count step %c1 iter_args(%a = %one, %b = %zero) -> (i32, i64) {
    %s:2 = func.call @step(%a, %b) : (i32, i64) -> (i64, i32)
    scf.yield %s#1, %s#0 : i32, i64
  }
  return %r#1 : i64
}

func.func @nested(%n: index, %m: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %outer = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %inner = scf.for %j = %c0 to %m step %c1 iter_args(%acc2 = %acc) -> (index) {
      %p = arith.muli %i, %j : index
      %q = arith.addi %acc2, %p : index
      scf.yield %q : index
    }
    scf.yield %inner : index
  }
  return %outer : index
}
