// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A mutable global: each call adds its argument to the running total and returns it.
util.global private mutable @total = dense<[10, 20, 30, 40]> : tensor<4xi32>
func.func @accumulate(%x: tensor<4xi32>) -> tensor<4xi32> {
  %t = util.global.load @total : tensor<4xi32>
  %0 = arith.addi %t, %x : tensor<4xi32>
  util.global.store %0, @total : tensor<4xi32>
  return %0 : tensor<4xi32>
}
