// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Writes what the kernel reads at run time: out = {workgroup_size.x, workgroup_size.y,
// workgroup_count.x, workgroup_count.y}. With a static count region 3.13 folds the counts
// to constants but still loads the sizes from the dispatch state.
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
hal.executable.source public @executable {
  hal.executable.export public @workgroup_size ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    hal.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @workgroup_size() {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %d = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) : memref<4xi32>
      %sx = hal.interface.workgroup.size[0] : index
      %sy = hal.interface.workgroup.size[1] : index
      %nx = hal.interface.workgroup.count[0] : index
      %ny = hal.interface.workgroup.count[1] : index
      %v0 = arith.index_cast %sx : index to i32
      %v1 = arith.index_cast %sy : index to i32
      %v2 = arith.index_cast %nx : index to i32
      %v3 = arith.index_cast %ny : index to i32
      memref.store %v0, %d[%c0] : memref<4xi32>
      memref.store %v1, %d[%c1] : memref<4xi32>
      memref.store %v2, %d[%c2] : memref<4xi32>
      memref.store %v3, %d[%c3] : memref<4xi32>
      return
    }
  }
}
