// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Imports a vmvx function the native module does not have.
vm.module @bad_import {
  vm.import private @vmvx.no_such_kernel(%a : i32) -> ()
  vm.func @entry(%lm : !vm.buffer, %c : !vm.buffer, %b : !vm.list<!vm.buffer>, %x : i32, %y : i32, %z : i32, %sx : i32, %sy : i32, %sz : i32, %cx : i32, %cy : i32, %cz : i32) {
    vm.call @vmvx.no_such_kernel(%x) : (i32) -> ()
    vm.return
  }
  vm.export @entry
}
