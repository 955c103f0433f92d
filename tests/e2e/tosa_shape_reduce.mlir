// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TOSA data movement and reductions. Shape-like arguments (reshape, slice, tile, pad) are
// !tosa.shape operands from tosa.const_shape in TOSA 1.0. Ops with attributes use the generic
// form: 3.13.0's custom assembly rejects the `{attr = ...}` dictionary.

func.func private @m2x3() -> tensor<2x3xi32> {
  %x = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  return %x : tensor<2x3xi32>
}

func.func @transpose_reshape() {
  %x = call @m2x3() : () -> tensor<2x3xi32>
  %t = "tosa.transpose"(%x) <{perms = array<i32: 1, 0>}> : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const(%t, dense<[[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  %s = "tosa.const_shape"() <{values = dense<[6, 1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %r = tosa.reshape %t, %s : (tensor<3x2xi32>, !tosa.shape<2>) -> tensor<6x1xi32>
  check.expect_eq_const(%r, dense<[[1], [4], [2], [5], [3], [6]]> : tensor<6x1xi32>) : tensor<6x1xi32>
  return
}

func.func @concat_slice() {
  %x = call @m2x3() : () -> tensor<2x3xi32>
  %c = "tosa.concat"(%x, %x) <{axis = 1 : i32}> : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x6xi32>
  %start = "tosa.const_shape"() <{values = dense<[1, 2]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %size = "tosa.const_shape"() <{values = dense<[1, 3]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %s = tosa.slice %c, %start, %size : (tensor<2x6xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x3xi32>
  check.expect_eq_const(%s, dense<[[6, 4, 5]]> : tensor<1x3xi32>) : tensor<1x3xi32>
  %c0 = "tosa.concat"(%x, %x) <{axis = 0 : i32}> : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
  check.expect_eq_const(%c0, dense<[[1, 2, 3], [4, 5, 6], [1, 2, 3], [4, 5, 6]]> : tensor<4x3xi32>) : tensor<4x3xi32>
  return
}

func.func @tile_pad() {
  %x = call @m2x3() : () -> tensor<2x3xi32>
  %m = "tosa.const_shape"() <{values = dense<[2, 1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %t = tosa.tile %x, %m : (tensor<2x3xi32>, !tosa.shape<2>) -> tensor<4x3xi32>
  check.expect_eq_const(%t, dense<[[1, 2, 3], [4, 5, 6], [1, 2, 3], [4, 5, 6]]> : tensor<4x3xi32>) : tensor<4x3xi32>
  %p = "tosa.const_shape"() <{values = dense<[0, 1, 2, 0]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %v = "tosa.const"() <{values = dense<-1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %padded = tosa.pad %x, %p, %v : (tensor<2x3xi32>, !tosa.shape<4>, tensor<1xi32>) -> tensor<3x5xi32>
  check.expect_eq_const(%padded, dense<[[-1, -1, 1, 2, 3], [-1, -1, 4, 5, 6], [-1, -1, -1, -1, -1]]> : tensor<3x5xi32>) : tensor<3x5xi32>
  return
}

func.func @reductions() {
  %x = util.unfoldable_constant dense<[[1.0, -2.0, 3.5], [4.0, 0.5, -6.0]]> : tensor<2x3xf32>
  %s0 = "tosa.reduce_sum"(%x) <{axis = 0 : i32}> : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %s1 = "tosa.reduce_sum"(%x) <{axis = 1 : i32}> : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %mx = "tosa.reduce_max"(%x) <{axis = 1 : i32}> : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %mn = "tosa.reduce_min"(%x) <{axis = 0 : i32}> : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %pr = "tosa.reduce_product"(%x) <{axis = 1 : i32}> : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %am = "tosa.argmax"(%x) <{axis = 1 : i32}> : (tensor<2x3xf32>) -> tensor<2xi32>
  check.expect_almost_eq_const(%s0, dense<[[5.0, -1.5, -2.5]]> : tensor<1x3xf32>) : tensor<1x3xf32>
  check.expect_almost_eq_const(%s1, dense<[[2.5], [-1.5]]> : tensor<2x1xf32>) : tensor<2x1xf32>
  check.expect_almost_eq_const(%mx, dense<[[3.5], [4.0]]> : tensor<2x1xf32>) : tensor<2x1xf32>
  check.expect_almost_eq_const(%mn, dense<[[1.0, -2.0, -6.0]]> : tensor<1x3xf32>) : tensor<1x3xf32>
  check.expect_almost_eq_const(%pr, dense<[[-7.0], [-12.0]]> : tensor<2x1xf32>) : tensor<2x1xf32>
  check.expect_eq_const(%am, dense<[2, 0]> : tensor<2xi32>) : tensor<2xi32>
  %b = util.unfoldable_constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %all = "tosa.reduce_all"(%b) <{axis = 1 : i32}> : (tensor<2x2xi1>) -> tensor<2x1xi1>
  %any = "tosa.reduce_any"(%b) <{axis = 0 : i32}> : (tensor<2x2xi1>) -> tensor<1x2xi1>
  check.expect_eq_const(%all, dense<[[false], [true]]> : tensor<2x1xi1>) : tensor<2x1xi1>
  check.expect_eq_const(%any, dense<[[true, true]]> : tensor<1x2xi1>) : tensor<1x2xi1>
  return
}

// tosa.gather: values [N, K, C], indices [N, W] -> [N, W, C]; scatter is the inverse.
func.func @gather_scatter() {
  %values = util.unfoldable_constant dense<[[[0.0, 0.5], [1.0, 1.5], [2.0, 2.5], [3.0, 3.5]]]> : tensor<1x4x2xf32>
  %idx = util.unfoldable_constant dense<[[3, 0, 3]]> : tensor<1x3xi32>
  %g = tosa.gather %values, %idx : (tensor<1x4x2xf32>, tensor<1x3xi32>) -> tensor<1x3x2xf32>
  check.expect_almost_eq_const(%g, dense<[[[3.0, 3.5], [0.0, 0.5], [3.0, 3.5]]]> : tensor<1x3x2xf32>) : tensor<1x3x2xf32>
  %sidx = util.unfoldable_constant dense<[[2, 0]]> : tensor<1x2xi32>
  %upd = util.unfoldable_constant dense<[[[-1.0, -2.0], [-3.0, -4.0]]]> : tensor<1x2x2xf32>
  %s = tosa.scatter %values, %sidx, %upd : (tensor<1x4x2xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>) -> tensor<1x4x2xf32>
  check.expect_almost_eq_const(%s, dense<[[[-3.0, -4.0], [1.0, 1.5], [-1.0, -2.0], [3.0, 3.5]]]> : tensor<1x4x2xf32>) : tensor<1x4x2xf32>
  return
}

func.func @reverse_and_cast() {
  %x = call @m2x3() : () -> tensor<2x3xi32>
  %r = "tosa.reverse"(%x) <{axis = 1 : i32}> : (tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const(%r, dense<[[3, 2, 1], [6, 5, 4]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  %f = tosa.cast %r : (tensor<2x3xi32>) -> tensor<2x3xf16>
  check.expect_almost_eq_const(%f, dense<[[3.0, 2.0, 1.0], [6.0, 5.0, 4.0]]> : tensor<2x3xf16>) : tensor<2x3xf16>
  return
}
