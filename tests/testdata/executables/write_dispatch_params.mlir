// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Writes the workgroup count {4, 1, 1} as 3 x i32 into binding 0 (indirect-dispatch tests read it).
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
hal.executable.source public @executable {
  hal.executable.export public @write_dispatch_params ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    hal.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @write_dispatch_params() {
      %c0 = arith.constant 0 : index
      %d = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3xi32>>
      %t = arith.constant dense<[4, 1, 1]> : tensor<3xi32>
      iree_tensor_ext.dispatch.tensor.store %t, %d, offsets = [0], sizes = [3], strides = [1] : tensor<3xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3xi32>>
      return
    }
  }
}
