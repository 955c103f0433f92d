// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// VM-bound programs for bench/vm_bench.sh:
//   @loop: a counted loop whose body calls an internal function with i64 and f32 arguments
//          (integer multiply/add/remainder/xor, float multiply/add/divide);
//   @sum:  a tight loop of i32 arithmetic with no calls (pure dispatch cost).
// Hand-written VM IR (iree-compile --compile-mode=vm) so the optimizer cannot inline the call.
// Result for n = 1000: i64 998, f32 499.95 (as IREE's iree-run-module prints it).
vm.module @bench {
  vm.func private @step(%acc: i64, %x: f32, %i: i32) -> (i64, f32) {
    %c3 = vm.const.i64 3
    %c7 = vm.const.i64 7
    %f = vm.const.f32 1.0001
    %g = vm.const.f32 0.5
    %ii = vm.ext.i32.i64.s %i : i32 -> i64
    %a1 = vm.mul.i64 %acc, %c3 : i64
    %a2 = vm.add.i64 %a1, %ii : i64
    %a3 = vm.rem.i64.s %a2, %c7 : i64
    %a4 = vm.xor.i64 %a3, %ii : i64
    %x1 = vm.mul.f32 %x, %f : f32
    %x2 = vm.add.f32 %x1, %g : f32
    %x3 = vm.div.f32 %x2, %f : f32
    vm.return %a4, %x3 : i64, f32
  }
  vm.func @loop(%n: i32) -> (i64, f32) {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %z = vm.const.i64.zero
    %f0 = vm.const.f32.zero
    vm.br ^loop(%c0, %z, %f0 : i32, i64, f32)
  ^loop(%i: i32, %acc: i64, %x: f32):
    %lt = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %lt, ^body, ^exit
  ^body:
    %r:2 = vm.call @step(%acc, %x, %i) : (i64, f32, i32) -> (i64, f32)
    %i1 = vm.add.i32 %i, %c1 : i32
    vm.br ^loop(%i1, %r#0, %r#1 : i32, i64, f32)
  ^exit:
    vm.return %acc, %x : i64, f32
  }
  vm.func @sum(%n: i32) -> i32 {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c3 = vm.const.i32 3
    vm.br ^loop(%c0, %c0 : i32, i32)
  ^loop(%i: i32, %acc: i32):
    %lt = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %lt, ^body, ^exit
  ^body:
    %a1 = vm.mul.i32 %acc, %c3 : i32
    %a2 = vm.xor.i32 %a1, %i : i32
    %a3 = vm.shr.i32.u %a2, %c1 : i32
    %a4 = vm.add.i32 %a3, %i : i32
    %i1 = vm.add.i32 %i, %c1 : i32
    vm.br ^loop(%i1, %a4 : i32, i32)
  ^exit:
    vm.return %acc : i32
  }
  vm.export @loop
  vm.export @sum
}
