// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// i1 logic and conversions between integer and float widths.

func.func @i1_logic() {
  %a = util.unfoldable_constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = util.unfoldable_constant dense<[true, false, true, false]> : tensor<4xi1>
  %and = arith.andi %a, %b : tensor<4xi1>
  %or = arith.ori %a, %b : tensor<4xi1>
  %xor = arith.xori %a, %b : tensor<4xi1>
  %t = arith.constant dense<true> : tensor<4xi1>
  %not = arith.xori %a, %t : tensor<4xi1>
  check.expect_eq_const(%and, dense<[true, false, false, false]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq_const(%or, dense<[true, true, true, false]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq_const(%xor, dense<[false, true, true, false]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq_const(%not, dense<[false, false, true, true]> : tensor<4xi1>) : tensor<4xi1>
  return
}

// i1 widens as 0/1 unsigned and 0/-1 signed.
func.func @i1_extend() {
  %a = util.unfoldable_constant dense<[true, false, true]> : tensor<3xi1>
  %u = arith.extui %a : tensor<3xi1> to tensor<3xi32>
  %s = arith.extsi %a : tensor<3xi1> to tensor<3xi8>
  %f = arith.uitofp %a : tensor<3xi1> to tensor<3xf32>
  check.expect_eq_const(%u, dense<[1, 0, 1]> : tensor<3xi32>) : tensor<3xi32>
  check.expect_eq_const(%s, dense<[-1, 0, -1]> : tensor<3xi8>) : tensor<3xi8>
  check.expect_almost_eq_const(%f, dense<[1.0, 0.0, 1.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @int_widths() {
  %a = util.unfoldable_constant dense<[-1, 127, -128, 42]> : tensor<4xi8>
  %s32 = arith.extsi %a : tensor<4xi8> to tensor<4xi32>
  %u32 = arith.extui %a : tensor<4xi8> to tensor<4xi32>
  %s64 = arith.extsi %a : tensor<4xi8> to tensor<4xi64>
  check.expect_eq_const(%s32, dense<[-1, 127, -128, 42]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%u32, dense<[255, 127, 128, 42]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%s64, dense<[-1, 127, -128, 42]> : tensor<4xi64>) : tensor<4xi64>
  %b = util.unfoldable_constant dense<[4294967297, -1, 300, 70000]> : tensor<4xi64>
  %t32 = arith.trunci %b : tensor<4xi64> to tensor<4xi32>
  %t8 = arith.trunci %b : tensor<4xi64> to tensor<4xi8>
  check.expect_eq_const(%t32, dense<[1, -1, 300, 70000]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%t8, dense<[1, -1, 44, 112]> : tensor<4xi8>) : tensor<4xi8>
  return
}

func.func @int_float() {
  %f = util.unfoldable_constant dense<[2.7, -2.7, 0.4, -100.9]> : tensor<4xf32>
  // fptosi truncates toward zero.
  %i = arith.fptosi %f : tensor<4xf32> to tensor<4xi32>
  %i8 = arith.fptosi %f : tensor<4xf32> to tensor<4xi8>
  check.expect_eq_const(%i, dense<[2, -2, 0, -100]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%i8, dense<[2, -2, 0, -100]> : tensor<4xi8>) : tensor<4xi8>
  %n = util.unfoldable_constant dense<[16777217, -3, 0, 255]> : tensor<4xi32>
  %sf = arith.sitofp %n : tensor<4xi32> to tensor<4xf32>
  %uf = arith.uitofp %n : tensor<4xi32> to tensor<4xf32>
  // 16777217 is not representable in f32 and rounds to even (16777216).
  check.expect_almost_eq_const(%sf, dense<[16777216.0, -3.0, 0.0, 255.0]> : tensor<4xf32>, atol 0.0, rtol 0.0) : tensor<4xf32>
  check.expect_almost_eq_const(%uf, dense<[16777216.0, 4294967296.0, 0.0, 255.0]> : tensor<4xf32>, atol 0.0, rtol 0.0) : tensor<4xf32>
  %l = util.unfoldable_constant dense<[-5, 1099511627776]> : tensor<2xi64>
  %lf = arith.sitofp %l : tensor<2xi64> to tensor<2xf32>
  check.expect_almost_eq_const(%lf, dense<[-5.0, 1099511627776.0]> : tensor<2xf32>, atol 0.0, rtol 0.0) : tensor<2xf32>
  return
}

func.func @float_widths() {
  %f = util.unfoldable_constant dense<[0.1, 65504.0, -2.5]> : tensor<3xf32>
  %h = arith.truncf %f : tensor<3xf32> to tensor<3xf16>
  %hf = arith.extf %h : tensor<3xf16> to tensor<3xf32>
  // Nearest half to 0.1 is 0.0999755859375.
  check.expect_almost_eq_const(%hf, dense<[0.0999755859375, 65504.0, -2.5]> : tensor<3xf32>, atol 0.0, rtol 0.0) : tensor<3xf32>
  %hi = arith.fptosi %h : tensor<3xf16> to tensor<3xi32>
  check.expect_eq_const(%hi, dense<[0, 65504, -2]> : tensor<3xi32>) : tensor<3xi32>
  // Bitcast reinterprets bits: 1.0f is 0x3F800000.
  %one = util.unfoldable_constant dense<[1.0, -2.0]> : tensor<2xf32>
  %bits = arith.bitcast %one : tensor<2xf32> to tensor<2xi32>
  check.expect_eq_const(%bits, dense<[1065353216, -1073741824]> : tensor<2xi32>) : tensor<2xi32>
  return
}
