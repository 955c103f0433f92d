// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Calls of every kind: internal (with i64/f64/ref arguments at full width), recursion, imports of
// a native module (plain, variadic, optional, failing) and of another bytecode module (vm_callee),
// yields directly and through call.yieldable, and failures deep in a call stack.
vm.module @calls {
  vm.import private @native.add(%a : i32, %b : i64) -> i64
  vm.import private @native.echo(%r : !vm.buffer) -> !vm.buffer
  vm.import private @native.count_refs(%tag : i32, %refs : !vm.buffer ...) -> i32
  vm.import private @native.sum_pairs(%pairs : tuple<i32, i64> ...) -> i64
  vm.import private @native.fail(%code : i32)
  vm.import private optional @native.missing(%a : i32) -> i32
  vm.import private optional @native.present(%a : i32) -> i32
  vm.import private @callee.twice(%a : i64, %b : i32) -> (i64, i32)
  vm.import private @callee.yield_add(%start : i32, %count : i32) -> i32 attributes {vm.yield}
  vm.import private @callee.fail_here(%code : i32)

  // ---- internal calls -------------------------------------------------------------------------
  vm.func private @mix(%a: i32, %b: i64, %c: i32, %d: f64, %e: !vm.buffer, %f: f32, %g: i64)
      -> (i64, i32, f64, !vm.buffer, f32, i64) attributes {inlining_policy = #util.inline.never} {
    %0 = vm.add.i64 %b, %g : i64
    %1 = vm.add.i32 %a, %c : i32
    %2 = vm.add.f64 %d, %d : f64
    %3 = vm.mul.f32 %f, %f : f32
    vm.return %0, %1, %2, %e, %3, %b : i64, i32, f64, !vm.buffer, f32, i64
  }
  vm.func @call_mix(%a: i32, %b: i64, %c: i32, %d: f64, %e: !vm.buffer, %f: f32, %g: i64)
      -> (i64, i32, f64, !vm.buffer, f32, i64) {
    %0:6 = vm.call @mix(%a, %b, %c, %d, %e, %f, %g)
        : (i32, i64, i32, f64, !vm.buffer, f32, i64) -> (i64, i32, f64, !vm.buffer, f32, i64)
    vm.return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5 : i64, i32, f64, !vm.buffer, f32, i64
  }
  vm.export @call_mix
  // iree-compile 3.13 hangs on recursive functions (its call-graph analysis does not terminate),
  // so each recursive function calls a `_stub` twin with the same signature; the tests patch
  // those call sites to the function itself before loading.
  vm.func @fib(%n: i32) -> i64 {
    %c2 = vm.const.i32 2
    %small = vm.cmp.lt.i32.s %n, %c2 : i32
    vm.cond_br %small, ^base, ^rec
  ^base:
    %r = vm.ext.i32.i64.s %n : i32 -> i64
    vm.return %r : i64
  ^rec:
    %c1 = vm.const.i32 1
    %n1 = vm.sub.i32 %n, %c1 : i32
    %n2 = vm.sub.i32 %n, %c2 : i32
    %a = vm.call @fib_stub(%n1) : (i32) -> i64
    %b = vm.call @fib_stub(%n2) : (i32) -> i64
    %s = vm.add.i64 %a, %b : i64
    vm.return %s : i64
  }
  vm.export @fib
  vm.func @fib_stub(%n: i32) -> i64 attributes {inlining_policy = #util.inline.never} {
    %r = vm.ext.i32.i64.s %n : i32 -> i64
    vm.return %r : i64
  }
  vm.export @fib_stub
  // Recurses |n| levels, then fails with |fail| (if non-zero) or returns the depth.
  vm.func @recurse(%n: i32, %fail: i32) -> i32 {
    %c0 = vm.const.i32 0
    %done = vm.cmp.eq.i32 %n, %c0 : i32
    vm.cond_br %done, ^bottom, ^deeper
  ^bottom:
    vm.cond_br %fail, ^fail, ^ret
  ^fail:
    vm.fail %fail, "bottom of the recursion"
  ^ret:
    vm.return %c0 : i32
  ^deeper:
    %c1 = vm.const.i32 1
    %n1 = vm.sub.i32 %n, %c1 : i32
    %r = vm.call @recurse_stub(%n1, %fail) : (i32, i32) -> i32
    %r1 = vm.add.i32 %r, %c1 : i32
    vm.return %r1 : i32
  }
  vm.export @recurse
  vm.func @recurse_stub(%n: i32, %fail: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    vm.return %n : i32
  }
  vm.export @recurse_stub
  // A ref passed down a recursion: every frame holds a reference while it runs.
  vm.func @hold_ref(%n: i32, %b: !vm.buffer) -> !vm.buffer {
    %c0 = vm.const.i32 0
    %done = vm.cmp.eq.i32 %n, %c0 : i32
    vm.cond_br %done, ^bottom, ^deeper
  ^bottom:
    vm.return %b : !vm.buffer
  ^deeper:
    %c1 = vm.const.i32 1
    %n1 = vm.sub.i32 %n, %c1 : i32
    %r = vm.call @hold_ref_stub(%n1, %b) : (i32, !vm.buffer) -> !vm.buffer
    vm.return %r : !vm.buffer
  }
  vm.export @hold_ref
  vm.func @hold_ref_stub(%n: i32, %b: !vm.buffer) -> !vm.buffer attributes {inlining_policy = #util.inline.never} {
    vm.return %b : !vm.buffer
  }
  vm.export @hold_ref_stub
  // A fixed chain of 4 nested calls (for small stack depth limits).
  vm.func private @chain3(%x: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %c1 = vm.const.i32 1
    %r = vm.add.i32 %x, %c1 : i32
    vm.return %r : i32
  }
  vm.func private @chain2(%x: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %r = vm.call @chain3(%x) : (i32) -> i32
    vm.return %r : i32
  }
  vm.func private @chain1(%x: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %r = vm.call @chain2(%x) : (i32) -> i32
    vm.return %r : i32
  }
  vm.func @chain(%x: i32) -> i32 {
    %r = vm.call @chain1(%x) : (i32) -> i32
    vm.return %r : i32
  }
  vm.export @chain

  // ---- native imports -------------------------------------------------------------------------
  vm.func @import_add(%a: i32, %b: i64) -> i64 {
    %0 = vm.call @native.add(%a, %b) : (i32, i64) -> i64
    vm.return %0 : i64
  }
  vm.export @import_add
  vm.func @import_echo(%r: !vm.buffer) -> !vm.buffer {
    %0 = vm.call @native.echo(%r) : (!vm.buffer) -> !vm.buffer
    vm.return %0 : !vm.buffer
  }
  vm.export @import_echo
  vm.func @import_variadic(%tag: i32, %a: !vm.buffer, %b: !vm.buffer, %x: i32, %y: i64) -> (i32, i32, i64) {
    %0 = vm.call.variadic @native.count_refs(%tag, [%a, %b, %a]) : (i32, !vm.buffer ...) -> i32
    %1 = vm.call.variadic @native.count_refs(%tag, []) : (i32, !vm.buffer ...) -> i32
    %2 = vm.call.variadic @native.sum_pairs([(%x, %y), (%x, %y), (%tag, %y)]) : (tuple<i32, i64> ...) -> i64
    vm.return %0, %1, %2 : i32, i32, i64
  }
  vm.export @import_variadic
  // 42 Args: over the 32 a load-time call site takes, so this call keeps the general path.
  vm.func @import_variadic_wide(%tag: i32, %a: !vm.buffer, %b: !vm.buffer) -> i32 {
    %0 = vm.call.variadic @native.count_refs(%tag, [%a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b]) : (i32, !vm.buffer ...) -> i32
    vm.return %0 : i32
  }
  vm.export @import_variadic_wide
  vm.func @import_fail(%code: i32) {
    vm.call @native.fail(%code) : (i32) -> ()
    vm.return
  }
  vm.export @import_fail
  vm.func @optional_resolved() -> (i32, i32) {
    %0 = vm.import.resolved @native.missing : i32
    %1 = vm.import.resolved @native.present : i32
    vm.return %0, %1 : i32, i32
  }
  vm.export @optional_resolved
  vm.func @call_missing(%a: i32) -> i32 {
    %0 = vm.call @native.missing(%a) : (i32) -> i32
    vm.return %0 : i32
  }
  vm.export @call_missing
  vm.func @call_present(%a: i32) -> i32 {
    %0 = vm.call @native.present(%a) : (i32) -> i32
    vm.return %0 : i32
  }
  vm.export @call_present

  // ---- bytecode imports -----------------------------------------------------------------------
  vm.func @import_twice(%a: i64, %b: i32) -> (i64, i32) {
    %0:2 = vm.call @callee.twice(%a, %b) : (i64, i32) -> (i64, i32)
    vm.return %0#0, %0#1 : i64, i32
  }
  vm.export @import_twice
  vm.func @import_yield(%start: i32, %count: i32) -> i32 {
    vm.call.yieldable @callee.yield_add(%start, %count) : (i32, i32) -> ^resume(i32)
  ^resume(%r: i32):
    %c1000 = vm.const.i32 1000
    %r1 = vm.add.i32 %r, %c1000 : i32
    vm.return %r1 : i32
  }
  vm.export @import_yield
  vm.func @import_fail_deep(%code: i32) {
    vm.call @callee.fail_here(%code) : (i32) -> ()
    vm.return
  }
  vm.export @import_fail_deep

  // ---- yields ---------------------------------------------------------------------------------
  // Yields n times, adding 1 each time; the result is start + n.
  vm.func @yield_loop(%start: i32, %n: i32, %b: !vm.buffer) -> (i32, !vm.buffer) {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    vm.br ^check(%c0, %start : i32, i32)
  ^check(%i: i32, %acc: i32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body, ^done
  ^body:
    %i1 = vm.add.i32 %i, %c1 : i32
    %acc1 = vm.add.i32 %acc, %c1 : i32
    vm.yield ^check(%i1, %acc1 : i32, i32)
  ^done:
    vm.return %acc, %b : i32, !vm.buffer
  }
  vm.export @yield_loop
  vm.func private @yield_twice(%x: i64) -> i64 attributes {inlining_policy = #util.inline.never} {
    vm.yield ^a
  ^a:
    vm.yield ^b
  ^b:
    %0 = vm.add.i64 %x, %x : i64
    vm.return %0 : i64
  }
  vm.func @call_yieldable(%x: i64) -> i64 {
    vm.call.yieldable @yield_twice(%x) : (i64) -> ^resume(i64)
  ^resume(%r: i64):
    %c1 = vm.const.i64 1
    %r1 = vm.add.i64 %r, %c1 : i64
    vm.return %r1 : i64
  }
  vm.export @call_yieldable

  // ---- misc -----------------------------------------------------------------------------------
  vm.func @trace_print(%a: i32, %b: !vm.buffer) -> i32 {
    vm.trace "trace"(%a, %b) : i32, !vm.buffer
    vm.print "print"(%a) : i32
    vm.return %a : i32
  }
  vm.export @trace_print
}
