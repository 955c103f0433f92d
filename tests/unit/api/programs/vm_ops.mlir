// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Hand-written VM IR (--compile-mode=vm) for the C ABI tests: lists, references, failures.
vm.module @vmops {
  // Returns a list [0, 1, ..., n-1] of i32.
  vm.func @iota(%n: i32) -> !vm.list<i32> {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %list = vm.list.alloc %n : (i32) -> !vm.list<i32>
    vm.list.resize %list, %n : (!vm.list<i32>, i32)
    vm.br ^loop(%c0 : i32)
  ^loop(%i: i32):
    %lt = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %lt, ^body, ^done
  ^body:
    vm.list.set.i32 %list, %i, %i : (!vm.list<i32>, i32, i32)
    %next = vm.add.i32 %i, %c1 : i32
    vm.br ^loop(%next : i32)
  ^done:
    vm.return %list : !vm.list<i32>
  }
  // Sums the i32 elements of a list.
  vm.func @sum(%list: !vm.list<i32>) -> i32 {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %n = vm.list.size %list : (!vm.list<i32>) -> i32
    vm.br ^loop(%c0, %c0 : i32, i32)
  ^loop(%i: i32, %acc: i32):
    %lt = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %lt, ^body, ^done
  ^body:
    %v = vm.list.get.i32 %list, %i : (!vm.list<i32>, i32) -> i32
    %acc2 = vm.add.i32 %acc, %v : i32
    %next = vm.add.i32 %i, %c1 : i32
    vm.br ^loop(%next, %acc2 : i32, i32)
  ^done:
    vm.return %acc : i32
  }
  // Returns its buffer view argument unchanged.
  vm.func @echo(%view: !vm.ref<!hal.buffer_view>) -> !vm.ref<!hal.buffer_view> {
    vm.return %view : !vm.ref<!hal.buffer_view>
  }
  // Fails with NOT_FOUND (5) when |x| is nonzero, else returns x + 1 via an internal call.
  vm.func @maybe_fail(%x: i32) -> i32 {
    %code = vm.const.i32 5
    vm.cond_br %x, ^fail, ^ok
  ^fail:
    vm.fail %code, "maybe_fail was asked to fail"
  ^ok:
    %r = vm.call @plus_one(%x) : (i32) -> i32
    vm.return %r : i32
  }
  vm.func private @plus_one(%x: i32) -> i32 {
    %c1 = vm.const.i32 1
    %r = vm.add.i32 %x, %c1 : i32
    vm.return %r : i32
  }
  vm.export @iota
  vm.export @sum
  vm.export @echo
  vm.export @maybe_fail
}
