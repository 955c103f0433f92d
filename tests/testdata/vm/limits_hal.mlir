// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A tensor program whose result size the caller picks: each call allocates a HAL buffer of
// n x 4 bytes through the hal module, which the context's memory limits govern.
func.func @fill(%n: index, %value: f32) -> tensor<?xf32> {
  %empty = tensor.empty(%n) : tensor<?xf32>
  %0 = linalg.fill ins(%value : f32) outs(%empty : tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
