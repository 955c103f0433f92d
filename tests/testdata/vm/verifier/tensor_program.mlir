// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A small tensor program through the full llvm-cpu pipeline: the module that a real model
// produces, with HAL imports (several of them variadic), executables as rodata, ref globals,
// __init and an async-free sync entry point.
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%fill : tensor<4x16xf32>) -> tensor<4x16xf32>
  %out = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x16xf32>, tensor<16xf32>) outs(%empty : tensor<4x16xf32>) {
  ^bb0(%m: f32, %bias: f32, %o: f32):
    %s = arith.addf %m, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %out : tensor<4x16xf32>
}

func.func @dynamic_add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = arith.addf %a, %b : tensor<?xf32>
  return %0 : tensor<?xf32>
}
