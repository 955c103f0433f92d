// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/bytecode/interpreter_frame.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "base/fault_hook.h"
#include "vm/bytecode/bytecode_module.h"

namespace iree_rt::vm::bytecode {

namespace {

constexpr size_t kInitialBytes = 16 * 1024;
constexpr size_t kArenaAlignment = 16;

}  // namespace

FrameStack* FrameStack::Of(Stack& stack) {
  if (Stack::Extension* extension = stack.extension()) return Cast(extension);
  auto frames = std::make_unique<FrameStack>(stack);
  FrameStack* raw = frames.get();
  stack.set_extension(std::move(frames));
  return raw;
}

FrameStack::~FrameStack() {
  // A stack dropped while suspended (the host gave up on a yielded call) still owns refs.
  while (top_ != kNoFrame) Pop();
  std::free(base_);
}

bool FrameStack::Grow(size_t needed) {
  if (needed > kMaxBytes) return false;
  size_t capacity = std::max(capacity_ * 2, kInitialBytes);
  while (capacity < needed) capacity *= 2;
  capacity = std::min(capacity, kMaxBytes);
  auto* grown = base::AllocationFaultInjected()
                    ? nullptr
                    : static_cast<uint8_t*>(std::aligned_alloc(kArenaAlignment, capacity));
  if (grown == nullptr) return false;
  // Frames hold no self-pointers and RefSlots are plain pairs, so the arena moves bytewise.
  if (used_ != 0) std::memcpy(grown, base_, used_);
  std::free(base_);
  base_ = grown;
  capacity_ = capacity;
  return true;
}

base::Status FrameStack::Push(const CompiledFunction& function, BytecodeModuleState* state,
                              uint32_t flags, uint32_t* out_offset) {
  const size_t needed = used_ + function.frame_bytes;
  if (needed > capacity_ && !Grow(needed)) {
    if (needed <= kMaxBytes) {  // within the limit: the host allocation failed
      return base::ResourceExhaustedError("out of host memory growing the VM frame arena to ",
                                          needed, " bytes (calling ", function.name, ")");
    }
    return base::ResourceExhaustedError("VM stack overflow: frames need more than ", kMaxBytes,
                                        " bytes (calling ", function.name, ")");
  }
  RT_RETURN_IF_ERROR(stack_.Enter());
  stack_.Leave();  // TryPush counts it again
  const bool pushed = TryPush(&function, function.frame_bytes, function.i32_bytes,
                              function.ref_slots, state, flags, out_offset);
  return pushed ? base::Status() : base::InternalError("frame push failed after growing the arena");
}

void FrameStack::UnwindThrough(uint32_t offset) {
  while (top_ != kNoFrame && top_ >= offset) Pop();
  if (suspended_entry != kNoFrame && suspended_entry >= offset) suspended_entry = kNoFrame;
}

std::string FormatBacktrace(const FrameStack& frames, uint32_t entry) {
  std::string text = "VM backtrace:";
  int depth = 0;
  for (uint32_t offset = frames.top(); offset != kNoFrame; offset = frames.at(offset)->caller) {
    const Frame* frame = frames.at(offset);
    const BytecodeModule& module = frame->state->module();
    char index[16];
    std::snprintf(index, sizeof(index), "[%2d]", depth++);
    std::string location = module.SourceLocation(frame->function->ordinal, frame->call_pc);
    text += base::StrCat("\n", index, " bytecode ", module.name(), ".", frame->function->name, ":",
                         frame->call_pc, " ", location.empty() ? "-" : location);
    if (offset == entry) break;
  }
  return text;
}

}  // namespace iree_rt::vm::bytecode
