// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The main job's model: a two-layer perceptron, 2x4 -> 8 (relu) -> 3, in StableHLO.
// Weights follow the formulas samples/c/model_sample.c uses to check the result on the host:
//   w1[i][j] = ((8i + j) % 7 - 3) / 4    b1[j] = (j % 3 - 1) / 2
//   w2[j][k] = ((3j + k) % 5 - 2) / 2    b2[k] = k / 10
func.func @mlp(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w1 = stablehlo.constant dense<[[-0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, -0.75], [-0.5, -0.25, 0.0, 0.25, 0.5, 0.75, -0.75, -0.5], [-0.25, 0.0, 0.25, 0.5, 0.75, -0.75, -0.5, -0.25], [0.0, 0.25, 0.5, 0.75, -0.75, -0.5, -0.25, 0.0]]> : tensor<4x8xf32>
  %b1 = stablehlo.constant dense<[-0.5, 0.0, 0.5, -0.5, 0.0, 0.5, -0.5, 0.0]> : tensor<8xf32>
  %w2 = stablehlo.constant dense<[[-1.0, -0.5, 0.0], [0.5, 1.0, -1.0], [-0.5, 0.0, 0.5], [1.0, -1.0, -0.5], [0.0, 0.5, 1.0], [-1.0, -0.5, 0.0], [0.5, 1.0, -1.0], [-0.5, 0.0, 0.5]]> : tensor<8x3xf32>
  %b2 = stablehlo.constant dense<[0.0, 0.1, 0.2]> : tensor<3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<2x8xf32>
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
  %hb = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<8xf32>) -> tensor<2x8xf32>
  %h1 = stablehlo.add %h, %hb : tensor<2x8xf32>
  %h2 = stablehlo.maximum %h1, %zero : tensor<2x8xf32>
  %y = stablehlo.dot_general %h2, %w2, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
  %yb = stablehlo.broadcast_in_dim %b2, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %out = stablehlo.add %y, %yb : tensor<2x3xf32>
  return %out : tensor<2x3xf32>
}
