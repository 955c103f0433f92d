// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What the concurrency and soak tests call from many threads: a kernel with real work, and
// per-context state (a scalar and a tensor global) whose final values prove calls were not lost.
util.global private mutable @counter = 0 : i32
util.global private mutable @accum = dense<0.0> : tensor<16xf32>

// a·b + c on 32×32 f32; exact for the small integer-valued inputs the tests use.
func.func @matmul_add(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<32x32xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<32x32xf32>, tensor<32x32xf32>)
                      outs(%fill : tensor<32x32xf32>) -> tensor<32x32xf32>
  %sum = arith.addf %mm, %c : tensor<32x32xf32>
  return %sum : tensor<32x32xf32>
}

// The number of calls of this function in this context so far, this one included.
func.func @increment() -> i32 {
  %c = util.global.load @counter : i32
  %one = arith.constant 1 : i32
  %n = arith.addi %c, %one : i32
  util.global.store %n, @counter : i32
  return %n : i32
}

// Adds |d| to the context's running sum and returns the new sum.
func.func @accumulate(%d: tensor<16xf32>) -> tensor<16xf32> {
  %a = util.global.load @accum : tensor<16xf32>
  %n = arith.addf %a, %d : tensor<16xf32>
  util.global.store %n, @accum : tensor<16xf32>
  return %n : tensor<16xf32>
}
