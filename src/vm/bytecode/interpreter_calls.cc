// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Calls that leave the dispatch loop: into other modules through Module::Call, and the host
// boundary (arguments into an entry frame, results out of it).
#include <bit>
#include <cstddef>
#include <iterator>
#include <memory>
#include <new>

#include "base/trace.h"
#include "vm/bytecode/interpreter.h"
#include "vm/bytecode/interpreter_internal.h"
#include "vm/module.h"
#include "vm/native_module.h"
#include "vm/stack.h"

namespace iree_rt::vm::bytecode {

using base::Status;
using base::StatusCode;
using namespace internal;  // NOLINT: decoding helpers

namespace internal {
namespace {

// The Values of one import call, constructed in place (a Value is 32 bytes and owns a Ref, so
// only the ones used are built). A ref argument borrows its register's reference, with no count
// changes, unless the register is moved; the borrow is handed back before the Value dies. The
// callee sees |args| as const and cannot take a borrowed reference, only copy it.
class CallValues {
 public:
  explicit CallValues(size_t capacity) {
    if (capacity > kInline) {
      heap_ = std::make_unique<std::byte[]>(capacity * sizeof(Value));
      values_ = reinterpret_cast<Value*>(heap_.get());
    }
  }
  ~CallValues() {
    for (size_t i = 0; i < size_; ++i) {
      if (i < 64 && (borrowed_ >> i) & 1) values_[i].ref().Detach();
      values_[i].~Value();
    }
  }
  CallValues(const CallValues&) = delete;
  CallValues& operator=(const CallValues&) = delete;

  void Push(Value value) { new (&values_[size_++]) Value(std::move(value)); }
  // The slot's reference: taken when |move| (the register is cleared), else borrowed.
  void PushRef(RefSlot& slot, bool move) {
    if (move) {
      Push(Value::FromRef(Ref::Adopt(slot.object, slot.type)));
      slot = RefSlot{};
    } else if (slot.object != nullptr && size_ < 64) {
      borrowed_ |= uint64_t{1} << size_;
      Push(Value::FromRef(Ref::Adopt(slot.object, slot.type)));
    } else {
      Push(Value::FromRef(SlotToRef(slot)));
    }
  }
  void PushZeros(std::span<const ValueType> types) {
    for (ValueType type : types) Push(Value::Zero(type));
  }
  std::span<Value> span() { return {values_, size_}; }

 private:
  static constexpr size_t kInline = 12;
  alignas(Value) std::byte inline_[kInline * sizeof(Value)];
  std::unique_ptr<std::byte[]> heap_;
  Value* values_ = reinterpret_cast<Value*>(inline_);
  size_t size_ = 0;
  uint64_t borrowed_ = 0;  // bit i: values_[i] borrows its reference
};

// Whether register |reg| can hold a |type| operand in a frame of |fn|.
inline bool RegisterFits(const CompiledFunction& fn, uint16_t reg, ValueType type) {
  if (type == ValueType::kRef) return (reg & kRefBit) != 0 && (reg & kRefMask) < fn.ref_slots;
  if (reg & kRefBit) return false;
  if (type == ValueType::kI64 || type == ValueType::kF64) return (reg & 1) == 0 && reg + 1u < fn.i32_slots;
  return reg < fn.i32_slots;
}

// Writes an import's result |value| of |type| to register |reg|; a ref moves into the register.
inline void StoreResult(ValueType type, uint16_t reg, Value& value, uint32_t* r32, RefSlot* rr) {
  switch (type) {
    case ValueType::kI32: r32[reg] = static_cast<uint32_t>(value.i32()); break;
    case ValueType::kF32: r32[reg] = std::bit_cast<uint32_t>(value.f32()); break;
    case ValueType::kI64: Store64(r32 + reg, static_cast<uint64_t>(value.i64())); break;
    case ValueType::kF64: Store64(r32 + reg, std::bit_cast<uint64_t>(value.f64())); break;
    default: {
      RefSlot old = rr[reg & kRefMask];
      const RefType* ref_type = value.ref().type();
      base::RefObject* object = value.ref().Detach();
      rr[reg & kRefMask] = RefSlot{object, object ? ref_type : nullptr};
      ReleaseSlot(old);
      break;
    }
  }
}

Status BadRegister(uint16_t reg) {
  return base::InvalidArgumentError("register operand 0x", std::hex, reg, std::dec,
                                    " does not match the import's calling convention");
}

}  // namespace

// Calls a non-bytecode (or differently typed) import through Module::CallTyped: registers →
// Values per the target's cconv (a C...D span becomes an i32 count and its flattened tuples),
// then the results back into the caller's result registers. Register operands are re-checked
// here, since an import declared without a signature could not be checked by the verifier.
Status CallImport(FrameStack& frames, uint32_t frame_offset, const ImportBinding& binding,
                  const uint8_t* segments, const uint8_t* arg_list, const uint8_t* result_list) {
  Frame* frame = frames.at(frame_offset);
  const CompiledFunction& fn = *frame->function;
  uint32_t* r32 = reinterpret_cast<uint32_t*>(frame->registers());
  RefSlot* rr = reinterpret_cast<RefSlot*>(frame->registers() + fn.i32_bytes);
  const std::span<const CconvItem> cconv_args = binding.cconv.arguments;

  size_t value_count = 0;
  const uint16_t reg_count = U16(arg_list);
  const uint16_t segment_count = segments ? U16(segments) : 0;
  for (size_t i = 0; i < cconv_args.size(); ++i) {
    const CconvItem& item = cconv_args[i];
    if (!item.is_span()) {
      ++value_count;
      continue;
    }
    if (i >= segment_count) {
      return base::InvalidArgumentError("variadic argument ", i, " has no segment size");
    }
    value_count += 1 + static_cast<size_t>(U16(segments + 2 + 2 * i)) * item.tuple.size();
  }
  CallValues args(value_count);
  const uint8_t* next_reg = arg_list + 2;
  const uint8_t* const regs_end = next_reg + 2 * size_t{reg_count};
  auto take = [&](ValueType type) -> bool {
    if (next_reg == regs_end) return false;
    const uint16_t reg = U16(next_reg);
    next_reg += 2;
    if (!RegisterFits(fn, reg, type)) return false;
    switch (type) {
      case ValueType::kI32: args.Push(Value::I32(static_cast<int32_t>(r32[reg]))); break;
      case ValueType::kF32: args.Push(Value::F32(std::bit_cast<float>(r32[reg]))); break;
      case ValueType::kI64: args.Push(Value::I64(static_cast<int64_t>(Load64(r32 + reg)))); break;
      case ValueType::kF64: args.Push(Value::F64(std::bit_cast<double>(Load64(r32 + reg)))); break;
      default: args.PushRef(rr[reg & kRefMask], (reg & kMoveBit) != 0); break;
    }
    return true;
  };
  auto take_failed = [&]() {
    if (next_reg == regs_end) {
      return base::InvalidArgumentError("too few argument registers for the import's calling convention");
    }
    return BadRegister(U16(next_reg - 2));
  };
  for (size_t i = 0; i < cconv_args.size(); ++i) {
    const CconvItem& item = cconv_args[i];
    if (!item.is_span()) {
      if (!take(item.type)) return take_failed();
      continue;
    }
    const uint16_t tuples = U16(segments + 2 + 2 * i);
    args.Push(Value::I32(tuples));
    for (uint16_t t = 0; t < tuples; ++t) {
      for (ValueType type : item.tuple) {
        if (!take(type)) return take_failed();
      }
    }
  }
  if (next_reg != regs_end) {
    return base::InvalidArgumentError("too many argument registers for the import's calling convention");
  }

  const uint16_t result_count = U16(result_list);
  if (result_count != binding.cconv.results.size()) {
    return base::InvalidArgumentError("the call expects ", result_count, " results but the import returns ",
                                      binding.cconv.results.size());
  }
  CallValues results(result_count);
  results.PushZeros(binding.cconv.results);
  // A call into another module (not a native handler, not a pushed bytecode frame): a host span
  // named "<module>.<export>" when tracing.
  base::trace::Scope trace_scope("vm", "import");
  if (trace_scope.recording() && binding.export_ordinal < binding.module->exports().size()) {
    trace_scope.set_name(base::StrCat(binding.module->name(), ".",
                                      binding.module->exports()[binding.export_ordinal].name));
  }
  Status status = binding.module->CallTyped(frames.stack(), *binding.state, binding.export_ordinal,
                                            args.span(), results.span());
  if (status.code() == StatusCode::kDeferred) {
    // Only frames on this stack can be resumed; a callee reached through Module::Call cannot.
    // Its leftover frames (a bytecode callee) are above ours and unwound by the caller's trap.
    frames.stack().set_suspended(nullptr);
    return base::FailedPreconditionError(
        "the import yielded, but only imports of bytecode exports with a declared signature may");
  }
  RT_RETURN_IF_ERROR(status);

  // The callee may have run bytecode on this stack and grown the arena.
  frame = frames.at(frame_offset);
  r32 = reinterpret_cast<uint32_t*>(frame->registers());
  rr = reinterpret_cast<RefSlot*>(frame->registers() + fn.i32_bytes);
  std::span<Value> values = results.span();
  for (uint16_t i = 0; i < result_count; ++i) {
    const ValueType type = binding.cconv.results[i];
    const uint16_t reg = U16(result_list + 2 + 2 * i);
    if (!RegisterFits(fn, reg, type)) return BadRegister(reg);
    Value& value = values[i];
    const bool typed = type == ValueType::kRef ? (value.is_ref() || value.is_none()) : value.type() == type;
    if (!typed) return base::InternalError("import result ", i, " has the wrong type");
    StoreResult(type, reg, value, r32, rr);
  }
  return Status();
}

namespace {

// The Args of one native call: inline for the common sizes (a dispatch or execute.indirect with
// a few bindings), else on the heap. Args are trivial: nothing to destroy.
class ArgArray {
 public:
  explicit ArgArray(size_t count) {
    if (count > kInline) {
      heap_ = std::make_unique<Arg[]>(count);
      data_ = heap_.get();
    }
  }
  Arg* data() { return data_; }

 private:
  static constexpr size_t kInline = 32;
  Arg inline_[kInline];
  std::unique_ptr<Arg[]> heap_;
  Arg* data_ = inline_;
};

// The result Values of one native call: default-constructed (the interpreter reads a result the
// callee left alone as zero), inline for up to two (every `hal` export).
class ResultArray {
 public:
  explicit ResultArray(size_t count) : size_(count) {
    if (count > kInline) {
      heap_ = std::make_unique<Value[]>(count);
      data_ = heap_.get();
    }
  }
  std::span<Value> span() { return {data_, size_}; }

 private:
  static constexpr size_t kInline = 2;
  Value inline_[kInline];
  std::unique_ptr<Value[]> heap_;
  Value* data_ = inline_;
  size_t size_;
};

inline bool IsWide(ValueType type) { return type == ValueType::kI64 || type == ValueType::kF64; }

}  // namespace

// A native import whose declared cconv the verifier checked at this call site (so no register
// is re-checked): registers → borrowed Args → NativeModule::CallArgs → result registers. A
// moved ref argument stays in its register for the call and is released after it, which is
// when the callee would have dropped it.
Status CallNativeImport(FrameStack& frames, uint32_t frame_offset, const ImportBinding& binding,
                        const uint8_t* segments, const uint8_t* arg_list,
                        const uint8_t* result_list) {
  Frame* frame = frames.at(frame_offset);
  const CompiledFunction& fn = *frame->function;
  uint32_t* r32 = reinterpret_cast<uint32_t*>(frame->registers());
  RefSlot* rr = reinterpret_cast<RefSlot*>(frame->registers() + fn.i32_bytes);
  const uint16_t reg_count = U16(arg_list);
  ArgArray args(size_t{reg_count} + binding.span_count);
  Arg* out = args.data();
  const uint8_t* reg = arg_list + 2;
  // Moved ref registers, released after the call (all of them rescanned if there are many).
  constexpr uint16_t kMoved = kRefBit | kMoveBit;
  uint16_t moved[8];
  size_t moved_count = 0;
  // The register's bank says ref or not; |wide| picks 32 or 64 bits (the verifier matched both to
  // the cconv).
  auto load = [&](bool wide) {
    const uint16_t r = U16(reg);
    reg += 2;
    if (r & kRefBit) {
      if (r & kMoveBit) {
        if (moved_count < std::size(moved)) moved[moved_count] = r & kRefMask;
        ++moved_count;
      }
      const RefSlot& slot = rr[r & kRefMask];
      *out++ = Arg::Borrow(slot.object, slot.type);
    } else {
      *out++ = Arg::Bits(wide ? Load64(r32 + r) : r32[r]);
    }
  };
  if (binding.span_count == 0) {
    for (uint8_t wide : binding.wide_arguments) load(wide);
  } else {
    const std::span<const CconvItem> items = binding.cconv.arguments;
    for (size_t i = 0; i < items.size(); ++i) {
      const CconvItem& item = items[i];
      if (!item.is_span()) {
        load(IsWide(item.type));
        continue;
      }
      const uint16_t tuples = U16(segments + 2 + 2 * i);
      *out++ = Arg::I32(tuples);
      for (uint16_t t = 0; t < tuples; ++t) {
        for (ValueType type : item.tuple) load(IsWide(type));
      }
    }
  }

  const std::span<const ValueType> result_types = binding.cconv.results;
  ResultArray results(result_types.size());
  const std::span<const Arg> arg_span(args.data(), out);
  Stack& stack = frames.stack();
  if (binding.handler && stack.TryEnter()) {
    // NativeModule::CallArgs without its two calls (a dozen imports per program call).
    struct Leave {
      Stack& stack;
      ~Leave() { stack.Leave(); }
    };
    Status status;
    {
      Leave leave{stack};
      status = binding.handler(*binding.state, arg_span, results.span());
    }
    if (!status.ok()) {
      return binding.native->Failed(binding.export_ordinal, std::move(status), results.span());
    }
  } else {
    RT_RETURN_IF_ERROR(binding.native->CallArgs(stack, *binding.state, binding.export_ordinal,
                                                arg_span, results.span()));
  }

  frame = frames.at(frame_offset);
  r32 = reinterpret_cast<uint32_t*>(frame->registers());
  rr = reinterpret_cast<RefSlot*>(frame->registers() + fn.i32_bytes);
  if (moved_count <= std::size(moved)) {
    for (size_t i = 0; i < moved_count; ++i) ReleaseSlot(rr[moved[i]]);
  } else {
    for (uint16_t i = 0; i < reg_count; ++i) {
      const uint16_t r = U16(arg_list + 2 + 2 * i);
      if ((r & kMoved) == kMoved) ReleaseSlot(rr[r & kRefMask]);
    }
  }
  std::span<Value> values = results.span();
  for (size_t i = 0; i < result_types.size(); ++i) {
    StoreResult(result_types[i], U16(result_list + 2 + 2 * i), values[i], r32, rr);
  }
  return Status();
}

Status CallNativeSite(FrameStack& frames, uint32_t frame_offset, const ImportBinding& binding,
                      const CallSite& site, const uint32_t* op) {
  Frame* frame = frames.at(frame_offset);
  const CompiledFunction& fn = *frame->function;
  uint32_t* r32 = reinterpret_cast<uint32_t*>(frame->registers());
  RefSlot* rr = reinterpret_cast<RefSlot*>(frame->registers() + fn.i32_bytes);
  Arg args[CallSite::kMaxArgs];
  for (uint32_t i = 0; i < site.arg_count; ++i) {
    const uint32_t value = op[i] & 0xFFFF;
    switch (static_cast<CallSiteArg>(op[i] >> 16)) {
      case CallSiteArg::k32: args[i] = Arg::Bits(r32[value]); break;
      case CallSiteArg::k64: args[i] = Arg::Bits(Load64(r32 + value)); break;
      case CallSiteArg::kRef: {
        const uint32_t ordinal = value & ~kCallSiteMoved;
        args[i] = Arg::BorrowSlot(rr[ordinal].object, rr[ordinal].type);
        break;
      }
      case CallSiteArg::kCount: args[i] = Arg::I32(static_cast<int32_t>(value)); break;
    }
  }
  Value result_values[CallSite::kMaxResults];
  const std::span<const Arg> arg_span(args, site.arg_count);
  const std::span<Value> results(result_values, site.result_count);
  Stack& stack = frames.stack();
  if (binding.handler && stack.TryEnter()) {
    Status status = binding.handler(*binding.state, arg_span, results);
    stack.Leave();
    if (!status.ok()) {
      return binding.native->Failed(binding.export_ordinal, std::move(status), results);
    }
  } else {
    RT_RETURN_IF_ERROR(binding.native->CallArgs(stack, *binding.state, binding.export_ordinal,
                                                arg_span, results));
  }

  // Moved arguments stayed in their registers for the call (the callee may have run bytecode
  // on this stack and moved the arena).
  frame = frames.at(frame_offset);
  r32 = reinterpret_cast<uint32_t*>(frame->registers());
  rr = reinterpret_cast<RefSlot*>(frame->registers() + fn.i32_bytes);
  if (site.moved_count != 0) {
    for (uint32_t i = 0; i < site.arg_count; ++i) {
      if ((op[i] >> 16) == static_cast<uint32_t>(CallSiteArg::kRef) && (op[i] & kCallSiteMoved)) {
        ReleaseSlot(rr[op[i] & 0xFFFF & ~kCallSiteMoved]);
      }
    }
  }
  op += site.arg_count;
  for (uint32_t i = 0; i < site.result_count; ++i) {
    StoreResult(static_cast<ValueType>(op[i] >> 16), static_cast<uint16_t>(op[i]), result_values[i],
                r32, rr);
  }
  return Status();
}

// Writes the entry frame's return values to the host's Values.
void ReturnToHost(const CompiledFunction& fn, const uint8_t* list, uint32_t* r32, RefSlot* rr,
                  std::span<Value> results) {
  const uint16_t count = U16(list);
  for (uint16_t i = 0; i < count && i < results.size(); ++i) {
    const uint16_t reg = U16(list + 2 + 2 * i);
    switch (fn.result_types[i]) {
      case ValueType::kI32: results[i] = Value::I32(static_cast<int32_t>(r32[reg])); break;
      case ValueType::kF32: results[i] = Value::F32(std::bit_cast<float>(r32[reg])); break;
      case ValueType::kI64: results[i] = Value::I64(static_cast<int64_t>(Load64(r32 + reg))); break;
      case ValueType::kF64: results[i] = Value::F64(std::bit_cast<double>(Load64(r32 + reg))); break;
      default: {
        RefSlot& slot = rr[reg & kRefMask];
        results[i] = Value::FromRef(SlotToRef(slot));
        if (reg & kMoveBit) ReleaseSlot(slot);
        break;
      }
    }
  }
}

}  // namespace internal

Status EnterFunction(FrameStack& frames, const CompiledFunction& function,
                     BytecodeModuleState& state, std::span<const Value> args,
                     uint32_t* out_entry) {
  RT_RETURN_IF_ERROR(frames.Push(function, &state, kFrameEntry, out_entry));
  Frame* frame = frames.at(*out_entry);
  uint32_t* r32 = reinterpret_cast<uint32_t*>(frame->registers());
  RefSlot* rr = reinterpret_cast<RefSlot*>(frame->registers() + function.i32_bytes);
  for (size_t i = 0; i < function.args.size() && i < args.size(); ++i) {
    const CompiledFunction::Arg& arg = function.args[i];
    const Value& value = args[i];
    switch (function.arg_types[i]) {
      case ValueType::kI32: r32[arg.slot] = static_cast<uint32_t>(value.i32()); break;
      case ValueType::kF32: r32[arg.slot] = std::bit_cast<uint32_t>(value.f32()); break;
      case ValueType::kI64: Store64(r32 + arg.slot, static_cast<uint64_t>(value.i64())); break;
      case ValueType::kF64: Store64(r32 + arg.slot, std::bit_cast<uint64_t>(value.f64())); break;
      default:
        if (value.is_ref()) StoreRef(rr[arg.slot], value.ref());
        break;
    }
  }
  return Status();
}

}  // namespace iree_rt::vm::bytecode
