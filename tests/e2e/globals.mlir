// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Mutable module state: util.global tensors and scalars updated across calls.
// Cases run in order in one context, so the counter test relies only on its own calls.

util.global private mutable @accum = dense<0.0> : tensor<4xf32>
util.global private mutable @counter = 0 : i32
util.global private @table = dense<[1, 10, 100, 1000]> : tensor<4xi32>

func.func private @bump(%d: tensor<4xf32>) -> tensor<4xf32> attributes {inlining_policy = #util.inline.never} {
  %a = util.global.load @accum : tensor<4xf32>
  %n = arith.addf %a, %d : tensor<4xf32>
  util.global.store %n, @accum : tensor<4xf32>
  return %n : tensor<4xf32>
}

func.func @tensor_global_accumulates() {
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  util.global.store %zero, @accum : tensor<4xf32>
  %d = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r1 = call @bump(%d) : (tensor<4xf32>) -> tensor<4xf32>
  %r2 = call @bump(%d) : (tensor<4xf32>) -> tensor<4xf32>
  %r3 = call @bump(%r2) : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%r1, dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%r3, dense<[4.0, 8.0, 12.0, 16.0]> : tensor<4xf32>) : tensor<4xf32>
  %final = util.global.load @accum : tensor<4xf32>
  check.expect_almost_eq_const(%final, dense<[4.0, 8.0, 12.0, 16.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func private @next() -> i32 attributes {inlining_policy = #util.inline.never} {
  %c = util.global.load @counter : i32
  %one = arith.constant 1 : i32
  %n = arith.addi %c, %one : i32
  util.global.store %n, @counter : i32
  return %n : i32
}

func.func @scalar_counter() {
  %zero = arith.constant 0 : i32
  util.global.store %zero, @counter : i32
  %a = call @next() : () -> i32
  %b = call @next() : () -> i32
  %c = call @next() : () -> i32
  %three = arith.constant 3 : i32
  %ok = arith.cmpi eq, %c, %three : i32
  %ok32 = arith.extui %ok : i1 to i32
  check.expect_true(%ok32) : i32
  return
}

// A counter held in a tensor global, bumped in a cf loop. Not scf.for: with a global
// load/store in an scf.for body, iree-compile 3.13.0 moves the reset store past the loop
// and forwards it to the final load, so the result is 0.
util.global private mutable @steps = dense<0> : tensor<i32>

func.func @tensor_counter_in_loop() {
  %zero = arith.constant dense<0> : tensor<i32>
  util.global.store %zero, @steps : tensor<i32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %one = arith.constant dense<1> : tensor<i32>
  cf.br ^loop(%c0 : index)
^loop(%i: index):
  %s = util.global.load @steps : tensor<i32>
  %n = arith.addi %s, %one : tensor<i32>
  util.global.store %n, @steps : tensor<i32>
  %next = arith.addi %i, %c1 : index
  %more = arith.cmpi slt, %next, %c7 : index
  cf.cond_br %more, ^loop(%next : index), ^exit
^exit:
  %final = util.global.load @steps : tensor<i32>
  check.expect_eq_const(%final, dense<7> : tensor<i32>) : tensor<i32>
  return
}

func.func @immutable_global_read() {
  %t = util.global.load @table : tensor<4xi32>
  %x = util.unfoldable_constant dense<[2, 3, 4, 5]> : tensor<4xi32>
  %r = arith.muli %t, %x : tensor<4xi32>
  check.expect_eq_const(%r, dense<[2, 30, 400, 5000]> : tensor<4xi32>) : tensor<4xi32>
  return
}
