// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Host-side control flow steered by values read back from tensors.

func.func private @read_i32(%t: tensor<i32>) -> i32 {
  %v = tensor.extract %t[] : tensor<i32>
  return %v : i32
}

func.func @scf_if_on_tensor_value() {
  %flag = util.unfoldable_constant dense<1> : tensor<i32>
  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %v = call @read_i32(%flag) : (tensor<i32>) -> i32
  %c0 = arith.constant 0 : i32
  %cond = arith.cmpi ne, %v, %c0 : i32
  %r = scf.if %cond -> tensor<3xf32> {
    %d = arith.addf %x, %x : tensor<3xf32>
    scf.yield %d : tensor<3xf32>
  } else {
    %d = arith.mulf %x, %x : tensor<3xf32>
    scf.yield %d : tensor<3xf32>
  }
  check.expect_almost_eq_const(%r, dense<[2.0, 4.0, 6.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @scf_if_else_branch() {
  %flag = util.unfoldable_constant dense<0> : tensor<i32>
  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %v = call @read_i32(%flag) : (tensor<i32>) -> i32
  %c0 = arith.constant 0 : i32
  %cond = arith.cmpi ne, %v, %c0 : i32
  %r = scf.if %cond -> tensor<3xf32> {
    %d = arith.addf %x, %x : tensor<3xf32>
    scf.yield %d : tensor<3xf32>
  } else {
    %d = arith.mulf %x, %x : tensor<3xf32>
    scf.yield %d : tensor<3xf32>
  }
  check.expect_almost_eq_const(%r, dense<[1.0, 4.0, 9.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// A loop whose trip count comes from a tensor, carrying a tensor: x <- 2x + 1, 5 times.
func.func @scf_for_loop_carried_tensor() {
  %n_t = util.unfoldable_constant dense<5> : tensor<i32>
  %x0 = util.unfoldable_constant dense<[0, 1, -1]> : tensor<3xi32>
  %n_i = call @read_i32(%n_t) : (tensor<i32>) -> i32
  %n = arith.index_cast %n_i : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant dense<1> : tensor<3xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %x0) -> tensor<3xi32> {
    %d = arith.addi %x, %x : tensor<3xi32>
    %e = arith.addi %d, %one : tensor<3xi32>
    scf.yield %e : tensor<3xi32>
  }
  check.expect_eq_const(%r, dense<[31, 63, -1]> : tensor<3xi32>) : tensor<3xi32>
  return
}

// A while loop: keep halving until the sum drops below a threshold that the data decides.
func.func @scf_while_data_dependent() {
  %x0 = util.unfoldable_constant dense<[64.0, 32.0]> : tensor<2xf32>
  %half = arith.constant dense<0.5> : tensor<2xf32>
  %limit = arith.constant 10.0 : f32
  %zero = arith.constant 0 : i32
  %r:2 = scf.while (%x = %x0, %n = %zero) : (tensor<2xf32>, i32) -> (tensor<2xf32>, i32) {
    %e = tensor.empty() : tensor<f32>
    %z = arith.constant 0.0 : f32
    %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %s = linalg.reduce ins(%x : tensor<2xf32>) outs(%init : tensor<f32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %a = arith.addf %in, %acc : f32
        linalg.yield %a : f32
      }
    %sv = tensor.extract %s[] : tensor<f32>
    %c = arith.cmpf oge, %sv, %limit : f32
    scf.condition(%c) %x, %n : tensor<2xf32>, i32
  } do {
  ^bb0(%x: tensor<2xf32>, %n: i32):
    %h = arith.mulf %x, %half : tensor<2xf32>
    %one = arith.constant 1 : i32
    %n1 = arith.addi %n, %one : i32
    scf.yield %h, %n1 : tensor<2xf32>, i32
  }
  // 96 -> 48 -> 24 -> 12 -> 6: four halvings.
  check.expect_almost_eq_const(%r#0, dense<[4.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
  %four = arith.constant 4 : i32
  %ok = arith.cmpi eq, %r#1, %four : i32
  %ok32 = arith.extui %ok : i1 to i32
  check.expect_true(%ok32) : i32
  return
}

// Unstructured control flow: cf.cond_br on a value read from a tensor, with block arguments.
func.func @cf_branches() {
  %t = util.unfoldable_constant dense<[3, -2]> : tensor<2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %t[%c0] : tensor<2xi32>
  %b = tensor.extract %t[%c1] : tensor<2xi32>
  %x = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %gt = arith.cmpi sgt, %a, %b : i32
  cf.cond_br %gt, ^bigger(%x : tensor<2xi32>), ^smaller(%x : tensor<2xi32>)
^bigger(%p: tensor<2xi32>):
  %p2 = arith.muli %p, %t : tensor<2xi32>
  cf.br ^done(%p2 : tensor<2xi32>)
^smaller(%q: tensor<2xi32>):
  cf.br ^done(%q : tensor<2xi32>)
^done(%r: tensor<2xi32>):
  check.expect_eq_const(%r, dense<[3, -4]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// Recursion-free call chain across several internal functions.
func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> attributes {inlining_policy = #util.inline.never} {
  %r = arith.addf %x, %x : tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @internal_calls() {
  %x = util.unfoldable_constant dense<[1.0, -1.0, 0.5, 3.0]> : tensor<4xf32>
  %a = call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @twice(%a) : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%b, dense<[4.0, -4.0, 2.0, 12.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}
