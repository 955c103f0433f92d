// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Two exports over 4 x f32: negate (ordinal 0) writes -in, double_it (ordinal 1) writes in + in.
#pipeline_layout = #hal.pipeline.layout<bindings = [
  #hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
hal.executable.source public @executable {
  hal.executable.export public @negate ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    hal.return %c1, %c1, %c1 : index, index, index
  }
  hal.executable.export public @double_it ordinal(1) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    hal.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @negate() {
      %c0 = arith.constant 0 : index
      %s = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
      %d = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      %t = iree_tensor_ext.dispatch.tensor.load %s, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%a: f32, %b: f32):
        %x = arith.negf %a : f32
        linalg.yield %x : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %r, %d, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
    func.func @double_it() {
      %c0 = arith.constant 0 : index
      %s = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
      %d = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      %t = iree_tensor_ext.dispatch.tensor.load %s, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%a: f32, %b: f32):
        %x = arith.addf %a, %a : f32
        linalg.yield %x : f32
      } -> tensor<4xf32>
      iree_tensor_ext.dispatch.tensor.store %r, %d, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }
  }
}
