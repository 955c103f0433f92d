// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Dynamic shapes: static inputs are cast to dynamic and passed through a private function
// marked noinline, so the shapes travel at runtime as tensor.dim values.

func.func private @scale_and_sum(%x: tensor<?x?xf32>, %s: f32) -> (tensor<?x?xf32>, tensor<?xf32>)
    attributes {inlining_policy = #util.inline.never} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty(%d0) : tensor<?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.reduce ins(%scaled : tensor<?x?xf32>) outs(%init : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %scaled, %sum : tensor<?x?xf32>, tensor<?xf32>
}

func.func @dynamic_2x3() {
  %x = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %dx = tensor.cast %x : tensor<2x3xf32> to tensor<?x?xf32>
  %s = arith.constant 2.0 : f32
  %scaled, %sum = call @scale_and_sum(%dx, %s) : (tensor<?x?xf32>, f32) -> (tensor<?x?xf32>, tensor<?xf32>)
  %ss = tensor.cast %scaled : tensor<?x?xf32> to tensor<2x3xf32>
  %sm = tensor.cast %sum : tensor<?xf32> to tensor<2xf32>
  check.expect_almost_eq_const(%ss, dense<[[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_almost_eq_const(%sm, dense<[12.0, 30.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// The same function instance with a different shape, including an odd extent.
func.func @dynamic_5x1() {
  %x = util.unfoldable_constant dense<[[1.0], [-1.0], [0.5], [3.0], [7.0]]> : tensor<5x1xf32>
  %dx = tensor.cast %x : tensor<5x1xf32> to tensor<?x?xf32>
  %s = arith.constant -1.0 : f32
  %scaled, %sum = call @scale_and_sum(%dx, %s) : (tensor<?x?xf32>, f32) -> (tensor<?x?xf32>, tensor<?xf32>)
  %sm = tensor.cast %sum : tensor<?xf32> to tensor<5xf32>
  check.expect_almost_eq_const(%sm, dense<[-1.0, 1.0, -0.5, -3.0, -7.0]> : tensor<5xf32>) : tensor<5xf32>
  return
}

// A size computed at runtime from data: slice the first n elements where n comes from a tensor.
func.func @data_dependent_size() {
  %x = util.unfoldable_constant dense<[10, 20, 30, 40, 50, 60]> : tensor<6xi32>
  %n_t = util.unfoldable_constant dense<4> : tensor<i32>
  %n_i = tensor.extract %n_t[] : tensor<i32>
  %n = arith.index_cast %n_i : i32 to index
  %s = tensor.extract_slice %x[0] [%n] [1] : tensor<6xi32> to tensor<?xi32>
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %s, %c0 : tensor<?xi32>
  %dim_i = arith.index_cast %dim : index to i32
  %four = arith.constant 4 : i32
  %ok = arith.cmpi eq, %dim_i, %four : i32
  %ok32 = arith.extui %ok : i1 to i32
  check.expect_true(%ok32) : i32
  %e = tensor.empty(%n) : tensor<?xi32>
  %doubled = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%s : tensor<?xi32>) outs(%e : tensor<?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %d = arith.addi %a, %a : i32
    linalg.yield %d : i32
  } -> tensor<?xi32>
  %static = tensor.cast %doubled : tensor<?xi32> to tensor<4xi32>
  check.expect_eq_const(%static, dense<[20, 40, 60, 80]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// A dynamic matmul whose K and N only become known at runtime.
func.func @dynamic_matmul() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = util.unfoldable_constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %da = tensor.cast %a : tensor<2x3xf32> to tensor<?x?xf32>
  %db = tensor.cast %b : tensor<3x2xf32> to tensor<?x?xf32>
  %r = call @matmul_dyn(%da, %db) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %rs = tensor.cast %r : tensor<?x?xf32> to tensor<2x2xf32>
  check.expect_almost_eq_const(%rs, dense<[[4.0, 5.0], [10.0, 11.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

func.func private @matmul_dyn(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32>
    attributes {inlining_policy = #util.inline.never} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
