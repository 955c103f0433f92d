// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// stablehlo.gather / scatter / dynamic_slice / dynamic_update_slice with runtime indices.

func.func private @table() -> tensor<5x3xf32> {
  %t = util.unfoldable_constant dense<[[0.0, 0.1, 0.2], [1.0, 1.1, 1.2], [2.0, 2.1, 2.2], [3.0, 3.1, 3.2], [4.0, 4.1, 4.2]]> : tensor<5x3xf32>
  return %t : tensor<5x3xf32>
}

// Embedding-style row lookup, with a repeated index.
func.func @gather_rows() {
  %t = call @table() : () -> tensor<5x3xf32>
  %i = util.unfoldable_constant dense<[[4], [0], [2], [4]]> : tensor<4x1xi32>
  %g = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
                                    slice_sizes = array<i64: 1, 3>, indices_are_sorted = false}> : (tensor<5x3xf32>, tensor<4x1xi32>) -> tensor<4x3xf32>
  check.expect_almost_eq_const(%g, dense<[[4.0, 4.1, 4.2], [0.0, 0.1, 0.2], [2.0, 2.1, 2.2], [4.0, 4.1, 4.2]]> : tensor<4x3xf32>) : tensor<4x3xf32>
  return
}

// Point gather of single elements by (row, col) pairs.
func.func @gather_points() {
  %t = call @table() : () -> tensor<5x3xf32>
  %i = util.unfoldable_constant dense<[[1, 2], [3, 0], [0, 1]]> : tensor<3x2xi32>
  %g = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>,
                                    slice_sizes = array<i64: 1, 1>, indices_are_sorted = false}> : (tensor<5x3xf32>, tensor<3x2xi32>) -> tensor<3xf32>
  check.expect_almost_eq_const(%g, dense<[1.2, 3.0, 0.1]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// Scatter-add with a duplicate index: both updates must accumulate.
func.func @scatter_add() {
  %base = util.unfoldable_constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %i = util.unfoldable_constant dense<[[1], [3], [1]]> : tensor<3x1xi32>
  %u = util.unfoldable_constant dense<[10, 20, 30]> : tensor<3xi32>
  %r = "stablehlo.scatter"(%base, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
                                            indices_are_sorted = false, unique_indices = false}> ({
  ^bb0(%old: tensor<i32>, %new: tensor<i32>):
    %s = stablehlo.add %old, %new : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<5xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<5xi32>
  check.expect_eq_const(%r, dense<[1, 42, 3, 24, 5]> : tensor<5xi32>) : tensor<5xi32>
  return
}

// Scatter that overwrites whole rows of a matrix.
func.func @scatter_rows_replace() {
  %base = util.unfoldable_constant dense<0.0> : tensor<4x2xf32>
  %i = util.unfoldable_constant dense<[[3], [0]]> : tensor<2x1xi32>
  %u = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %r = "stablehlo.scatter"(%base, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
                                            indices_are_sorted = false, unique_indices = true}> ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    stablehlo.return %new : tensor<f32>
  }) : (tensor<4x2xf32>, tensor<2x1xi32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  check.expect_almost_eq_const(%r, dense<[[3.0, 4.0], [0.0, 0.0], [0.0, 0.0], [1.0, 2.0]]> : tensor<4x2xf32>) : tensor<4x2xf32>
  return
}

// dynamic_slice clamps its start so the slice stays in bounds (start 4 becomes 3 here).
func.func @dynamic_slice_and_update() {
  %t = call @table() : () -> tensor<5x3xf32>
  %r0 = util.unfoldable_constant dense<1> : tensor<i32>
  %r1 = util.unfoldable_constant dense<4> : tensor<i32>
  %c1 = util.unfoldable_constant dense<1> : tensor<i32>
  %s = stablehlo.dynamic_slice %t, %r0, %c1, sizes = [2, 2] : (tensor<5x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%s, dense<[[1.1, 1.2], [2.1, 2.2]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  %sc = stablehlo.dynamic_slice %t, %r1, %c1, sizes = [2, 2] : (tensor<5x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%sc, dense<[[3.1, 3.2], [4.1, 4.2]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  %p = util.unfoldable_constant dense<[[-1.0, -2.0]]> : tensor<1x2xf32>
  %u = stablehlo.dynamic_update_slice %t, %p, %r0, %c1 : (tensor<5x3xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<5x3xf32>
  check.expect_almost_eq_const(%u, dense<[[0.0, 0.1, 0.2], [1.0, -1.0, -2.0], [2.0, 2.1, 2.2], [3.0, 3.1, 3.2], [4.0, 4.1, 4.2]]> : tensor<5x3xf32>) : tensor<5x3xf32>
  return
}
