// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// StableHLO control flow on tensor predicates: while, if, case.

// Collatz-like iteration on a tensor counter: 27 takes 111 steps to reach 1.
func.func @while_loop() {
  %x0 = util.unfoldable_constant dense<27> : tensor<i32>
  %n0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%x = %x0, %n = %n0) : tensor<i32>, tensor<i32>
    cond {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %c = stablehlo.compare NE, %x, %one, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %two = stablehlo.constant dense<2> : tensor<i32>
      %three = stablehlo.constant dense<3> : tensor<i32>
      %rem = stablehlo.remainder %x, %two : tensor<i32>
      %odd = stablehlo.compare EQ, %rem, %one, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %half = stablehlo.divide %x, %two : tensor<i32>
      %t = stablehlo.multiply %x, %three : tensor<i32>
      %t1 = stablehlo.add %t, %one : tensor<i32>
      %next = stablehlo.select %odd, %t1, %half : tensor<i1>, tensor<i32>
      %n1 = stablehlo.add %n, %one : tensor<i32>
      stablehlo.return %next, %n1 : tensor<i32>, tensor<i32>
    }
  check.expect_eq_const(%r#0, dense<1> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%r#1, dense<111> : tensor<i32>) : tensor<i32>
  return
}

// A while loop carrying a vector: repeated x <- x*x/2 + 1 on two lanes, 3 times.
func.func @while_vector_state() {
  %x0 = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%x = %x0, %i = %i0) : tensor<2xf32>, tensor<i32>
    cond {
      %three = stablehlo.constant dense<3> : tensor<i32>
      %c = stablehlo.compare LT, %i, %three, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %half = stablehlo.constant dense<0.5> : tensor<2xf32>
      %one = stablehlo.constant dense<1.0> : tensor<2xf32>
      %sq = stablehlo.multiply %x, %x : tensor<2xf32>
      %h = stablehlo.multiply %sq, %half : tensor<2xf32>
      %n = stablehlo.add %h, %one : tensor<2xf32>
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %n, %i1 : tensor<2xf32>, tensor<i32>
    }
  // lane 0: 1 -> 1.5 -> 2.125 -> 3.2578125; lane 1: 2 -> 3 -> 5.5 -> 16.125
  check.expect_almost_eq_const(%r#0, dense<[3.2578125, 16.125]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @if_on_reduced_value() {
  %x = util.unfoldable_constant dense<[3.0, -5.0, 1.0]> : tensor<3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
  %neg = stablehlo.compare LT, %sum, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %r = "stablehlo.if"(%neg) ({
    %n = stablehlo.negate %x : tensor<3xf32>
    stablehlo.return %n : tensor<3xf32>
  }, {
    stablehlo.return %x : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[-3.0, 5.0, -1.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @case_three_way() {
  %idx = util.unfoldable_constant dense<2> : tensor<i32>
  %x = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %r = "stablehlo.case"(%idx) ({
    stablehlo.return %x : tensor<3xi32>
  }, {
    %a = stablehlo.add %x, %x : tensor<3xi32>
    stablehlo.return %a : tensor<3xi32>
  }, {
    %m = stablehlo.multiply %x, %x : tensor<3xi32>
    stablehlo.return %m : tensor<3xi32>
  }) : (tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const(%r, dense<[1, 4, 9]> : tensor<3xi32>) : tensor<3xi32>
  return
}
