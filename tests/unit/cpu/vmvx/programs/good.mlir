// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A VMVX executable by hand: entry point @store_id writes its workgroup id x (plus the first push
// constant) as i32 element x of binding 0, through vmvx.fill.2d.x32.
vm.module @good {
  vm.import private @vmvx.fill.2d.x32(%value : i32, %out : !vm.buffer, %offset : i64, %stride : i64, %size0 : i64, %size1 : i64)
  vm.func @store_id(%lm : !vm.buffer, %c : !vm.buffer, %b : !vm.list<!vm.buffer>, %x : i32, %y : i32, %z : i32, %sx : i32, %sy : i32, %sz : i32, %cx : i32, %cy : i32, %cz : i32) attributes {iree.reflection = {binding_count = "1", constant_count = "1"}} {
    %zero = vm.const.i32.zero
    %zero64 = vm.const.i64.zero
    %one64 = vm.const.i64 1
    %out = vm.list.get.ref %b, %zero : (!vm.list<!vm.buffer>, i32) -> !vm.buffer
    %k = vm.buffer.load.i32 %c[%zero64] : !vm.buffer -> i32
    %v = vm.add.i32 %x, %k : i32
    %off = vm.ext.i32.i64.u %x : i32 -> i64
    vm.call @vmvx.fill.2d.x32(%v, %out, %off, %one64, %one64, %one64) : (i32, !vm.buffer, i64, i64, i64, i64) -> ()
    vm.return
  }
  vm.export @store_id
}
