// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Programs compiled for VMVX (plain, with microkernels, and data-tiled with microkernels) and run
// by iree-rt-run and IREE's iree-run-module on the same random inputs: the outputs must be the
// same bytes (vmvx_compare.py).
func.func @matmul(%a: tensor<33x70xf32>, %b: tensor<70x19xf32>) -> tensor<33x19xf32> {
  %z = tensor.empty() : tensor<33x19xf32>
  %c = arith.constant 0.0 : f32
  %f = linalg.fill ins(%c : f32) outs(%z : tensor<33x19xf32>) -> tensor<33x19xf32>
  %r = linalg.matmul ins(%a, %b : tensor<33x70xf32>, tensor<70x19xf32>)
                     outs(%f : tensor<33x19xf32>) -> tensor<33x19xf32>
  return %r : tensor<33x19xf32>
}

func.func @matmul_i8(%a: tensor<17x40xi8>, %b: tensor<40x9xi8>) -> tensor<17x9xi32> {
  %z = tensor.empty() : tensor<17x9xi32>
  %c = arith.constant 0 : i32
  %f = linalg.fill ins(%c : i32) outs(%z : tensor<17x9xi32>) -> tensor<17x9xi32>
  %r = linalg.matmul ins(%a, %b : tensor<17x40xi8>, tensor<40x9xi8>)
                     outs(%f : tensor<17x9xi32>) -> tensor<17x9xi32>
  return %r : tensor<17x9xi32>
}

func.func @conv(%in: tensor<1x10x9x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x8x7x8xf32> {
  %z = tensor.empty() : tensor<1x8x7x8xf32>
  %c = arith.constant 0.0 : f32
  %f = linalg.fill ins(%c : f32) outs(%z : tensor<1x8x7x8xf32>) -> tensor<1x8x7x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %w : tensor<1x10x9x3xf32>, tensor<3x3x3x8xf32>)
         outs(%f : tensor<1x8x7x8xf32>) -> tensor<1x8x7x8xf32>
  return %r : tensor<1x8x7x8xf32>
}

func.func @elementwise(%a: tensor<6x7xf32>, %b: tensor<6x7xf32>) -> tensor<6x7xf32> {
  %e = math.exp %a : tensor<6x7xf32>
  %ab = math.absf %b : tensor<6x7xf32>
  %l = math.log %ab : tensor<6x7xf32>
  %s = arith.subf %e, %l : tensor<6x7xf32>
  %q = math.rsqrt %ab : tensor<6x7xf32>
  %m = arith.mulf %s, %q : tensor<6x7xf32>
  %d = arith.divf %m, %b : tensor<6x7xf32>
  %fl = math.floor %d : tensor<6x7xf32>
  %ce = math.ceil %d : tensor<6x7xf32>
  %r = arith.addf %fl, %ce : tensor<6x7xf32>
  return %r : tensor<6x7xf32>
}
