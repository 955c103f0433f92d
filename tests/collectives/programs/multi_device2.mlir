// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A matmul with its contraction dimension split over 2 devices of one process: device d multiplies
// column block d of A by row block d of B, the partial products move back to device_0
// (flow.tensor.transfer) and device_0 sums them. Compiled with one --iree-hal-target-device per device.
func.func public @sharded_matmul(%a: tensor<8x16xf32> {iree.abi.affinity = #hal.device.promise<@device_0>},
                                 %b: tensor<16x4xf32> {iree.abi.affinity = #hal.device.promise<@device_0>})
    -> (tensor<8x4xf32> {iree.abi.affinity = #hal.device.promise<@device_0>}) {
  %zero = arith.constant 0.0 : f32
  %a0 = tensor.extract_slice %a[0, 0] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
  %b0 = tensor.extract_slice %b[0, 0] [8, 4] [1, 1] : tensor<16x4xf32> to tensor<8x4xf32>
  %a0t = flow.tensor.transfer %a0 : tensor<8x8xf32> to #hal.device.promise<@device_0>
  %b0t = flow.tensor.transfer %b0 : tensor<8x4xf32> to #hal.device.promise<@device_0>
  %e0 = tensor.empty() : tensor<8x4xf32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p0 = linalg.matmul ins(%a0t, %b0t : tensor<8x8xf32>, tensor<8x4xf32>) outs(%i0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p0h = flow.tensor.transfer %p0 : tensor<8x4xf32> to #hal.device.promise<@device_0>
  %a1 = tensor.extract_slice %a[0, 8] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
  %b1 = tensor.extract_slice %b[8, 0] [8, 4] [1, 1] : tensor<16x4xf32> to tensor<8x4xf32>
  %a1t = flow.tensor.transfer %a1 : tensor<8x8xf32> to #hal.device.promise<@device_1>
  %b1t = flow.tensor.transfer %b1 : tensor<8x4xf32> to #hal.device.promise<@device_1>
  %e1 = tensor.empty() : tensor<8x4xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p1 = linalg.matmul ins(%a1t, %b1t : tensor<8x8xf32>, tensor<8x4xf32>) outs(%i1 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p1h = flow.tensor.transfer %p1 : tensor<8x4xf32> to #hal.device.promise<@device_0>
  %s1 = arith.addf %p0h, %p1h : tensor<8x4xf32>
  return %s1 : tensor<8x4xf32>
}
