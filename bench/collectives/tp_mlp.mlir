// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A tensor-parallel MLP, y = relu(x W1) W2, with the hidden dimension split over @RANKS@ ranks:
// each rank holds its columns of W1 and rows of W2, and an all-reduce sums the partial outputs.
// With @RANKS@ = 1 it is the whole MLP on one device (no collective).
func.func public @mlp(%x : tensor<@B@x@D@xf32>, %w1 : tensor<@D@x@FS@xf32>, %w2 : tensor<@FS@x@D@xf32>)
    -> tensor<@B@x@D@xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<@B@x@FS@xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<@B@x@FS@xf32>) -> tensor<@B@x@FS@xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<@B@x@D@xf32>, tensor<@D@x@FS@xf32>) outs(%i1 : tensor<@B@x@FS@xf32>) -> tensor<@B@x@FS@xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<@B@x@FS@xf32>) outs(%e1 : tensor<@B@x@FS@xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
  } -> tensor<@B@x@FS@xf32>
  %e2 = tensor.empty() : tensor<@B@x@D@xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<@B@x@D@xf32>) -> tensor<@B@x@D@xf32>
  %y = linalg.matmul ins(%r, %w2 : tensor<@B@x@FS@xf32>, tensor<@FS@x@D@xf32>) outs(%i2 : tensor<@B@x@D@xf32>) -> tensor<@B@x@D@xf32>
@REDUCE@
}
