// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Hand-written VM IR (--compile-mode=vm) reaching opcodes the func pipeline does not emit:
// globals (direct and indirect), lists of every element kind, buffers, ref ops, switch/select,
// br_table, cond_br with remaps, f64 conversions, fail. Inputs are function arguments so the
// compiler cannot fold the ops away.
vm.module @vm_ops {
  vm.global.i32 private mutable @g_i32 : i32
  vm.global.i64 private mutable @g_i64 : i64
  vm.global.f32 private mutable @g_f32 : f32
  vm.global.f64 private mutable @g_f64 : f64
  vm.global.ref private mutable @g_ref : !vm.buffer
  vm.global.i32 private mutable @g_init = 42 : i32
  vm.global.i64 private mutable @g_init64 = 0x123456789A : i64
  vm.rodata private @ro_i32 dense<[10, 20, 30, 40]> : tensor<4xi32>
  vm.rodata private @ro_i8 dense<[1, -2, 3, -4, 5, -6, 7, -8]> : tensor<8xi8>

  // ---- globals --------------------------------------------------------------------------------
  vm.func @globals(%a: i32, %b: i64, %c: f32, %d: f64) -> (i32, i64, f32, f64, i32, i64) {
    vm.global.store.i32 %a, @g_i32 : i32
    vm.global.store.i64 %b, @g_i64 : i64
    vm.global.store.f32 %c, @g_f32 : f32
    vm.global.store.f64 %d, @g_f64 : f64
    %0 = vm.global.load.i32 @g_i32 : i32
    %1 = vm.global.load.i64 @g_i64 : i64
    %2 = vm.global.load.f32 @g_f32 : f32
    %3 = vm.global.load.f64 @g_f64 : f64
    %4 = vm.global.load.i32 @g_init : i32
    %5 = vm.global.load.i64 @g_init64 : i64
    vm.return %0, %1, %2, %3, %4, %5 : i32, i64, f32, f64, i32, i64
  }
  vm.export @globals
  // Counts calls: state persists across invocations of one context.
  vm.func @bump() -> i32 {
    %0 = vm.global.load.i32 @g_i32 : i32
    %c1 = vm.const.i32 1
    %1 = vm.add.i32 %0, %c1 : i32
    vm.global.store.i32 %1, @g_i32 : i32
    vm.return %1 : i32
  }
  vm.export @bump
  vm.func @globals_indirect(%a: i32, %b: i64) -> (i32, i64) {
    %p32 = vm.global.address @g_i32 : !util.ptr<i32>
    %p64 = vm.global.address @g_i64 : !util.ptr<i64>
    vm.global.store.indirect.i32 %a, %p32 : i32 -> !util.ptr<i32>
    vm.global.store.indirect.i64 %b, %p64 : i64 -> !util.ptr<i64>
    %0 = vm.global.load.indirect.i32 %p32 : !util.ptr<i32> -> i32
    %1 = vm.global.load.indirect.i64 %p64 : !util.ptr<i64> -> i64
    vm.return %0, %1 : i32, i64
  }
  vm.export @globals_indirect
  vm.func @global_ref(%b: !vm.buffer) -> (!vm.buffer, i32) {
    %old = vm.global.load.ref @g_ref : !vm.buffer
    %nz = vm.cmp.nz.ref %old : !vm.buffer
    vm.global.store.ref %b, @g_ref : !vm.buffer
    %new = vm.global.load.ref @g_ref : !vm.buffer
    vm.return %new, %nz : !vm.buffer, i32
  }
  vm.export @global_ref

  // ---- lists ----------------------------------------------------------------------------------
  // Writes v into element i of a fresh list<i8>/<i16>/<i32>/<i64> of size n and reads it back.
  vm.func @list_ints(%n: i32, %i: i32, %v: i32, %w: i64) -> (i32, i32, i32, i64, i32) {
    %c4 = vm.const.i32 4
    %l8 = vm.list.alloc %c4 : (i32) -> !vm.list<i8>
    vm.list.resize %l8, %n : (!vm.list<i8>, i32)
    vm.list.set.i32 %l8, %i, %v : (!vm.list<i8>, i32, i32)
    %0 = vm.list.get.i32 %l8, %i : (!vm.list<i8>, i32) -> i32
    %l16 = vm.list.alloc %c4 : (i32) -> !vm.list<i16>
    vm.list.resize %l16, %n : (!vm.list<i16>, i32)
    vm.list.set.i32 %l16, %i, %v : (!vm.list<i16>, i32, i32)
    %1 = vm.list.get.i32 %l16, %i : (!vm.list<i16>, i32) -> i32
    %l32 = vm.list.alloc %c4 : (i32) -> !vm.list<i32>
    vm.list.reserve %l32, %n : (!vm.list<i32>, i32)
    vm.list.resize %l32, %n : (!vm.list<i32>, i32)
    vm.list.set.i32 %l32, %i, %v : (!vm.list<i32>, i32, i32)
    %2 = vm.list.get.i32 %l32, %i : (!vm.list<i32>, i32) -> i32
    %l64 = vm.list.alloc %c4 : (i32) -> !vm.list<i64>
    vm.list.resize %l64, %n : (!vm.list<i64>, i32)
    vm.list.set.i64 %l64, %i, %w : (!vm.list<i64>, i32, i64)
    %3 = vm.list.get.i64 %l64, %i : (!vm.list<i64>, i32) -> i64
    %4 = vm.list.size %l64 : (!vm.list<i64>) -> i32
    vm.return %0, %1, %2, %3, %4 : i32, i32, i32, i64, i32
  }
  vm.export @list_ints
  // Conversions between the op type and the element type (i64 op on an i32 list and back,
  // f32 op on an f64 list).
  vm.func @list_convert(%w: i64, %f: f32) -> (i64, i32, f64, f32) {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %l32 = vm.list.alloc %c1 : (i32) -> !vm.list<i32>
    vm.list.resize %l32, %c1 : (!vm.list<i32>, i32)
    vm.list.set.i64 %l32, %c0, %w : (!vm.list<i32>, i32, i64)
    %0 = vm.list.get.i64 %l32, %c0 : (!vm.list<i32>, i32) -> i64
    %1 = vm.list.get.i32 %l32, %c0 : (!vm.list<i32>, i32) -> i32
    %lf = vm.list.alloc %c1 : (i32) -> !vm.list<f64>
    vm.list.resize %lf, %c1 : (!vm.list<f64>, i32)
    vm.list.set.f32 %lf, %c0, %f : (!vm.list<f64>, i32, f32)
    %2 = vm.list.get.f64 %lf, %c0 : (!vm.list<f64>, i32) -> f64
    %3 = vm.list.get.f32 %lf, %c0 : (!vm.list<f64>, i32) -> f32
    vm.return %0, %1, %2, %3 : i64, i32, f64, f32
  }
  vm.export @list_convert
  // A variant list holding a buffer, an i32 and an f64; returned to the host.
  vm.func @list_variant(%b: !vm.buffer, %v: i32, %d: f64) -> (!vm.list<?>, !vm.buffer, i32) {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %c3 = vm.const.i32 3
    %l = vm.list.alloc %c3 : (i32) -> !vm.list<?>
    vm.list.resize %l, %c3 : (!vm.list<?>, i32)
    vm.list.set.ref %l, %c0, %b : (!vm.list<?>, i32, !vm.buffer)
    vm.list.set.i32 %l, %c1, %v : (!vm.list<?>, i32, i32)
    vm.list.set.f64 %l, %c2, %d : (!vm.list<?>, i32, f64)
    %r = vm.list.get.ref %l, %c0 : (!vm.list<?>, i32) -> !vm.buffer
    %x = vm.list.get.i32 %l, %c1 : (!vm.list<?>, i32) -> i32
    vm.return %l, %r, %x : !vm.list<?>, !vm.buffer, i32
  }
  vm.export @list_variant
  // list.get.ref of an element with another type reads as null.
  vm.func @list_get_ref_mismatch(%b: !vm.buffer) -> i32 {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %l = vm.list.alloc %c1 : (i32) -> !vm.list<?>
    vm.list.resize %l, %c1 : (!vm.list<?>, i32)
    vm.list.set.ref %l, %c0, %b : (!vm.list<?>, i32, !vm.buffer)
    %r = vm.list.get.ref %l, %c0 : (!vm.list<?>, i32) -> !vm.list<i32>
    %nz = vm.cmp.nz.ref %r : !vm.list<i32>
    vm.return %nz : i32
  }
  vm.export @list_get_ref_mismatch
  vm.func @list_get_oob(%n: i32, %i: i32) -> i32 {
    %l = vm.list.alloc %n : (i32) -> !vm.list<i32>
    vm.list.resize %l, %n : (!vm.list<i32>, i32)
    %0 = vm.list.get.i32 %l, %i : (!vm.list<i32>, i32) -> i32
    vm.return %0 : i32
  }
  vm.export @list_get_oob
  vm.func @list_null(%l: !vm.list<i32>) -> i32 {
    %0 = vm.list.size %l : (!vm.list<i32>) -> i32
    vm.return %0 : i32
  }
  vm.export @list_null

  // ---- buffers --------------------------------------------------------------------------------
  // Stores then loads every width at element index i of a fresh n-byte buffer.
  vm.func @buffer_rw(%n: i64, %i: i64, %v: i32, %w: i64, %f: f32, %d: f64)
      -> (i32, i32, i32, i32, i32, i64, f32, f64, i64) {
    %c0 = vm.const.i32 0
    %buf = vm.buffer.alloc %n, %c0 : !vm.buffer
    vm.buffer.store.i8 %v, %buf[%i] : i32 -> !vm.buffer
    %0 = vm.buffer.load.i8.s %buf[%i] : !vm.buffer -> i32
    %1 = vm.buffer.load.i8.u %buf[%i] : !vm.buffer -> i32
    vm.buffer.store.i16 %v, %buf[%i] : i32 -> !vm.buffer
    %2 = vm.buffer.load.i16.s %buf[%i] : !vm.buffer -> i32
    %3 = vm.buffer.load.i16.u %buf[%i] : !vm.buffer -> i32
    vm.buffer.store.i32 %v, %buf[%i] : i32 -> !vm.buffer
    %4 = vm.buffer.load.i32 %buf[%i] : !vm.buffer -> i32
    vm.buffer.store.i64 %w, %buf[%i] : i64 -> !vm.buffer
    %5 = vm.buffer.load.i64 %buf[%i] : !vm.buffer -> i64
    vm.buffer.store.f32 %f, %buf[%i] : f32 -> !vm.buffer
    %6 = vm.buffer.load.f32 %buf[%i] : !vm.buffer -> f32
    vm.buffer.store.f64 %d, %buf[%i] : f64 -> !vm.buffer
    %7 = vm.buffer.load.f64 %buf[%i] : !vm.buffer -> f64
    %8 = vm.buffer.length %buf : !vm.buffer -> i64
    vm.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i64, f32, f64, i64
  }
  vm.export @buffer_rw
  // Fills, copies, clones, compares and hashes; the buffer is returned for the host to inspect.
  vm.func @buffer_bulk(%v: i32, %w: i64, %f: f32) -> (!vm.buffer, !vm.buffer, i32, i32, i64) {
    %c0 = vm.const.i32 0
    %c0_64 = vm.const.i64 0
    %c1_64 = vm.const.i64 1
    %c2_64 = vm.const.i64 2
    %c4_64 = vm.const.i64 4
    %c8_64 = vm.const.i64 8
    %c16_64 = vm.const.i64 16
    %c32_64 = vm.const.i64 32
    %c6_64 = vm.const.i64 6
    %c28_64 = vm.const.i64 28
    %buf = vm.buffer.alloc %c32_64, %c0 : !vm.buffer
    vm.buffer.fill.i8 %buf, %c0_64, %c4_64, %v : i32 -> !vm.buffer
    vm.buffer.fill.i16 %buf, %c2_64, %c2_64, %v : i32 -> !vm.buffer
    vm.buffer.fill.i32 %buf, %c2_64, %c1_64, %v : i32 -> !vm.buffer
    vm.buffer.fill.i64 %buf, %c2_64, %c1_64, %w : i64 -> !vm.buffer
    vm.buffer.fill.f32 %buf, %c6_64, %c1_64, %f : f32 -> !vm.buffer
    %ro = vm.const.ref.rodata @ro_i32 : !vm.buffer
    vm.buffer.copy %ro, %c4_64, %buf, %c28_64, %c4_64 : !vm.buffer -> !vm.buffer
    %clone = vm.buffer.clone %buf, %c8_64, %c16_64, %c0 : !vm.buffer -> !vm.buffer
    %eq = vm.buffer.compare %buf, %c8_64, %clone, %c0_64, %c16_64 : !vm.buffer, !vm.buffer
    %ne = vm.buffer.compare %buf, %c0_64, %clone, %c0_64, %c16_64 : !vm.buffer, !vm.buffer
    %hash = vm.buffer.hash %buf, %c0_64, %c32_64 : !vm.buffer -> i64
    vm.return %buf, %clone, %eq, %ne, %hash : !vm.buffer, !vm.buffer, i32, i32, i64
  }
  vm.export @buffer_bulk
  vm.func @rodata_load(%i: i64) -> (i32, i32, !vm.buffer) {
    %ro = vm.const.ref.rodata @ro_i32 : !vm.buffer
    %ro8 = vm.const.ref.rodata @ro_i8 : !vm.buffer
    %0 = vm.buffer.load.i32 %ro[%i] : !vm.buffer -> i32
    %1 = vm.buffer.load.i8.s %ro8[%i] : !vm.buffer -> i32
    vm.return %0, %1, %ro : i32, i32, !vm.buffer
  }
  vm.export @rodata_load
  vm.func @rodata_store(%v: i32) {
    %c0 = vm.const.i64 0
    %ro = vm.const.ref.rodata @ro_i32 : !vm.buffer
    vm.buffer.store.i32 %v, %ro[%c0] : i32 -> !vm.buffer
    vm.return
  }
  vm.export @rodata_store
  vm.func @buffer_load_i32(%b: !vm.buffer, %i: i64) -> i32 {
    %0 = vm.buffer.load.i32 %b[%i] : !vm.buffer -> i32
    vm.return %0 : i32
  }
  vm.export @buffer_load_i32
  vm.func @buffer_copy(%src: !vm.buffer, %so: i64, %dst: !vm.buffer, %do: i64, %n: i64) {
    vm.buffer.copy %src, %so, %dst, %do, %n : !vm.buffer -> !vm.buffer
    vm.return
  }
  vm.export @buffer_copy

  // ---- refs -----------------------------------------------------------------------------------
  vm.func @ref_ops(%c: i32, %a: !vm.buffer, %b: !vm.buffer) -> (!vm.buffer, i32, i32, i32, !vm.buffer) {
    %sel = vm.select.ref %c, %a, %b : !vm.buffer
    %eq = vm.cmp.eq.ref %sel, %a : !vm.buffer
    %ne = vm.cmp.ne.ref %sel, %b : !vm.buffer
    %null = vm.const.ref.zero : !vm.buffer
    %nz = vm.cmp.nz.ref %null : !vm.buffer
    %sw = vm.switch.ref %c[%a, %b] else %null : !vm.buffer
    vm.return %sel, %eq, %ne, %nz, %sw : !vm.buffer, i32, i32, i32, !vm.buffer
  }
  vm.export @ref_ops
  // cast.any.ref: the dynamic type must match (a buffer passed as a list fails).
  vm.func @cast_to_list(%r: !vm.ref<?>) -> i32 {
    %l = vm.cast.any.ref %r : !vm.ref<?> -> !vm.list<i32>
    %nz = vm.cmp.nz.ref %l : !vm.list<i32>
    vm.return %nz : i32
  }
  vm.export @cast_to_list

  // ---- select / switch ------------------------------------------------------------------------
  vm.func @switches(%i: i32, %x: i64, %y: i64, %f: f32, %d: f64) -> (i32, i64, f32, f64, i64, f32) {
    %c10 = vm.const.i32 10
    %c20 = vm.const.i32 20
    %c30 = vm.const.i32 30
    %c_1 = vm.const.i32 -1
    %0 = vm.switch.i32 %i[%c10, %c20, %c30] else %c_1 : i32
    %k = vm.const.i64 0x100000000
    %1 = vm.switch.i64 %i[%x, %y, %k] else %k : i64
    %f0 = vm.const.f32 0.5
    %2 = vm.switch.f32 %i[%f, %f0] else %f0 : f32
    %d0 = vm.const.f64 0.25
    %3 = vm.switch.f64 %i[%d0, %d] else %d0 : f64
    %4 = vm.select.i64 %i, %x, %y : i64
    %5 = vm.select.f32 %i, %f, %f0 : f32
    vm.return %0, %1, %2, %3, %4, %5 : i32, i64, f32, f64, i64, f32
  }
  vm.export @switches

  // ---- control flow ---------------------------------------------------------------------------
  vm.func @br_table(%i: i32) -> i32 {
    %c100 = vm.const.i32 100
    %c200 = vm.const.i32 200
    %c300 = vm.const.i32 300
    vm.br_table %i {
      default: ^bb1(%c300 : i32),
      0: ^bb1(%c100 : i32),
      1: ^bb2,
      2: ^bb1(%c200 : i32)
    }
  ^bb1(%r: i32):
    vm.return %r : i32
  ^bb2:
    %c7 = vm.const.i32 7
    vm.return %c7 : i32
  }
  vm.export @br_table
  // Swaps (a, b) n times through block arguments: the remap list has a cycle.
  vm.func @swap_loop(%n: i32, %a: i32, %b: i64) -> (i32, i64) {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    vm.br ^loop(%c0, %a, %b : i32, i32, i64)
  ^loop(%i: i32, %x: i32, %y: i64):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    %i1 = vm.add.i32 %i, %c1 : i32
    %y32 = vm.trunc.i64.i32 %y : i64 -> i32
    %x64 = vm.ext.i32.i64.s %x : i32 -> i64
    vm.cond_br %more, ^loop(%i1, %y32, %x64 : i32, i32, i64), ^exit(%x, %y : i32, i64)
  ^exit(%rx: i32, %ry: i64):
    vm.return %rx, %ry : i32, i64
  }
  vm.export @swap_loop
  // Ref block arguments swapped in a cycle.
  vm.func @swap_refs(%n: i32, %a: !vm.buffer, %b: !vm.buffer) -> (!vm.buffer, !vm.buffer) {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    vm.br ^loop(%c0, %a, %b : i32, !vm.buffer, !vm.buffer)
  ^loop(%i: i32, %x: !vm.buffer, %y: !vm.buffer):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    %i1 = vm.add.i32 %i, %c1 : i32
    vm.cond_br %more, ^loop(%i1, %y, %x : i32, !vm.buffer, !vm.buffer), ^exit(%x, %y : !vm.buffer, !vm.buffer)
  ^exit(%rx: !vm.buffer, %ry: !vm.buffer):
    vm.return %rx, %ry : !vm.buffer, !vm.buffer
  }
  vm.export @swap_refs
  vm.func @fail_with(%code: i32) {
    vm.fail %code, "failed on purpose"
  }
  vm.export @fail_with

  // ---- integer edge cases not reachable from arith ---------------------------------------------
  vm.func @int_misc(%a: i32, %b: i64) -> (i32, i32, i32, i32, i32, i32, i64, i64, i32) {
    %0 = vm.trunc.i32.i8 %a : i32 -> i32
    %1 = vm.trunc.i32.i16 %a : i32 -> i32
    %2 = vm.ext.i8.i32.s %a : i32 -> i32
    %3 = vm.ext.i8.i32.u %a : i32 -> i32
    %4 = vm.ext.i16.i32.s %a : i32 -> i32
    %5 = vm.ext.i16.i32.u %a : i32 -> i32
    %6 = vm.ext.i32.i64.u %a : i32 -> i64
    %7 = vm.not.i64 %b : i64
    %8 = vm.cmp.nz.i64 %b : i64
    vm.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i32, i64, i64, i32
  }
  vm.export @int_misc
  vm.func @div_i32(%a: i32, %b: i32) -> (i32, i32, i32, i32) {
    %0 = vm.div.i32.s %a, %b : i32
    %1 = vm.rem.i32.s %a, %b : i32
    %2 = vm.div.i32.u %a, %b : i32
    %3 = vm.rem.i32.u %a, %b : i32
    vm.return %0, %1, %2, %3 : i32, i32, i32, i32
  }
  vm.export @div_i32
  vm.func @div_i64(%a: i64, %b: i64) -> (i64, i64, i64, i64) {
    %0 = vm.div.i64.s %a, %b : i64
    %1 = vm.rem.i64.s %a, %b : i64
    %2 = vm.div.i64.u %a, %b : i64
    %3 = vm.rem.i64.u %a, %b : i64
    vm.return %0, %1, %2, %3 : i64, i64, i64, i64
  }
  vm.export @div_i64

  // ---- float conversions ----------------------------------------------------------------------
  vm.func @f32_casts(%f: f32) -> (i32, i32, i64, i64, i32) {
    %0 = vm.cast.f32.si32 %f : f32 -> i32
    %1 = vm.cast.f32.ui32 %f : f32 -> i32
    %2 = vm.cast.f32.si64 %f : f32 -> i64
    %3 = vm.cast.f32.ui64 %f : f32 -> i64
    %4 = vm.bitcast.f32.i32 %f : f32 -> i32
    vm.return %0, %1, %2, %3, %4 : i32, i32, i64, i64, i32
  }
  vm.export @f32_casts
  vm.func @f64_casts(%d: f64, %w: i64, %f: f32) -> (i64, i64, f64, f64, f32, i64, f64) {
    %0 = vm.cast.f64.si64 %d : f64 -> i64
    %1 = vm.cast.f64.ui64 %d : f64 -> i64
    %2 = vm.cast.si64.f64 %w : i64 -> f64
    %3 = vm.cast.ui64.f64 %w : i64 -> f64
    %4 = vm.trunc.f64.f32 %d : f64 -> f32
    %5 = vm.bitcast.f64.i64 %d : f64 -> i64
    %6 = vm.ext.f32.f64 %f : f32 -> f64
    vm.return %0, %1, %2, %3, %4, %5, %6 : i64, i64, f64, f64, f32, i64, f64
  }
  vm.export @f64_casts
  vm.func @f_misc(%a: f32, %b: f32, %d: f64) -> (f32, f32, i32, i32, f64, f64, i32, f32) {
    %0 = vm.neg.f32 %a : f32
    %1 = vm.abs.f32 %a : f32
    %2 = vm.cmp.nan.f32 %a : f32
    %3 = vm.cmp.lte.f32.o %a, %b : f32
    %4 = vm.rsqrt.f64 %d : f64
    %5 = vm.min.f64 %d, %d : f64
    %6 = vm.cmp.eq.f64.u %d, %d : f64
    %7 = vm.erf.f32 %a : f32
    vm.return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, i32, i32, f64, f64, i32, f32
  }
  vm.export @f_misc

  // ---- remaining op variants (each result checked against C++ reference math) ----------------
  vm.func @f32_more(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
    %0 = vm.atan.f32 %x : f32
    %1 = vm.cos.f32 %x : f32
    %2 = vm.exp2.f32 %x : f32
    %3 = vm.expm1.f32 %x : f32
    %4 = vm.log10.f32 %y : f32
    %5 = vm.log1p.f32 %y : f32
    %6 = vm.log2.f32 %y : f32
    %7 = vm.rsqrt.f32 %y : f32
    %8 = vm.add.f32 %x, %y : f32
    %9 = vm.sub.f32 %x, %y : f32
    %10 = vm.div.f32 %x, %y : f32
    vm.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
  }
  vm.export @f32_more
  vm.func @f64_more(%x: f64, %y: f64, %c: i32) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) {
    %0 = vm.abs.f64 %x : f64
    %1 = vm.atan.f64 %x : f64
    %2 = vm.atan2.f64 %x, %y : f64
    %3 = vm.ceil.f64 %x : f64
    %4 = vm.floor.f64 %x : f64
    %5 = vm.cos.f64 %x : f64
    %6 = vm.sin.f64 %x : f64
    %7 = vm.exp2.f64 %x : f64
    %8 = vm.expm1.f64 %x : f64
    %9 = vm.log.f64 %y : f64
    %10 = vm.log10.f64 %y : f64
    %11 = vm.log1p.f64 %y : f64
    %12 = vm.log2.f64 %y : f64
    %13 = vm.neg.f64 %x : f64
    %14 = vm.pow.f64 %y, %x : f64
    %15 = vm.tanh.f64 %x : f64
    %16 = vm.erf.f64 %x : f64
    %17 = vm.fma.f64 %x, %y, %x : f64
    %18 = vm.sub.f64 %x, %y : f64
    %19 = vm.select.f64 %c, %x, %y : f64
    %zero = vm.const.f64.zero
    %20 = vm.max.f64 %zero, %x : f64
    vm.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20 : f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64
  }
  vm.export @f64_more
  // 12 predicates on (x, y): 1/0 each.
  vm.func @cmp_more(%x: f32, %y: f32, %d: f64, %e: f64, %a: i32, %b: i32, %w: i64, %v: i64)
      -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
    %0 = vm.cmp.eq.f32.u %x, %y : f32
    %1 = vm.cmp.lte.f32.u %x, %y : f32
    %2 = vm.cmp.ne.f32.o %x, %y : f32
    %3 = vm.cmp.eq.f64.o %d, %e : f64
    %4 = vm.cmp.ne.f64.o %d, %e : f64
    %5 = vm.cmp.ne.f64.u %d, %e : f64
    %6 = vm.cmp.lt.f64.u %d, %e : f64
    %7 = vm.cmp.lte.f64.o %d, %e : f64
    %8 = vm.cmp.nan.f64 %d : f64
    %9 = vm.cmp.lt.i32.u %a, %b : i32
    %10 = vm.cmp.ne.i32 %a, %b : i32
    %11 = vm.cmp.eq.i64 %w, %v : i64
    vm.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
  }
  vm.export @cmp_more
  vm.func @int_more(%a: i32, %b: i32, %c: i32, %w: i64, %v: i64)
      -> (i32, i32, i32, i32, i32, i64, i64, i64, i64, f32, f32, i32, i64, f32) {
    %0 = vm.fma.i32 %a, %b, %c : i32
    %1 = vm.max.i32.s %a, %b : i32
    %2 = vm.min.i32.u %a, %b : i32
    %3 = vm.not.i32 %a : i32
    %4 = vm.select.i32 %c, %a, %b : i32
    %5 = vm.min.i64.s %w, %v : i64
    %6 = vm.max.i64.u %w, %v : i64
    %7 = vm.or.i64 %w, %v : i64
    %8 = vm.and.i64 %w, %v : i64
    %9 = vm.cast.si64.f32 %w : i64 -> f32
    %10 = vm.cast.ui32.f32 %a : i32 -> f32
    %nz = vm.cmp.nz.i32 %c : i32
    %11 = vm.bitcast.i64.f64 %w : i64 -> f64
    %12 = vm.bitcast.f64.i64 %11 : f64 -> i64
    %13 = vm.bitcast.i32.f32 %a : i32 -> f32
    vm.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %nz, %12, %13 : i32, i32, i32, i32, i32, i64, i64, i64, i64, f32, f32, i32, i64, f32
  }
  vm.export @int_more
  // Indirect globals with host-chosen byte offsets / ref ordinals (an i32 is accepted as the
  // address operand), so bounds checks can be reached.
  vm.func @indirect_more(%off32: i32, %off64: i32, %ord: i32, %a: i32, %w: i64, %x: f32, %d: f64,
                         %b: !vm.buffer) -> (i32, i64, f32, f64, !vm.buffer) {
    vm.global.store.indirect.i32 %a, %off32 : i32 -> i32
    %0 = vm.global.load.indirect.i32 %off32 : i32 -> i32
    vm.global.store.indirect.i64 %w, %off64 : i64 -> i32
    %1 = vm.global.load.indirect.i64 %off64 : i32 -> i64
    vm.global.store.indirect.f32 %x, %off32 : f32 -> i32
    %2 = vm.global.load.indirect.f32 %off32 : i32 -> f32
    vm.global.store.indirect.f64 %d, %off64 : f64 -> i32
    %3 = vm.global.load.indirect.f64 %off64 : i32 -> f64
    vm.global.store.indirect.ref %b, %ord : !vm.buffer -> i32
    %4 = vm.global.load.indirect.ref %ord : i32 -> !vm.buffer
    vm.return %0, %1, %2, %3, %4 : i32, i64, f32, f64, !vm.buffer
  }
  vm.export @indirect_more
  vm.func @fill_f64(%d: f64) -> !vm.buffer {
    %c0 = vm.const.i32 0
    %c0_64 = vm.const.i64 0
    %c3_64 = vm.const.i64 3
    %c24 = vm.const.i64 24
    %buf = vm.buffer.alloc %c24, %c0 : !vm.buffer
    vm.buffer.fill.f64 %buf, %c0_64, %c3_64, %d : f64 -> !vm.buffer
    vm.return %buf : !vm.buffer
  }
  vm.export @fill_f64
  vm.func @debug_breaks(%c: i32, %a: i32) -> i32 {
    vm.cond_break %c, ^next(%a : i32)
  ^next(%x: i32):
    vm.break ^done(%x : i32)
  ^done(%y: i32):
    vm.return %y : i32
  }
  vm.export @debug_breaks
}
