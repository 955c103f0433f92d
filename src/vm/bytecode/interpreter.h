// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The bytecode interpreter: a register machine over verified VM bytecode (ISA 17).
//
// One loop runs every bytecode frame on a FrameStack, whichever BytecodeModule it belongs to:
// internal calls and calls into another bytecode module's exports push frames (no C++ recursion),
// imports of other modules go through Module::Call. Operand decoding is inline per opcode, and
// nothing is allocated per instruction; statuses are built only on error paths.
//
// The interpreter trusts the verifier (verifier.h): opcodes, operand bytes, register ordinals,
// 64-bit register alignment, branch targets, global offsets, ordinals and call signatures are
// all proven before a function can run. What depends on run-time values is checked here: null
// or mistyped refs, list/buffer/indirect-global bounds, division by zero.
#ifndef IREE_RT_VM_BYTECODE_INTERPRETER_H_
#define IREE_RT_VM_BYTECODE_INTERPRETER_H_

#include <cstdint>
#include <span>

#include "base/status.h"
#include "vm/bytecode/interpreter_frame.h"
#include "vm/value.h"

namespace iree_rt::vm::bytecode {

class BytecodeModuleState;
struct CompiledFunction;

// Pushes an entry frame (kFrameEntry) for |function| and stores |args| into its registers per the
// function's cconv (i/f: next i32 slot; I/F: next even slot pair; r: next ref slot, retained).
// |args| must already match the cconv (vm::CheckValues). Returns the frame offset.
base::Status EnterFunction(FrameStack& frames, const CompiledFunction& function,
                           BytecodeModuleState& state, std::span<const Value> args,
                           uint32_t* out_entry);

// Runs from the top frame until the entry frame |entry| returns; its results are written to
// |results| (sized to the function's result count). On error every frame down to and including
// |entry| is unwound (refs released) and the status carries a VM backtrace. On a yield returns
// DEFERRED with all frames kept and frames.suspended_entry = |entry|; call Execute again with the
// same entry to resume.
base::Status Execute(FrameStack& frames, uint32_t entry, std::span<Value> results);

}  // namespace iree_rt::vm::bytecode

#endif  // IREE_RT_VM_BYTECODE_INTERPRETER_H_
