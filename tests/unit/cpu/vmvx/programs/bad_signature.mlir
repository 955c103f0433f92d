// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// An entry point without the dispatch signature.
vm.module @bad_signature {
  vm.func @entry(%x : i32) {
    vm.return
  }
  vm.export @entry
}
