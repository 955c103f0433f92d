// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One function (so the debug database is 1:1 with functions even in 3.13.0) whose ops carry
// every location kind; pcs are fixed by the op sizes (7 bytes each after the block marker).
vm.module @locations {
  vm.func @f(%x : i32) -> i32 {
    %0 = vm.add.i32 %x, %x : i32 loc("named_only")
    %1 = vm.mul.i32 %0, %x : i32 loc("named"("src/a.py":7:3))
    %2 = vm.sub.i32 %1, %x : i32 loc(fused["fa.mlir":1:2, "fb.mlir":3:4])
    %3 = vm.xor.i32 %2, %x : i32 loc(fused<"meta">["fc.mlir":5:6])
    %4 = vm.or.i32 %3, %x : i32 loc(callsite("callee.mlir":9:1 at "caller.mlir":10:2))
    %5 = vm.and.i32 %4, %x : i32 loc(unknown)
    vm.return %5 : i32 loc("ret.mlir":11:12)
  }
  vm.export @f
}
