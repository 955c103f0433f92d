// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// out[i] = in[i] * constant[0] + constant[1] over 4 x i32.
#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [
  #hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
hal.executable.source public @executable {
  hal.executable.export public @scale_and_offset ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    hal.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @scale_and_offset() {
      %c0 = arith.constant 0 : index
      %scale = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
      %offset = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
      %s = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi32>>
      %d = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi32>>
      %t = iree_tensor_ext.dispatch.tensor.load %s, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi32>> -> tensor<4xi32>
      %e = tensor.empty() : tensor<4xi32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<4xi32>) outs(%e : tensor<4xi32>) {
      ^bb0(%a: i32, %b: i32):
        %m = arith.muli %a, %scale : i32
        %x = arith.addi %m, %offset : i32
        linalg.yield %x : i32
      } -> tensor<4xi32>
      iree_tensor_ext.dispatch.tensor.store %r, %d, offsets = [0], sizes = [4], strides = [1] : tensor<4xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi32>>
      return
    }
  }
}
