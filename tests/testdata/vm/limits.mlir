// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Hand-written VM IR (--compile-mode=vm) that runs into every configurable limit: nested calls,
// loops that never end or grow a list, and allocations of a size the caller picks.
// Each function also has a harmless use (a small argument), so tests can show the context still
// works after a limit stopped it.
vm.module @limits {
  // Globals, so a context has some memory charged from the start.
  vm.global.i64 private mutable @calls : i64
  vm.global.ref private mutable @kept : !vm.buffer

  // A chain of 8 nested calls (9 frames with the entry call), returning 8. Recursion would do,
  // but iree-compile 3.13 does not finish compiling a recursive vm.func.
  vm.func @chain8(%n: i32) -> i32 {
    %c1 = vm.const.i32 1
    %r = vm.call @chain7(%n) : (i32) -> i32
    %r1 = vm.add.i32 %r, %c1 : i32
    vm.return %r1 : i32
  }
  vm.func private @chain7(%n: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %c1 = vm.const.i32 1
    %r = vm.call @chain6(%n) : (i32) -> i32
    %r1 = vm.add.i32 %r, %c1 : i32
    vm.return %r1 : i32
  }
  vm.func private @chain6(%n: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %c1 = vm.const.i32 1
    %r = vm.call @chain5(%n) : (i32) -> i32
    %r1 = vm.add.i32 %r, %c1 : i32
    vm.return %r1 : i32
  }
  vm.func private @chain5(%n: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %c1 = vm.const.i32 1
    %r = vm.call @chain4(%n) : (i32) -> i32
    %r1 = vm.add.i32 %r, %c1 : i32
    vm.return %r1 : i32
  }
  vm.func private @chain4(%n: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %c1 = vm.const.i32 1
    %r = vm.call @chain3(%n) : (i32) -> i32
    %r1 = vm.add.i32 %r, %c1 : i32
    vm.return %r1 : i32
  }
  vm.func private @chain3(%n: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %c1 = vm.const.i32 1
    %r = vm.call @chain2(%n) : (i32) -> i32
    %r1 = vm.add.i32 %r, %c1 : i32
    vm.return %r1 : i32
  }
  vm.func private @chain2(%n: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %c1 = vm.const.i32 1
    %r = vm.call @chain1(%n) : (i32) -> i32
    %r1 = vm.add.i32 %r, %c1 : i32
    vm.return %r1 : i32
  }
  vm.func private @chain1(%n: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %c1 = vm.const.i32 1
    %r = vm.call @chain0(%n) : (i32) -> i32
    %r1 = vm.add.i32 %r, %c1 : i32
    vm.return %r1 : i32
  }
  vm.func private @chain0(%n: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    vm.return %n : i32
  }
  // Loops |n| times (n backward branches) and returns |n|.
  vm.func @count(%n: i32) -> i32 {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    vm.br ^loop(%c0 : i32)
  ^loop(%i: i32):
    %lt = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %lt, ^body, ^done
  ^body:
    %next = vm.add.i32 %i, %c1 : i32
    vm.br ^loop(%next : i32)
  ^done:
    vm.return %i : i32
  }
  // Never returns.
  vm.func @spin(%n: i32) -> i32 {
    %c1 = vm.const.i32 1
    vm.br ^loop(%n : i32)
  ^loop(%i: i32):
    %next = vm.add.i32 %i, %c1 : i32
    vm.br ^loop(%next : i32)
  }
  // Appends 0, 1, ..., n-1 one at a time (resize by one, then set), as a growing queue does.
  vm.func @grow_list(%n: i32) -> !vm.list<i32> {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %list = vm.list.alloc %c0 : (i32) -> !vm.list<i32>
    vm.br ^loop(%c0 : i32)
  ^loop(%i: i32):
    %lt = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %lt, ^body, ^done
  ^body:
    %next = vm.add.i32 %i, %c1 : i32
    vm.list.resize %list, %next : (!vm.list<i32>, i32)
    vm.list.set.i32 %list, %i, %i : (!vm.list<i32>, i32, i32)
    vm.br ^loop(%next : i32)
  ^done:
    vm.return %list : !vm.list<i32>
  }
  // A zeroed buffer of |size| bytes.
  vm.func @alloc(%size: i64) -> !vm.buffer {
    %c16 = vm.const.i32 16
    %buf = vm.buffer.alloc %size, %c16 : !vm.buffer
    vm.return %buf : !vm.buffer
  }
  // Allocates |size| bytes and keeps them in a global (released with the context or by
  // another call), counting calls in another global.
  vm.func @keep(%size: i64) -> i64 {
    %c16 = vm.const.i32 16
    %c1 = vm.const.i64 1
    %buf = vm.buffer.alloc %size, %c16 : !vm.buffer
    vm.global.store.ref %buf, @kept : !vm.buffer
    %n = vm.global.load.i64 @calls : i64
    %n1 = vm.add.i64 %n, %c1 : i64
    vm.global.store.i64 %n1, @calls : i64
    vm.return %n1 : i64
  }
  vm.export @chain8
  vm.export @count
  vm.export @spin
  vm.export @grow_list
  vm.export @alloc
  vm.export @keep
}
