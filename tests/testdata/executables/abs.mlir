// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pipeline_layout = #hal.pipeline.layout<bindings = [
  #hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
hal.executable.source public @executable {
  hal.executable.export public @abs ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    hal.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @abs() {
      %c0 = arith.constant 0 : index
      %s = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xf32>>
      %d = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf32>>
      %t = iree_tensor_ext.dispatch.tensor.load %s, offsets = [0], sizes = [2], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xf32>> -> tensor<2xf32>
      %e = tensor.empty() : tensor<2xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<2xf32>) outs(%e : tensor<2xf32>) {
      ^bb0(%a: f32, %b: f32):
        %x = math.absf %a : f32
        linalg.yield %x : f32
      } -> tensor<2xf32>
      iree_tensor_ext.dispatch.tensor.store %r, %d, offsets = [0], sizes = [2], strides = [1] : tensor<2xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf32>>
      return
    }
  }
}
