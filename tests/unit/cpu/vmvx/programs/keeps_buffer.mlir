// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Stores its binding in a global, past the workgroup that lent it.
vm.module @keeps_buffer {
  vm.global.ref private mutable @kept : !vm.buffer
  vm.func @entry(%lm : !vm.buffer, %c : !vm.buffer, %b : !vm.list<!vm.buffer>, %x : i32, %y : i32, %z : i32, %sx : i32, %sy : i32, %sz : i32, %cx : i32, %cy : i32, %cz : i32) attributes {iree.reflection = {binding_count = "1"}} {
    %zero = vm.const.i32.zero
    %out = vm.list.get.ref %b, %zero : (!vm.list<!vm.buffer>, i32) -> !vm.buffer
    vm.global.store.ref %out, @kept : !vm.buffer
    vm.return
  }
  vm.export @entry
}
