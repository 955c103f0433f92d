// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A tensor program: it imports the `hal` module, which the VM tests do not link.
func.func @negate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.negf %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
