// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Calls the external function @rt_test_trap, which becomes a required executable import:
// out[0] = rt_test_trap(7). A non-zero return from the import makes the dispatch function
// return that code, which is the only way 3.13 codegen lets a kernel report failure.
// Loading needs an import provider for "rt_test_trap".
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
hal.executable.source public @executable {
  hal.executable.export public @trap ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    hal.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func private @rt_test_trap(i32) -> i32
    func.func @trap() {
      %c0 = arith.constant 0 : index
      %c7 = arith.constant 7 : i32
      %d = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) : memref<1xi32>
      %r = func.call @rt_test_trap(%c7) : (i32) -> i32
      memref.store %r, %d[%c0] : memref<1xi32>
      return
    }
  }
}
