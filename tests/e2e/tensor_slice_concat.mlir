// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// tensor dialect data movement: slices (incl. strided), insert, concat, pad, reshape.

// Returns a freshly computed tensor, not the constant itself: iree-compile 3.13.0 lets
// tensor.insert/insert_slice update a util.unfoldable_constant's storage in place (seen as
// later functions reading modified data, or PERMISSION_DENIED on the read-only buffer).
func.func private @iota_4x6() -> tensor<4x6xi32> {
  %c = util.unfoldable_constant dense<[[0, 1, 2, 3, 4, 5], [10, 11, 12, 13, 14, 15], [20, 21, 22, 23, 24, 25], [30, 31, 32, 33, 34, 35]]> : tensor<4x6xi32>
  %zero = util.unfoldable_constant dense<0> : tensor<4x6xi32>
  %x = arith.addi %c, %zero : tensor<4x6xi32>
  return %x : tensor<4x6xi32>
}

func.func @extract_slice() {
  %x = call @iota_4x6() : () -> tensor<4x6xi32>
  %s = tensor.extract_slice %x[1, 2] [2, 3] [1, 1] : tensor<4x6xi32> to tensor<2x3xi32>
  check.expect_eq_const(%s, dense<[[12, 13, 14], [22, 23, 24]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

func.func @extract_strided_slice() {
  %x = call @iota_4x6() : () -> tensor<4x6xi32>
  %s = tensor.extract_slice %x[0, 1] [2, 3] [2, 2] : tensor<4x6xi32> to tensor<2x3xi32>
  check.expect_eq_const(%s, dense<[[1, 3, 5], [21, 23, 25]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  // Rank-reducing slice of one column.
  %c = tensor.extract_slice %x[0, 4] [4, 1] [1, 1] : tensor<4x6xi32> to tensor<4xi32>
  check.expect_eq_const(%c, dense<[4, 14, 24, 34]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @insert_slice() {
  %x = call @iota_4x6() : () -> tensor<4x6xi32>
  %p = util.unfoldable_constant dense<[[-1, -2], [-3, -4]]> : tensor<2x2xi32>
  %r = tensor.insert_slice %p into %x[2, 3] [2, 2] [1, 2] : tensor<2x2xi32> into tensor<4x6xi32>
  check.expect_eq_const(%r, dense<[[0, 1, 2, 3, 4, 5], [10, 11, 12, 13, 14, 15], [20, 21, 22, -1, 24, -2], [30, 31, 32, -3, 34, -4]]> : tensor<4x6xi32>) : tensor<4x6xi32>
  return
}

func.func @concat() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = util.unfoldable_constant dense<[[5.0], [6.0]]> : tensor<2x1xf32>
  %c = util.unfoldable_constant dense<[[7.0, 8.0, 9.0]]> : tensor<1x3xf32>
  %ab = tensor.concat dim(1) %a, %b : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %abc = tensor.concat dim(0) %ab, %c : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const(%abc, dense<[[1.0, 2.0, 5.0], [3.0, 4.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>) : tensor<3x3xf32>
  return
}

func.func @pad_with_value() {
  %a = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %v = arith.constant 9 : i8
  %p = tensor.pad %a low[1, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : i8
  } : tensor<2x2xi8> to tensor<3x4xi8>
  check.expect_eq_const(%p, dense<[[9, 9, 9, 9], [1, 2, 9, 9], [3, 4, 9, 9]]> : tensor<3x4xi8>) : tensor<3x4xi8>
  return
}

func.func @reshape() {
  %x = call @iota_4x6() : () -> tensor<4x6xi32>
  %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xi32> into tensor<4x2x3xi32>
  %s = tensor.extract_slice %e[1, 1, 0] [2, 1, 3] [1, 1, 1] : tensor<4x2x3xi32> to tensor<2x3xi32>
  check.expect_eq_const(%s, dense<[[13, 14, 15], [23, 24, 25]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x6xi32> into tensor<24xi32>
  %t = tensor.extract_slice %c[5] [3] [1] : tensor<24xi32> to tensor<3xi32>
  check.expect_eq_const(%t, dense<[5, 10, 11]> : tensor<3xi32>) : tensor<3xi32>
  return
}

// Element extract goes through a scalar read on the host side. (tensor.insert of a scalar is
// not tested: iree-compile 3.13.0 lowers it to a 28-byte stream fill instead of 4 bytes.)
func.func @extract_element() {
  %x = call @iota_4x6() : () -> tensor<4x6xi32>
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %v = tensor.extract %x[%c2, %c5] : tensor<4x6xi32>
  %c25 = arith.constant 25 : i32
  %ok = arith.cmpi eq, %v, %c25 : i32
  %ok32 = arith.extui %ok : i1 to i32
  check.expect_true(%ok32) : i32
  return
}
