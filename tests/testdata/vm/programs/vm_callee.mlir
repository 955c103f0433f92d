// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A second bytecode module that vm_calls imports: its exports run as frames on the caller's
// stack (same signature), so yields inside them propagate to the host.
vm.module @callee {
  vm.global.i32 private mutable @calls : i32
  vm.func @twice(%a: i64, %b: i32) -> (i64, i32) {
    %0 = vm.add.i64 %a, %a : i64
    %n = vm.global.load.i32 @calls : i32
    %c1 = vm.const.i32 1
    %n1 = vm.add.i32 %n, %c1 : i32
    vm.global.store.i32 %n1, @calls : i32
    %1 = vm.add.i32 %b, %n1 : i32
    vm.return %0, %1 : i64, i32
  }
  vm.export @twice
  // Yields |count| times, then returns start + count.
  vm.func @yield_add(%start: i32, %count: i32) -> i32 {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    vm.br ^check(%c0, %start : i32, i32)
  ^check(%i: i32, %acc: i32):
    %more = vm.cmp.lt.i32.s %i, %count : i32
    vm.cond_br %more, ^body, ^done(%acc : i32)
  ^body:
    %i1 = vm.add.i32 %i, %c1 : i32
    %acc1 = vm.add.i32 %acc, %c1 : i32
    vm.yield ^check(%i1, %acc1 : i32, i32)
  ^done(%r: i32):
    vm.return %r : i32
  }
  vm.export @yield_add
  vm.func @fail_here(%code: i32) {
    vm.fail %code, "callee failed"
  }
  vm.export @fail_here
}
