// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The smallest tensor program: one elementwise dispatch on 4xf32, so per-call time is almost
// all runtime overhead (argument marshalling, command buffer, queue submit, fence wait).
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
