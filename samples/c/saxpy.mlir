// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// out[i] = a * x[i] + y[i] over 1024 floats, split into 16 workgroups of 64 elements.
// `a` arrives as push constant 0 (the bits of an f32).
#layout = #hal.pipeline.layout<constants = 1, bindings = [
  #hal.pipeline.binding<storage_buffer, ReadOnly>,
  #hal.pipeline.binding<storage_buffer, ReadOnly>,
  #hal.pipeline.binding<storage_buffer>
]>
hal.executable.source public @saxpy_executable {
  hal.executable.export public @saxpy ordinal(0) layout(#layout) count(%device: !hal.device) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    hal.return %c16, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @saxpy() {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %a_bits = hal.interface.constant.load layout(#layout) ordinal(0) : i32
      %a = arith.bitcast %a_bits : i32 to f32
      %id = hal.interface.workgroup.id[0] : index
      %offset = arith.muli %id, %c64 : index
      %xs = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1024xf32>>
      %ys = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1024xf32>>
      %os = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1024xf32>>
      %x = iree_tensor_ext.dispatch.tensor.load %xs, offsets = [%offset], sizes = [64], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1024xf32>> -> tensor<64xf32>
      %y = iree_tensor_ext.dispatch.tensor.load %ys, offsets = [%offset], sizes = [64], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1024xf32>> -> tensor<64xf32>
      %init = tensor.empty() : tensor<64xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}
          ins(%x, %y : tensor<64xf32>, tensor<64xf32>) outs(%init : tensor<64xf32>) {
      ^bb0(%xi: f32, %yi: f32, %o: f32):
        %m = arith.mulf %a, %xi : f32
        %s = arith.addf %m, %yi : f32
        linalg.yield %s : f32
      } -> tensor<64xf32>
      iree_tensor_ext.dispatch.tensor.store %r, %os, offsets = [%offset], sizes = [64], strides = [1] : tensor<64xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1024xf32>>
      return
    }
  }
}
