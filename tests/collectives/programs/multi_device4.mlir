// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A matmul with its contraction dimension split over 4 devices of one process: device d multiplies
// column block d of A by row block d of B, the partial products move back to device_0
// (flow.tensor.transfer) and device_0 sums them. Compiled with one --iree-hal-target-device per device.
func.func public @sharded_matmul(%a: tensor<8x16xf32> {iree.abi.affinity = #hal.device.promise<@device_0>},
                                 %b: tensor<16x4xf32> {iree.abi.affinity = #hal.device.promise<@device_0>})
    -> (tensor<8x4xf32> {iree.abi.affinity = #hal.device.promise<@device_0>}) {
  %zero = arith.constant 0.0 : f32
  %a0 = tensor.extract_slice %a[0, 0] [8, 4] [1, 1] : tensor<8x16xf32> to tensor<8x4xf32>
  %b0 = tensor.extract_slice %b[0, 0] [4, 4] [1, 1] : tensor<16x4xf32> to tensor<4x4xf32>
  %a0t = flow.tensor.transfer %a0 : tensor<8x4xf32> to #hal.device.promise<@device_0>
  %b0t = flow.tensor.transfer %b0 : tensor<4x4xf32> to #hal.device.promise<@device_0>
  %e0 = tensor.empty() : tensor<8x4xf32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p0 = linalg.matmul ins(%a0t, %b0t : tensor<8x4xf32>, tensor<4x4xf32>) outs(%i0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p0h = flow.tensor.transfer %p0 : tensor<8x4xf32> to #hal.device.promise<@device_0>
  %a1 = tensor.extract_slice %a[0, 4] [8, 4] [1, 1] : tensor<8x16xf32> to tensor<8x4xf32>
  %b1 = tensor.extract_slice %b[4, 0] [4, 4] [1, 1] : tensor<16x4xf32> to tensor<4x4xf32>
  %a1t = flow.tensor.transfer %a1 : tensor<8x4xf32> to #hal.device.promise<@device_1>
  %b1t = flow.tensor.transfer %b1 : tensor<4x4xf32> to #hal.device.promise<@device_1>
  %e1 = tensor.empty() : tensor<8x4xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p1 = linalg.matmul ins(%a1t, %b1t : tensor<8x4xf32>, tensor<4x4xf32>) outs(%i1 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p1h = flow.tensor.transfer %p1 : tensor<8x4xf32> to #hal.device.promise<@device_0>
  %a2 = tensor.extract_slice %a[0, 8] [8, 4] [1, 1] : tensor<8x16xf32> to tensor<8x4xf32>
  %b2 = tensor.extract_slice %b[8, 0] [4, 4] [1, 1] : tensor<16x4xf32> to tensor<4x4xf32>
  %a2t = flow.tensor.transfer %a2 : tensor<8x4xf32> to #hal.device.promise<@device_2>
  %b2t = flow.tensor.transfer %b2 : tensor<4x4xf32> to #hal.device.promise<@device_2>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p2 = linalg.matmul ins(%a2t, %b2t : tensor<8x4xf32>, tensor<4x4xf32>) outs(%i2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p2h = flow.tensor.transfer %p2 : tensor<8x4xf32> to #hal.device.promise<@device_0>
  %a3 = tensor.extract_slice %a[0, 12] [8, 4] [1, 1] : tensor<8x16xf32> to tensor<8x4xf32>
  %b3 = tensor.extract_slice %b[12, 0] [4, 4] [1, 1] : tensor<16x4xf32> to tensor<4x4xf32>
  %a3t = flow.tensor.transfer %a3 : tensor<8x4xf32> to #hal.device.promise<@device_3>
  %b3t = flow.tensor.transfer %b3 : tensor<4x4xf32> to #hal.device.promise<@device_3>
  %e3 = tensor.empty() : tensor<8x4xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p3 = linalg.matmul ins(%a3t, %b3t : tensor<8x4xf32>, tensor<4x4xf32>) outs(%i3 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p3h = flow.tensor.transfer %p3 : tensor<8x4xf32> to #hal.device.promise<@device_0>
  %s1 = arith.addf %p0h, %p1h : tensor<8x4xf32>
  %s2 = arith.addf %s1, %p2h : tensor<8x4xf32>
  %s3 = arith.addf %s2, %p3h : tensor<8x4xf32>
  return %s3 : tensor<8x4xf32>
}
