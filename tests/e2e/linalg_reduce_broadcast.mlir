// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Broadcasts, reductions over each axis and transposes written as linalg ops.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

func.func @broadcast_add() {
  %m = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %v = util.unfoldable_constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %empty = tensor.empty() : tensor<2x3xf32>
  %bv = linalg.broadcast ins(%v : tensor<3xf32>) outs(%empty : tensor<2x3xf32>) dimensions = [0]
  %sum = arith.addf %m, %bv : tensor<2x3xf32>
  check.expect_almost_eq_const(%sum, dense<[[11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  // The same broadcast as a linalg.generic reading the vector with a projected map.
  %g = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m, %v : tensor<2x3xf32>, tensor<3xf32>) outs(%empty : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<2x3xf32>
  check.expect_almost_eq_const(%g, dense<[[10.0, 40.0, 90.0], [40.0, 100.0, 180.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

func.func @reduce_sum_axes() {
  %m = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2xf32>
  %e3 = tensor.empty() : tensor<3xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2xf32>) -> tensor<2xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %rows = linalg.reduce ins(%m : tensor<2x3xf32>) outs(%i2 : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %cols = linalg.reduce ins(%m : tensor<2x3xf32>) outs(%i3 : tensor<3xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  check.expect_almost_eq_const(%rows, dense<[6.0, 15.0]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_almost_eq_const(%cols, dense<[5.0, 7.0, 9.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @reduce_max_generic() {
  %m = util.unfoldable_constant dense<[[3, -7, 12, 0], [-1, -2, -3, -4], [5, 5, 9, 1]]> : tensor<3x4xi32>
  %min = arith.constant -2147483648 : i32
  %e = tensor.empty() : tensor<3xi32>
  %init = linalg.fill ins(%min : i32) outs(%e : tensor<3xi32>) -> tensor<3xi32>
  %max = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<3x4xi32>) outs(%init : tensor<3xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %r = arith.maxsi %a, %acc : i32
    linalg.yield %r : i32
  } -> tensor<3xi32>
  check.expect_eq_const(%max, dense<[12, -1, 9]> : tensor<3xi32>) : tensor<3xi32>
  return
}

// A 3-D reduction over the middle axis with a larger, non-power-of-two extent.
func.func @reduce_3d_middle() {
  %m = util.unfoldable_constant dense<1.5> : tensor<2x37x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = linalg.reduce ins(%m : tensor<2x37x3xf32>) outs(%init : tensor<2x3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  check.expect_almost_eq_const(%r, dense<55.5> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

func.func @transpose() {
  %m = util.unfoldable_constant dense<[[[1, 2, 3], [4, 5, 6]]]> : tensor<1x2x3xi32>
  %e = tensor.empty() : tensor<3x1x2xi32>
  %t = linalg.transpose ins(%m : tensor<1x2x3xi32>) outs(%e : tensor<3x1x2xi32>) permutation = [2, 0, 1]
  check.expect_eq_const(%t, dense<[[[1, 4]], [[2, 5]], [[3, 6]]]> : tensor<3x1x2xi32>) : tensor<3x1x2xi32>
  return
}

// A generic using linalg.index to build an iota-like pattern.
func.func @index_generic() {
  %e = tensor.empty() : tensor<3x4xi32>
  %r = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<3x4xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c10 = arith.constant 10 : index
    %t = arith.muli %i, %c10 : index
    %v = arith.addi %t, %j : index
    %vi = arith.index_cast %v : index to i32
    linalg.yield %vi : i32
  } -> tensor<3x4xi32>
  check.expect_eq_const(%r, dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}
