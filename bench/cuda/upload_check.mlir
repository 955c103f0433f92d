// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Checks that tool inputs reach the kernels intact once the tools upload them to device-local
// memory (src/tooling/device_upload.h): each function returns one element as a scalar, which
// iree-rt-run prints. run_bench.sh expects `f32=512` (4096 * 0.5 * 0.25) and `f32=8190`.
func.func @mm_element(%lhs: tensor<4096x4096xf32>, %rhs: tensor<4096x4096xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<4096x4096xf32>, tensor<4096x4096xf32>)
                     outs(%acc : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %i = arith.constant 4095 : index
  %j = arith.constant 7 : index
  %e = tensor.extract %0[%i, %j] : tensor<4096x4096xf32>
  return %e : f32
}

// With a .npy input holding 0, 1, ..., 4095: returns 2 * x[4095].
func.func @doubled_last(%x: tensor<4096xf32>) -> f32 {
  %empty = tensor.empty() : tensor<4096xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4096xf32>) outs(%empty : tensor<4096xf32>) {
    ^bb0(%in: f32, %o: f32):
      %d = arith.addf %in, %in : f32
      linalg.yield %d : f32
  } -> tensor<4096xf32>
  %i = arith.constant 4095 : index
  %e = tensor.extract %0[%i] : tensor<4096xf32>
  return %e : f32
}
