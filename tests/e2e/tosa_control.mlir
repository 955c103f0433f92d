// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TOSA control flow (cond_if / while_loop) on tensor predicates, plus multiple functions
// sharing an internal helper. Written in generic form: the regions take block arguments.

func.func @cond_if_both_branches() {
  %x = util.unfoldable_constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %t = util.unfoldable_constant dense<true> : tensor<i1>
  %f = util.unfoldable_constant dense<false> : tensor<i1>
  %r1 = call @double_or_negate(%t, %x) : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  %r2 = call @double_or_negate(%f, %x) : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  check.expect_almost_eq_const(%r1, dense<[2.0, -4.0, 6.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_almost_eq_const(%r2, dense<[-1.0, 2.0, -3.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func private @double_or_negate(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %r = "tosa.cond_if"(%c, %x) ({
  ^bb0(%a: tensor<3xf32>):
    %d = tosa.add %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "tosa.yield"(%d) : (tensor<3xf32>) -> ()
  }, {
  ^bb0(%a: tensor<3xf32>):
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %n = tosa.negate %a, %zp, %zp : (tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
    "tosa.yield"(%n) : (tensor<3xf32>) -> ()
  }) : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// Sum 1..n with a while loop: (i, acc) <- (i + 1, acc + i) while i <= n.
func.func @while_loop_sum() {
  %n = util.unfoldable_constant dense<10> : tensor<i32>
  %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %zero = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:3 = "tosa.while_loop"(%one, %zero, %n) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>, %lim: tensor<i32>):
    %c = tosa.greater_equal %lim, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tosa.yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>, %lim: tensor<i32>):
    %k = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %i1 = tosa.add %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %a1 = tosa.add %acc, %i : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tosa.yield"(%i1, %a1, %lim) : (tensor<i32>, tensor<i32>, tensor<i32>) -> ()
  }) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
  check.expect_eq_const(%r#1, dense<55> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%r#0, dense<11> : tensor<i32>) : tensor<i32>
  return
}
