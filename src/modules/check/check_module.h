// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The native `check` module: the expectations IREE's test programs call (check.expect_*),
// vm_format_facts.md §5.
//
// Module "check", version 0. Exports, with the calling conventions iree-compile 3.13.0 records for
// its (optional) imports, which the context compares byte for byte:
//   expect_true       0i_v      (i32)                          operand != 0
//   expect_false      0i_v      (i32)                          operand == 0
//   expect_all_true   0rr_v     (device, view)                 every element != 0
//   expect_eq         0rrr_v    (device, lhs, rhs)             same element type, shape and bytes
//   expect_almost_eq  0rrrff_v  (device, lhs, rhs, atol, rtol) same type and shape, then per
//       element (lhs actual, rhs expected, in double): equal, or both NaN, or rhs finite and
//       |lhs - rhs| <= atol + rtol * |rhs|
//
// A failed expectation is not an error: the function records a message (the reference's text,
// with both operands in buffer view text form) in the calling context's module state and returns
// OK, so the program runs on. ModuleState::TakeRecordedFailures then returns FAILED_PRECONDITION
// with every recorded message joined by newlines, and forgets them. Real errors are returned at
// once: INVALID_ARGUMENT for a null or wrongly typed view or device, and for an element type the
// function does not support (named in the message); errors reading a device-only buffer.
//
// expect_all_true accepts i8/i16/i32/i64 (signless, si, ui), f32, f64 and also i1 (bool8), which
// the compiler produces for tensor<...xi1> operands (the reference rejects i1).
// expect_almost_eq accepts f16, bf16, f32, f64 and f8E5M2, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ,
// f8E8M0FNU; it checks the element type only when the two views agree on type and shape.
// Buffers that cannot be mapped are copied to the host through the device argument's queue; the
// device may be null while every buffer is host-mappable.
// Operands print with hal::utils::FormatBufferView (at most 1024 elements each).
//
// Thread-safety: the module is immutable and may be shared; each context's state is used by one
// invocation at a time, as vm::Context guarantees.
#ifndef IREE_RT_MODULES_CHECK_CHECK_MODULE_H_
#define IREE_RT_MODULES_CHECK_CHECK_MODULE_H_

#include "base/ref_object.h"
#include "base/status.h"
#include "vm/module.h"

namespace iree_rt::modules::check {

// Creates the module. Register it in a context before the modules that import check.*; it needs
// the hal ref types registered with the instance (modules::hal::RegisterRefTypes) to receive
// devices and buffer views from programs, and finds them there by name when a context creates
// its state (so it also works from libiree_rt_tooling, api/check_plugin.h).
base::StatusOr<base::Ref<vm::Module>> CreateCheckModule();

}  // namespace iree_rt::modules::check

#endif  // IREE_RT_MODULES_CHECK_CHECK_MODULE_H_
