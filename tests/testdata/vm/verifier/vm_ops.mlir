// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Hand-written VM IR (compiled with --compile-mode=vm) that reaches the opcodes the
// higher-level programs rarely produce: switches, variadic and
// yieldable calls, yields, debug ops, optional imports, unordered float compares, f32/f64
// list and buffer access, and ref casts. Only the encoding matters: the verifier and
// disassembler tests decode every function; nothing here is executed.
vm.module @verifier_vm_ops {
  vm.import private @native.scalar(%a : i32, %b : i64) -> (i64, f32)
  vm.import private @native.spans(%a : i32, %refs : !vm.ref<?> ..., %pairs : tuple<i32, i64> ...) -> i32
  vm.import private @native.wait(%a : i32) -> i32 attributes {vm.yield}
  vm.import private @native.wait_spans(%a : i32 ..., %b : f64) -> f64 attributes {vm.yield}
  vm.import private optional @native.maybe(%a : i32) -> i32

  vm.global.i32 private mutable @g_i32 : i32
  vm.global.i64 private mutable @g_i64 : i64
  vm.global.f32 private mutable @g_f32 : f32
  vm.global.f64 private mutable @g_f64 : f64
  vm.global.ref private mutable @g_buf : !vm.buffer
  vm.global.ref private mutable @g_any : !vm.ref<?>
  vm.rodata private @blob dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>

  vm.func @direct_globals(%v : i32, %w : i64, %x : f32, %y : f64, %buf : !vm.buffer) -> (i32, i64, f32, f64, !vm.buffer) {
    vm.global.store.i32 %v, @g_i32 : i32
    vm.global.store.i64 %w, @g_i64 : i64
    vm.global.store.f32 %x, @g_f32 : f32
    vm.global.store.f64 %y, @g_f64 : f64
    vm.global.store.ref %buf, @g_buf : !vm.buffer
    %a = vm.global.load.i32 @g_i32 : i32
    %b = vm.global.load.i64 @g_i64 : i64
    %c = vm.global.load.f32 @g_f32 : f32
    %d = vm.global.load.f64 @g_f64 : f64
    %e = vm.global.load.ref @g_buf : !vm.buffer
    vm.return %a, %b, %c, %d, %e : i32, i64, f32, f64, !vm.buffer
  }

  vm.func @switches(%i : i32, %a : i32, %b : i32, %c : i64, %d : i64, %e : f32, %f : f64,
                    %r0 : !vm.buffer, %r1 : !vm.buffer) -> (i32, i64, f32, f64, !vm.buffer) {
    %s0 = vm.switch.i32 %i[%a, %b] else %b : i32
    %s1 = vm.switch.i64 %i[%c, %d, %c] else %d : i64
    %s2 = vm.switch.f32 %i[%e, %e] else %e : f32
    %s3 = vm.switch.f64 %i[%f] else %f : f64
    %s4 = vm.switch.ref %i[%r0, %r1] else %r1 : !vm.buffer
    vm.return %s0, %s1, %s2, %s3, %s4 : i32, i64, f32, f64, !vm.buffer
  }

  vm.func @selects(%c : i32, %a : !vm.buffer, %b : !vm.buffer, %x : i64, %y : i64) -> (!vm.buffer, i64) {
    %r = vm.select.ref %c, %a, %b : !vm.buffer
    %s = vm.select.i64 %c, %x, %y : i64
    vm.return %r, %s : !vm.buffer, i64
  }

  vm.func @integer_conversions(%a : i32, %b : i64) -> (i32, i32, i32, i32, i64, i64, i32) {
    %0 = vm.ext.i8.i32.s %a : i32 -> i32
    %1 = vm.ext.i8.i32.u %a : i32 -> i32
    %2 = vm.ext.i16.i32.s %a : i32 -> i32
    %3 = vm.ext.i16.i32.u %a : i32 -> i32
    %4 = vm.ext.i32.i64.s %a : i32 -> i64
    %5 = vm.ext.i32.i64.u %a : i32 -> i64
    %6 = vm.cmp.eq.i64 %b, %5 : i64
    vm.return %0, %1, %2, %3, %4, %5, %6 : i32, i32, i32, i32, i64, i64, i32
  }

  vm.func @float_ops(%a : f32, %b : f64, %i : i64) -> (f32, f64, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, f32, f32, f64, f32) {
    %0 = vm.erf.f32 %a : f32
    %1 = vm.erf.f64 %b : f64
    %3 = vm.cmp.eq.f32.u %a, %0 : f32
    %4 = vm.cmp.ne.f32.u %a, %0 : f32
    %5 = vm.cmp.lt.f32.u %a, %0 : f32
    %6 = vm.cmp.lte.f32.u %a, %0 : f32
    %7 = vm.cmp.nan.f32 %a : f32
    %8 = vm.cmp.eq.f64.u %b, %1 : f64
    %9 = vm.cmp.ne.f64.u %b, %1 : f64
    %10 = vm.cmp.lt.f64.u %b, %1 : f64
    %11 = vm.cmp.lte.f64.u %b, %1 : f64
    %12 = vm.cmp.nan.f64 %b : f64
    %13 = vm.cast.si64.f32 %i : i64 -> f32
    %14 = vm.cast.ui64.f32 %i : i64 -> f32
    %17 = vm.ext.f32.f64 %a : f32 -> f64
    %20 = vm.trunc.f64.f32 %b : f64 -> f32
    %21 = vm.cmp.lte.f64.o %b, %17 : f64
    %22 = vm.select.f64 %21, %17, %1 : f64
    vm.return %0, %1, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %22, %20 : f32, f64, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, f32, f32, f64, f32
  }

  vm.func @buffers(%buf : !vm.buffer, %off : i64, %len : i64, %v : i64, %x : f32, %y : f64) -> (i64, f32, f64, i64) {
    %0 = vm.buffer.load.i64 %buf[%off] : !vm.buffer -> i64
    vm.buffer.store.i64 %v, %buf[%off] : i64 -> !vm.buffer
    %1 = vm.buffer.load.f32 %buf[%off] : !vm.buffer -> f32
    vm.buffer.store.f32 %x, %buf[%off] : f32 -> !vm.buffer
    %2 = vm.buffer.load.f64 %buf[%off] : !vm.buffer -> f64
    vm.buffer.store.f64 %y, %buf[%off] : f64 -> !vm.buffer
    vm.buffer.fill.f32 %buf, %off, %len, %x : f32 -> !vm.buffer
    vm.buffer.fill.f64 %buf, %off, %len, %y : f64 -> !vm.buffer
    vm.buffer.fill.i64 %buf, %off, %len, %v : i64 -> !vm.buffer
    %3 = vm.buffer.hash %buf, %off, %len : !vm.buffer -> i64
    vm.return %0, %1, %2, %3 : i64, f32, f64, i64
  }

  vm.func @float_lists(%n : i32, %x : f32, %y : f64) -> (f32, f64, !vm.list<?>) {
    %l32 = vm.list.alloc %n : (i32) -> !vm.list<f32>
    %l64 = vm.list.alloc %n : (i32) -> !vm.list<f64>
    %var = vm.list.alloc %n : (i32) -> !vm.list<?>
    vm.list.resize %l32, %n : (!vm.list<f32>, i32)
    vm.list.resize %l64, %n : (!vm.list<f64>, i32)
    vm.list.set.f32 %l32, %n, %x : (!vm.list<f32>, i32, f32)
    vm.list.set.f64 %l64, %n, %y : (!vm.list<f64>, i32, f64)
    %a = vm.list.get.f32 %l32, %n : (!vm.list<f32>, i32) -> f32
    %b = vm.list.get.f64 %l64, %n : (!vm.list<f64>, i32) -> f64
    vm.list.set.ref %var, %n, %l32 : (!vm.list<?>, i32, !vm.list<f32>)
    vm.return %a, %b, %var : f32, f64, !vm.list<?>
  }

  vm.func @ref_casts(%a : !vm.ref<?>) -> (!vm.buffer, !vm.ref<?>, i32) {
    %b = vm.cast.any.ref %a : !vm.ref<?> -> !vm.buffer
    %c = vm.cast.ref.any %b : !vm.buffer -> !vm.ref<?>
    %d = vm.cmp.ne.ref %b, %b : !vm.buffer
    vm.return %b, %c, %d : !vm.buffer, !vm.ref<?>, i32
  }

  vm.func @debug_ops(%a : i32, %b : i64, %r : !vm.buffer) -> i32 {
    vm.trace "trace_event"(%a, %b, %r) : i32, i64, !vm.buffer
    vm.print "print_event"(%a, %r) : i32, !vm.buffer
    vm.cond_break %a, ^bb1(%b : i64)
  ^bb1(%c : i64):
    vm.break ^bb2(%c : i64)
  ^bb2(%d : i64):
    %e = vm.trunc.i64.i32 %d : i64 -> i32
    vm.return %e : i32
  }

  vm.func @imports(%a : i32, %b : i64, %r : !vm.ref<?>, %s : !vm.ref<?>) -> (i64, f32, i32, i32) {
    %0:2 = vm.call @native.scalar(%a, %b) : (i32, i64) -> (i64, f32)
    %1 = vm.call.variadic @native.spans(%a, [%r, %s, %r], [(%a, %b), (%a, %0#0)]) : (i32, !vm.ref<?> ..., tuple<i32, i64> ...) -> i32
    %2 = vm.import.resolved @native.maybe : i32
    vm.return %0#0, %0#1, %1, %2 : i64, f32, i32, i32
  }

  vm.func @yielding(%a : i32, %x : f64) -> (i32, f64) attributes {vm.yield} {
    %b = vm.call @native.wait(%a) : (i32) -> i32
    %y = vm.call.variadic @native.wait_spans([%a, %b, %a], %x) : (i32 ..., f64) -> f64
    vm.yield ^bb1(%b : i32)
  ^bb1(%c : i32):
    vm.call.yieldable @internal_yielder(%c, %y) : (i32, f64) -> ^bb2(i32, f64)
  ^bb2(%d : i32, %z : f64):
    vm.return %d, %z : i32, f64
  }

  vm.func private @internal_yielder(%a : i32, %x : f64) -> (i32, f64) attributes {vm.yield} {
    vm.yield ^bb1
  ^bb1:
    vm.return %a, %x : i32, f64
  }

  vm.func private @internal_callee(%a : i32, %b : i64, %c : f32, %d : f64, %r : !vm.buffer) -> (f64, !vm.buffer, i64, i32) attributes {inlining_policy = #util.inline.never} {
    vm.return %d, %r, %b, %a : f64, !vm.buffer, i64, i32
  }

  vm.func @internal_calls(%a : i32, %b : i64, %c : f32, %d : f64, %r : !vm.buffer) -> (f64, !vm.buffer, i64, i32) {
    %0:4 = vm.call @internal_callee(%a, %b, %c, %d, %r) : (i32, i64, f32, f64, !vm.buffer) -> (f64, !vm.buffer, i64, i32)
    %1:4 = vm.call @internal_callee(%0#3, %0#2, %c, %0#0, %0#1) : (i32, i64, f32, f64, !vm.buffer) -> (f64, !vm.buffer, i64, i32)
    vm.return %1#0, %1#1, %1#2, %1#3 : f64, !vm.buffer, i64, i32
  }

  vm.func @branch_table(%i : i32, %a : i64, %b : i64) -> i64 {
    vm.br_table %i {
      default: ^bb1(%a : i64),
      0: ^bb2(%b : i64),
      1: ^bb1(%b : i64),
      2: ^bb3
    }
  ^bb1(%x : i64):
    vm.return %x : i64
  ^bb2(%y : i64):
    %z = vm.add.i64 %y, %a : i64
    vm.br ^bb1(%z : i64)
  ^bb3:
    %c = vm.const.i32 3
    vm.fail %c, "unreachable case"
  }

  vm.func @rodata_and_lists(%n : i32) -> (!vm.buffer, !vm.list<?>, i32) {
    %buf = vm.const.ref.rodata @blob : !vm.buffer
    %c0 = vm.const.i64.zero
    %c8 = vm.const.i64 8
    %clone = vm.buffer.clone %buf, %c0, %c8, %n : !vm.buffer -> !vm.buffer
    %l = vm.list.alloc %n : (i32) -> !vm.list<?>
    vm.list.reserve %l, %n : (!vm.list<?>, i32)
    vm.list.resize %l, %n : (!vm.list<?>, i32)
    vm.list.set.ref %l, %n, %clone : (!vm.list<?>, i32, !vm.buffer)
    %g = vm.list.get.ref %l, %n : (!vm.list<?>, i32) -> !vm.buffer
    %s = vm.list.size %l : (!vm.list<?>) -> i32
    %any = vm.cast.ref.any %g : !vm.buffer -> !vm.ref<?>
    vm.global.store.ref %any, @g_any : !vm.ref<?>
    vm.return %buf, %l, %s : !vm.buffer, !vm.list<?>, i32
  }

  vm.export @direct_globals
  vm.export @switches
  vm.export @selects
  vm.export @integer_conversions
  vm.export @float_ops
  vm.export @buffers
  vm.export @float_lists
  vm.export @ref_casts
  vm.export @debug_ops
  vm.export @imports
  vm.export @yielding
  vm.export @internal_yielder
  vm.export @internal_callee
  vm.export @internal_calls
  vm.export @branch_table
  vm.export @rodata_and_lists
}
