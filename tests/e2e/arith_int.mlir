// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Integer arith on i8, i32 and i64 tensors, including wrap-around and signed/unsigned forms.

func.func @i32_arith() {
  %a = util.unfoldable_constant dense<[7, -7, 100, -2147483648, 2147483647]> : tensor<5xi32>
  %b = util.unfoldable_constant dense<[2, 2, -3, -1, 1]> : tensor<5xi32>
  %add = arith.addi %a, %b : tensor<5xi32>
  %sub = arith.subi %a, %b : tensor<5xi32>
  %mul = arith.muli %a, %b : tensor<5xi32>
  %max = arith.maxsi %a, %b : tensor<5xi32>
  %min = arith.minsi %a, %b : tensor<5xi32>
  check.expect_eq_const(%add, dense<[9, -5, 97, 2147483647, -2147483648]> : tensor<5xi32>) : tensor<5xi32>
  check.expect_eq_const(%sub, dense<[5, -9, 103, -2147483647, 2147483646]> : tensor<5xi32>) : tensor<5xi32>
  check.expect_eq_const(%mul, dense<[14, -14, -300, -2147483648, 2147483647]> : tensor<5xi32>) : tensor<5xi32>
  check.expect_eq_const(%max, dense<[7, 2, 100, -1, 2147483647]> : tensor<5xi32>) : tensor<5xi32>
  check.expect_eq_const(%min, dense<[2, -7, -3, -2147483648, 1]> : tensor<5xi32>) : tensor<5xi32>
  return
}

func.func @i32_div_rem() {
  %a = util.unfoldable_constant dense<[7, -7, 7, -7]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[2, 2, -2, -2]> : tensor<4xi32>
  %div = arith.divsi %a, %b : tensor<4xi32>
  %rem = arith.remsi %a, %b : tensor<4xi32>
  %floor = arith.floordivsi %a, %b : tensor<4xi32>
  %ceil = arith.ceildivsi %a, %b : tensor<4xi32>
  // Unsigned: -7 is 4294967289.
  %udiv = arith.divui %a, %b : tensor<4xi32>
  check.expect_eq_const(%div, dense<[3, -3, -3, 3]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%rem, dense<[1, -1, 1, -1]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%floor, dense<[3, -4, -4, 3]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%ceil, dense<[4, -3, -3, 4]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%udiv, dense<[3, 2147483644, 0, 0]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @i32_shifts_bits() {
  %a = util.unfoldable_constant dense<[1, -16, 255, -1]> : tensor<4xi32>
  %s = util.unfoldable_constant dense<[4, 2, 7, 31]> : tensor<4xi32>
  %shl = arith.shli %a, %s : tensor<4xi32>
  %shrs = arith.shrsi %a, %s : tensor<4xi32>
  %shru = arith.shrui %a, %s : tensor<4xi32>
  %and = arith.andi %a, %s : tensor<4xi32>
  %or = arith.ori %a, %s : tensor<4xi32>
  %xor = arith.xori %a, %s : tensor<4xi32>
  check.expect_eq_const(%shl, dense<[16, -64, 32640, -2147483648]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%shrs, dense<[0, -4, 1, -1]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%shru, dense<[0, 1073741820, 1, 1]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%and, dense<[0, 0, 7, 31]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%or, dense<[5, -14, 255, -1]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%xor, dense<[5, -14, 248, -32]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @i32_abs_neg_cmp() {
  %a = util.unfoldable_constant dense<[-5, 0, 9, -2147483647]> : tensor<4xi32>
  %zero = arith.constant dense<0> : tensor<4xi32>
  %abs = math.absi %a : tensor<4xi32>
  %neg = arith.subi %zero, %a : tensor<4xi32>
  %lt = arith.cmpi slt, %a, %zero : tensor<4xi32>
  %ult = arith.cmpi ult, %a, %zero : tensor<4xi32>
  %sel = arith.select %lt, %neg, %a : tensor<4xi1>, tensor<4xi32>
  check.expect_eq_const(%abs, dense<[5, 0, 9, 2147483647]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%neg, dense<[5, 0, -9, 2147483647]> : tensor<4xi32>) : tensor<4xi32>
  check.expect_eq_const(%lt, dense<[true, false, false, true]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq_const(%ult, dense<[false, false, false, false]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq(%sel, %abs) : tensor<4xi32>
  return
}

func.func @i8_arith() {
  %a = util.unfoldable_constant dense<[100, -100, 127, -128, 5]> : tensor<5xi8>
  %b = util.unfoldable_constant dense<[100, -100, 1, -1, -3]> : tensor<5xi8>
  %add = arith.addi %a, %b : tensor<5xi8>
  %mul = arith.muli %a, %b : tensor<5xi8>
  %max = arith.maxsi %a, %b : tensor<5xi8>
  %umax = arith.maxui %a, %b : tensor<5xi8>
  %shr = arith.shrsi %a, %b : tensor<5xi8>
  check.expect_eq_const(%add, dense<[-56, 56, -128, 127, 2]> : tensor<5xi8>) : tensor<5xi8>
  check.expect_eq_const(%mul, dense<[16, 16, 127, -128, -15]> : tensor<5xi8>) : tensor<5xi8>
  check.expect_eq_const(%max, dense<[100, -100, 127, -1, 5]> : tensor<5xi8>) : tensor<5xi8>
  check.expect_eq_const(%umax, dense<[100, -100, 127, -1, -3]> : tensor<5xi8>) : tensor<5xi8>
  %s = util.unfoldable_constant dense<[1, 2, 3, 7, 0]> : tensor<5xi8>
  %shr2 = arith.shrsi %a, %s : tensor<5xi8>
  check.expect_eq_const(%shr2, dense<[50, -25, 15, -1, 5]> : tensor<5xi8>) : tensor<5xi8>
  return
}

func.func @i64_arith() {
  %a = util.unfoldable_constant dense<[4294967296, -9223372036854775807, 123456789012]> : tensor<3xi64>
  %b = util.unfoldable_constant dense<[3, -1, 1000]> : tensor<3xi64>
  %add = arith.addi %a, %b : tensor<3xi64>
  %mul = arith.muli %a, %b : tensor<3xi64>
  %div = arith.divsi %a, %b : tensor<3xi64>
  %s = util.unfoldable_constant dense<[1, 0, 4]> : tensor<3xi64>
  %shl = arith.shli %a, %s : tensor<3xi64>
  check.expect_eq_const(%add, dense<[4294967299, -9223372036854775808, 123456790012]> : tensor<3xi64>) : tensor<3xi64>
  check.expect_eq_const(%mul, dense<[12884901888, 9223372036854775807, 123456789012000]> : tensor<3xi64>) : tensor<3xi64>
  check.expect_eq_const(%div, dense<[1431655765, 9223372036854775807, 123456789]> : tensor<3xi64>) : tensor<3xi64>
  check.expect_eq_const(%shl, dense<[8589934592, -9223372036854775807, 1975308624192]> : tensor<3xi64>) : tensor<3xi64>
  return
}

// An i64 splat materialized at run time: the compiler emits its __builtin_splat_i64 dispatch
// (HAL fills take patterns of at most 4 bytes), which VMVX links into the program's executable
// as an export whose name starts with "__".
func.func @i64_splat() {
  %c = arith.constant dense<-4294967291> : tensor<3xi64>
  %s = util.optimization_barrier %c : tensor<3xi64>
  %one = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi64>
  %sum = arith.addi %s, %one : tensor<3xi64>
  check.expect_eq_const(%s, dense<-4294967291> : tensor<3xi64>) : tensor<3xi64>
  check.expect_eq_const(%sum, dense<[-4294967290, -4294967289, -4294967288]> : tensor<3xi64>) : tensor<3xi64>
  return
}
