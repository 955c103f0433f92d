// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Copies its four i32 push constants into binding 0: out[i] = constant[i].
#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [
  #hal.pipeline.binding<storage_buffer>]>
hal.executable.source public @executable {
  hal.executable.export public @write_constants ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    hal.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @write_constants() {
      %c0 = arith.constant 0 : index
      %v0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
      %v1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
      %v2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
      %v3 = hal.interface.constant.load layout(#pipeline_layout) ordinal(3) : i32
      %d = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi32>>
      %t = tensor.from_elements %v0, %v1, %v2, %v3 : tensor<4xi32>
      iree_tensor_ext.dispatch.tensor.store %t, %d, offsets = [0], sizes = [4], strides = [1] : tensor<4xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi32>>
      return
    }
  }
}
