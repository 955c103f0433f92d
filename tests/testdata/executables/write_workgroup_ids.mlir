// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Dispatched as 32x1x1 workgroups; workgroup x writes out[x] = x.
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
hal.executable.source public @executable {
  hal.executable.export public @write_workgroup_ids ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    hal.return %c32, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @write_workgroup_ids() {
      %c0 = arith.constant 0 : index
      %d = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) : memref<32xi32>
      %id = hal.interface.workgroup.id[0] : index
      %v = arith.index_cast %id : index to i32
      memref.store %v, %d[%id] : memref<32xi32>
      return
    }
  }
}
