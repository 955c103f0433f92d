// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Globals and lists through the full pipeline (util dialect): an initializer, mutable
// globals of every width and a ref global, typed and variant lists, and a loop that fills a
// list. Lowers to global.load/store.*, list.*, and the __init export.
util.global private mutable @counter : i64 = 5 : i64
util.global private mutable @scale : f32 = 1.5 : f32
util.global private mutable @flag : i32 = 1 : i32
util.global private mutable @byte : i8 = 3 : i8
util.global private mutable @saved : !util.list<?>

util.initializer {
  %c4 = arith.constant 4 : index
  %list = util.list.create %c4 : !util.list<?>
  util.global.store %list, @saved : !util.list<?>
  util.return
}

func.func @bump(%delta: i64) -> (i64, f32) {
  %v = util.global.load @counter : i64
  %n = arith.addi %v, %delta : i64
  util.global.store %n, @counter : i64
  %s = util.global.load @scale : f32
  %t = arith.mulf %s, %s : f32
  util.global.store %t, @scale : f32
  %b = util.global.load @byte : i8
  %b2 = arith.addi %b, %b : i8
  util.global.store %b2, @byte : i8
  return %n, %t : i64, f32
}

func.func @fill(%n: index, %x: i64) -> !util.list<i64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %list = util.list.create %n : !util.list<i64>
  util.list.resize %list, %n : !util.list<i64>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %v = arith.muli %ii, %x : i64
    util.list.set %list[%i], %v : !util.list<i64>
  }
  return %list : !util.list<i64>
}

func.func @sum(%list: !util.list<i64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %size = util.list.size %list : !util.list<i64>
  %total = scf.for %i = %c0 to %size step %c1 iter_args(%acc = %zero) -> (i64) {
    %v = util.list.get %list[%i] : !util.list<i64>
    %a = arith.addi %acc, %v : i64
    scf.yield %a : i64
  }
  return %total : i64
}

func.func @stash(%item: !util.list<i64>, %f: f32) -> !util.list<?> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %saved = util.global.load @saved : !util.list<?>
  util.list.resize %saved, %c2 : !util.list<?>
  util.list.set %saved[%c0], %item : !util.list<i64> -> !util.list<?>
  util.list.set %saved[%c1], %f : f32 -> !util.list<?>
  %back = util.list.get %saved[%c0] : !util.list<?> -> !util.list<i64>
  %flag = util.global.load @flag : i32
  util.global.store %flag, @flag : i32
  return %saved : !util.list<?>
}
