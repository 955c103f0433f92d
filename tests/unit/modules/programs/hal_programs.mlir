// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Programs for the hal module's tests: each function reaches a different part of the hal ABI.

// Elementwise: buffer_view.assert/create, queue.alloca, dispatch, fence.await.
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Dynamic shapes: buffer_view.dim, and a result shaped at run time.
func.func @scale_dynamic(%a: tensor<?x?xf32>, %s: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Two results, one a splat the compiler materializes with a queue fill.
func.func @matmul_and_splat(%a: tensor<2x3xi32>, %b: tensor<3x2xi32>) -> (tensor<2x2xi32>, tensor<8xi32>) {
  %zero = arith.constant 0 : i32
  %init = tensor.empty() : tensor<2x2xi32>
  %fill = linalg.fill ins(%zero : i32) outs(%init : tensor<2x2xi32>) -> tensor<2x2xi32>
  %mm = linalg.matmul ins(%a, %b : tensor<2x3xi32>, tensor<3x2xi32>) outs(%fill : tensor<2x2xi32>) -> tensor<2x2xi32>
  %splat = arith.constant dense<7> : tensor<8xi32>
  return %mm, %splat : tensor<2x2xi32>, tensor<8xi32>
}

// State kept across calls in a global tensor.
util.global private mutable @total = dense<0.0> : tensor<4xf32>
func.func @accumulate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = util.global.load @total : tensor<4xf32>
  %n = arith.addf %t, %x : tensor<4xf32>
  util.global.store %n, @total : tensor<4xf32>
  return %n : tensor<4xf32>
}

// A tensor result that is an input passed straight through (no dispatch at all).
func.func @identity(%x: tensor<3xi8>) -> tensor<3xi8> {
  return %x : tensor<3xi8>
}
