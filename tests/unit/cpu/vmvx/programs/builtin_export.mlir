// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Exports whose names start with "__": @__builtin_fill has the dispatch signature and is an entry
// point (as the compiler's __builtin_splat_i64, linked into the program's executable); @__helper
// does not and is skipped, as __init and __set_constants are. Entry point ordinals follow the
// export order: 0 is @__builtin_fill (writes 7 at element x of binding 0), 1 is @store_id
// (writes x plus the first push constant).
vm.module @builtin_export {
  vm.import private @vmvx.fill.2d.x32(%value : i32, %out : !vm.buffer, %offset : i64, %stride : i64, %size0 : i64, %size1 : i64)
  vm.func @__builtin_fill(%lm : !vm.buffer, %c : !vm.buffer, %b : !vm.list<!vm.buffer>, %x : i32, %y : i32, %z : i32, %sx : i32, %sy : i32, %sz : i32, %cx : i32, %cy : i32, %cz : i32) attributes {iree.reflection = {binding_count = "1"}} {
    %zero = vm.const.i32.zero
    %one64 = vm.const.i64 1
    %seven = vm.const.i32 7
    %out = vm.list.get.ref %b, %zero : (!vm.list<!vm.buffer>, i32) -> !vm.buffer
    %off = vm.ext.i32.i64.u %x : i32 -> i64
    vm.call @vmvx.fill.2d.x32(%seven, %out, %off, %one64, %one64, %one64) : (i32, !vm.buffer, i64, i64, i64, i64) -> ()
    vm.return
  }
  vm.func @__helper(%x : i32) {
    vm.return
  }
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
  vm.export @__builtin_fill
  vm.export @__helper
  vm.export @store_id
}
