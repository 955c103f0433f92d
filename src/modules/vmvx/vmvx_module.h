// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The native `vmvx` module: the microkernels that VMVX executables (format vmvx-bytecode-fb,
// compiled with --iree-vmvx-enable-microkernels) import. Module "vmvx", version 0.
//
// Exports (cconvs as iree-compile 3.13.0 records them on its imports; offsets, strides and sizes
// are i64 counts of elements, never bytes):
//   {add,sub,mul,div}.2d.f32, {add,sub,mul,divs,divu,and,or,xor,shl,shrs,shru}.2d.i32
//       0rIIIrIIIrIIIII_v   (lhs, off, s0, s1, rhs, off, s0, s1, out, off, s0, s1, size0, size1)
//   {abs,ceil,floor,neg,exp,log,rsqrt}.2d.f32, ctlz.2d.i32, copy.2d.x{8,16,32,64}
//       0rIIIrIIIII_v       (in, off, s0, s1, out, off, s0, s1, size0, size1)
//   fill.2d.x32   0irIIII_v            (value, out, off, row stride, size0, size1)
//   mmt4d         0rIIrIIrIIIIIiiii_v  (lhs, off, row stride, rhs, .., out, .., M, N, K, M0, N0,
//                                        K0, flags: type f32f32f32 = 1 or s8s8s32 = 2, 0x100
//                                        accumulate)
//   pack          0rIIIrIIIIIIIIIIi_v  (in, off, s0, s1, out, off, s0, s1, in sizes 2, out sizes
//                                        4, padding value, flags: type f32 = 1, i8 = 2, i32 = 3,
//                                        f16 = 4, bf16 = 5; 0x100 transpose inner, 0x200 outer)
//   unpack        0rIIIrIIIIIIIIIi_v   (in, off, s0, s1, out, off, s0, s1, in sizes 4, out sizes
//                                        2, flags as pack's, without i8)
//
// The operands come from an untrusted executable: every buffer window is bounds-checked against
// its vm.buffer before any access (modules/vmvx/strided_view.h), so a bad offset, stride, size
// or flag is an error status naming the function and operand, never a stray access.
//
// Thread-safety: the module is immutable and keeps no per-context state; any number of contexts
// may use it concurrently.
#ifndef IREE_RT_MODULES_VMVX_VMVX_MODULE_H_
#define IREE_RT_MODULES_VMVX_VMVX_MODULE_H_

#include "base/ref_object.h"
#include "base/status.h"
#include "vm/module.h"

namespace iree_rt::modules::vmvx {

base::StatusOr<base::Ref<vm::Module>> CreateVmvxModule();

}  // namespace iree_rt::modules::vmvx

#endif  // IREE_RT_MODULES_VMVX_VMVX_MODULE_H_
