// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The program the Java and C# binding tests (and bench/bindings) call: scalars, tensors, and a
// function that fails on purpose. Compiled for llvm-cpu at build time.
#map = affine_map<(d0) -> (d0)>

// Pure VM code (no HAL work): the benchmark's per-call overhead probe.
func.func @add_i32(%a: i32, %b: i32) -> i32 {
  %c = arith.addi %a, %b : i32
  return %c : i32
}

func.func @mul_f32(%a: f32, %b: f32) -> f32 {
  %c = arith.mulf %a, %b : f32
  return %c : f32
}

// out[i] = s * x[i] + y[i]
func.func @scale_add(%x: tensor<4xf32>, %y: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    %n = arith.addf %m, %b : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Integer tensor plus a scalar, with two results (the tensor and its element count).
func.func @add_scalar_i32(%x: tensor<?xi32>, %s: i32) -> (tensor<?xi32>, index) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xi32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<?xi32>) outs(%e : tensor<?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %v = arith.addi %a, %s : i32
    linalg.yield %v : i32
  } -> tensor<?xi32>
  return %r, %n : tensor<?xi32>, index
}
