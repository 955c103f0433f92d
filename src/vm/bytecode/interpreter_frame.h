// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Interpreter frames: ref registers, the frame header and the FrameStack arena that holds every
// bytecode frame of one vm::Stack.
//
// Frames live in one contiguous arena (a Stack::Extension), so a `vm.yield` can return DEFERRED
// to the host with every frame intact and Resume continues from the top one. The arena grows by
// reallocation: frames refer to each other by byte offset, never by pointer, and ref registers
// are plain {object, type} pairs (RefSlot) so that moving the arena with memcpy is sound.
//
// Layout of one frame (all parts 16-byte aligned):
//   Frame header | i32 bank: i32_slots x 4 bytes (rounded up to 16) | ref bank: ref_slots x RefSlot
#ifndef IREE_RT_VM_BYTECODE_INTERPRETER_FRAME_H_
#define IREE_RT_VM_BYTECODE_INTERPRETER_FRAME_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "base/ref_object.h"
#include "base/status.h"
#include "vm/ref.h"
#include "vm/stack.h"
#include "vm/type.h"

namespace iree_rt::vm::bytecode {

class BytecodeModuleState;
struct CompiledFunction;

// A ref register or ref global: an owned reference (object non-null) or null (both null).
struct RefSlot {
  base::RefObject* object;
  const RefType* type;
};
static_assert(sizeof(RefSlot) == 16 || sizeof(void*) != 8, "ref registers are two words");

inline void ReleaseSlot(RefSlot& slot) {
  if (base::RefObject* object = slot.object) {
    slot.object = nullptr;
    slot.type = nullptr;
    object->Release();
  }
}
// dst = retained copy of src; dst's previous object is released last (it may be src's).
inline void RetainSlot(RefSlot& dst, const RefSlot& src) {
  if (src.object) src.object->AddRef();
  RefSlot old = dst;
  dst = src;
  if (old.object) old.object->Release();
}
// dst takes src's reference and src becomes null; a no-op when both are the same register.
inline void MoveSlot(RefSlot& dst, RefSlot& src) {
  if (&dst == &src) return;
  RefSlot old = dst;
  dst = src;
  src = RefSlot{nullptr, nullptr};
  if (old.object) old.object->Release();
}
inline void AssignSlot(RefSlot& dst, RefSlot& src, bool move) {
  if (move) {
    MoveSlot(dst, src);
  } else {
    RetainSlot(dst, src);
  }
}
// Stores a new reference to |ref|'s object.
inline void StoreRef(RefSlot& dst, const Ref& ref) {
  RetainSlot(dst, RefSlot{ref.object(), ref.object() ? ref.type() : nullptr});
}
// Takes over the reference |object| owns (no count change).
template <typename T>
inline void AdoptInto(RefSlot& dst, base::Ref<T> object) {
  RefSlot old = dst;
  dst.type = object ? RefTypeOf<T>() : nullptr;
  dst.object = object.Detach();
  if (old.object) old.object->Release();
}
inline Ref SlotToRef(const RefSlot& slot) { return Ref::Retain(slot.object, slot.type); }
// Null refs always pass; otherwise the expected type must be the wildcard (`!vm.opaque`), a ref
// type with no specific type, or exactly the object's type.
inline bool RefTypeMatches(const Type& expected, const RefSlot& slot) {
  if (slot.object == nullptr || expected.is_any()) return true;
  if (!expected.is_ref()) return false;
  return expected.ref_type == nullptr || expected.ref_type == slot.type;
}

inline constexpr uint32_t kNoFrame = UINT32_MAX;

// Frame flags.
inline constexpr uint32_t kFrameEntry = 1u << 0;  // entered from outside the interpreter loop

struct alignas(16) Frame {
  uint32_t caller;      // byte offset of the caller's frame, or kNoFrame
  uint32_t pc;          // where to continue: after a call returns, or after a yield
  uint32_t call_pc;     // start of the instruction in flight (calls, traps): for backtraces
  uint32_t results_pc;  // pc of the in-flight call's result register list
  uint32_t flags;
  uint32_t ref_offset;  // the ref bank's offset from registers() (= the i32 bank's size)
  uint32_t ref_count;   // ref registers, released when the frame is popped
  const CompiledFunction* function;
  BytecodeModuleState* state;

  uint8_t* registers() { return reinterpret_cast<uint8_t*>(this) + sizeof(Frame); }
  RefSlot* refs() { return reinterpret_cast<RefSlot*>(registers() + ref_offset); }
};
static_assert(sizeof(Frame) % 16 == 0, "registers start 16-byte aligned");

// All bytecode frames of one vm::Stack, shared by every BytecodeModule called on it (an import
// of another bytecode module pushes its frame here too, so yields cross module boundaries).
class FrameStack final : public Stack::Extension {
 public:
  // Hard cap on the arena, far above what the depth limit allows for ordinary frames.
  static constexpr size_t kMaxBytes = size_t{64} << 20;

  explicit FrameStack(Stack& stack) : stack_(stack) {}
  FrameStack(const FrameStack&) = delete;
  FrameStack& operator=(const FrameStack&) = delete;
  ~FrameStack() override;

  // The FrameStack of |stack|, created on first use; null if the stack already carries another
  // kind of extension.
  static FrameStack* Of(Stack& stack);
  // |extension| as a FrameStack, or null if it is another module's.
  static FrameStack* Cast(Stack::Extension* extension) {
    return extension && extension->type_tag() == &kTypeTag ? static_cast<FrameStack*>(extension)
                                                            : nullptr;
  }
  const void* type_tag() const override { return &kTypeTag; }

  Stack& stack() const { return stack_; }
  uint32_t top() const { return top_; }
  bool empty() const { return top_ == kNoFrame; }
  bool idle() const override { return empty(); }
  Frame* at(uint32_t offset) const { return reinterpret_cast<Frame*>(base_ + offset); }

  // Pushes a zeroed frame for |function| (counted against the stack's depth limit) and returns
  // its offset. May move the arena: re-derive pointers into older frames afterwards.
  // RESOURCE_EXHAUSTED past the depth limit or the arena cap.
  base::Status Push(const CompiledFunction& function, BytecodeModuleState* state, uint32_t flags,
                    uint32_t* out_offset);
  // Push without growing the arena or failing: false (nothing done) when Push is needed instead.
  // |frame_bytes|/|i32_bytes|/|ref_count| are the function's (CompiledFunction).
  bool TryPush(const CompiledFunction* function, uint32_t frame_bytes, uint32_t i32_bytes,
               uint32_t ref_count, BytecodeModuleState* state, uint32_t flags, uint32_t* out_offset) {
    const size_t needed = used_ + frame_bytes;
    if (needed > capacity_ || stack_.depth() >= stack_.max_depth()) return false;
    stack_.Enter().IgnoreError();  // cannot fail: the depth was checked
    const uint32_t offset = static_cast<uint32_t>(used_);
    Frame* frame = at(offset);
    *frame = Frame{top_, 0, 0, 0, flags, i32_bytes, ref_count, function, state};
    // Inline 16-byte stores rather than a memset call: frames are small and both banks are
    // multiples of 16 bytes. The empty asm keeps GCC from turning the loop back into memset.
    for (uint8_t *p = frame->registers(), *end = p + (frame_bytes - sizeof(Frame)); p != end;
         p += 16) {
#if defined(__GNUC__)
      asm("" : "+r"(p));
#endif
      const uint64_t zero[2] = {0, 0};
      std::memcpy(p, zero, 16);
    }
    used_ = needed;
    top_ = offset;
    *out_offset = offset;
    return true;
  }
  // Pops the top frame, releasing its ref registers.
  void Pop() {
    Frame* frame = at(top_);
    RefSlot* refs = frame->refs();
    for (uint32_t i = 0; i < frame->ref_count; ++i) ReleaseSlot(refs[i]);
    used_ = top_;
    top_ = frame->caller;
    stack_.Leave();
  }
  // Pops frames until (and including) the frame at |offset|, releasing their refs (error paths).
  void UnwindThrough(uint32_t offset);

  // The entry frame of the invocation that yielded (what Resume runs to), or kNoFrame.
  uint32_t suspended_entry = kNoFrame;

 private:
  static constexpr char kTypeTag = 0;
  bool Grow(size_t needed);

  Stack& stack_;
  uint8_t* base_ = nullptr;
  size_t capacity_ = 0;
  size_t used_ = 0;
  uint32_t top_ = kNoFrame;
};

// "[ 0] bytecode module.function:pc location" for every frame from the top down to |entry|
// (inclusive), one per line; the annotation attached to interpreter errors.
std::string FormatBacktrace(const FrameStack& frames, uint32_t entry);

}  // namespace iree_rt::vm::bytecode

#endif  // IREE_RT_VM_BYTECODE_INTERPRETER_FRAME_H_
