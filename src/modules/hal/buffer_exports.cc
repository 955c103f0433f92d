// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// allocator.*, buffer.* and buffer_view.* (hal_abi_facts.md §1.3, "Allocator and buffer" and
// "Buffer views").
#include <cstring>
#include <string>

#include "base/inline_vector.h"
#include "hal/allocator.h"
#include "hal/buffer.h"
#include "hal/buffer_view.h"
#include "hal/device.h"
#include "hal/element_type.h"
#include "modules/hal/args.h"
#include "modules/hal/exports.h"

namespace iree_rt::modules::hal {
namespace {

using base::Ref;
using base::Status;
using base::StatusOr;
using vm::ModuleState;
using vm::Value;

// Every allocation a program asks for may be mapped, copied and dispatched on: the access mask
// programs pass is 0, which means all.
rt::BufferParams ProgramBufferParams(int32_t memory_types, int32_t usage) {
  rt::BufferParams params;
  params.type = static_cast<rt::MemoryTypeBits>(memory_types);
  params.usage = static_cast<rt::BufferUsageBits>(usage);
  params.access = rt::MemoryAccess::kAll;
  return params;
}

// "<message>: " prefix for assertion failures; the program passes names such as "input0".
std::string Prefix(std::string_view message) {
  return message.empty() ? std::string() : std::string(message) + ": ";
}

std::string ShapeText(std::span<const int64_t> shape, rt::ElementType type) {
  std::string text;
  for (int64_t dim : shape) text += std::to_string(dim) + "x";
  return text + rt::ElementTypeName(type);
}

// allocator.allocate(allocator, affinity, memory_types, usage, size) -> buffer
Status AllocatorAllocate(ModuleState& state, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Allocator * allocator, RefArg<rt::Allocator>(args[0], "allocator"));
  RT_ASSIGN_OR_RETURN(uint64_t size, NonNegative(args[4].i64(), "allocation size"));
  RT_ASSIGN_OR_RETURN(base::MemoryCharge charge, ChargeAllocation(state, size));
  RT_ASSIGN_OR_RETURN(Ref<rt::Buffer> buffer,
                      allocator->AllocateBuffer(ProgramBufferParams(args[2].i32(), args[3].i32()), size));
  buffer->AttachCharge(std::move(charge));
  results[0] = RefResult(std::move(buffer));
  return Status::Ok();
}

// allocator.import(allocator, try, affinity, memory_types, usage, source, offset, length) -> buffer
// Wraps a vm.buffer's bytes without copying; the buffer keeps the vm.buffer alive. With |try|,
// any failure returns null so the program falls back to allocate-and-copy.
Status AllocatorImport(ModuleState&, Args args, Results results) {
  const bool try_import = args[1].i32() != 0;
  auto import = [&]() -> StatusOr<Ref<rt::Buffer>> {
    RT_ASSIGN_OR_RETURN(rt::Allocator * allocator, RefArg<rt::Allocator>(args[0], "allocator"));
    RT_ASSIGN_OR_RETURN(vm::Buffer * source, RefArg<vm::Buffer>(args[5], "source"));
    RT_ASSIGN_OR_RETURN(uint64_t offset, NonNegative(args[6].i64(), "source offset"));
    const uint64_t length = static_cast<uint64_t>(args[7].i64());  // -1: to the end
    if (offset > source->length() ||
        (length != rt::kWholeBuffer && length > source->length() - offset)) {
      return base::InvalidArgumentError("import range [", offset, ", +", args[7].i64(),
                                        ") is outside the ", source->length(), "-byte source");
    }
    const uint64_t size = length == rt::kWholeBuffer ? source->length() - offset : length;
    rt::BufferParams params = ProgramBufferParams(args[3].i32(), args[4].i32());
    const bool immutable = (params.usage & rt::BufferUsage::kSharingImmutable) != 0;
    if (!source->is_mutable() && !immutable) {
      return base::MakeStatus(base::StatusCode::kPermissionDenied,
                              "importing a read-only vm.buffer needs SHARING_IMMUTABLE usage");
    }
    params.access = rt::MemoryAccess::kRead;
    if (source->is_mutable() && !immutable) params.access |= rt::MemoryAccess::kWrite;
    // Only written through when the source is mutable (the access mask above enforces it).
    auto* data = const_cast<uint8_t*>(source->bytes().data()) + offset;
    // Kernels assume 64-byte aligned bindings (CPU kernels load constants with aligned vector
    // loads): a module read into 16-byte aligned memory would crash them. Refused here, a
    // program's try-import falls back to an aligned copy.
    if (reinterpret_cast<uintptr_t>(data) % rt::kBindingAlignment != 0) {
      return base::InvalidArgumentError("import of ", size, " bytes at offset ", offset,
                                        " of a vm.buffer: the address is not ", rt::kBindingAlignment,
                                        "-byte aligned, as dispatches assume");
    }
    Ref<vm::Buffer> keep_alive = Ref<vm::Buffer>::Retain(source);
    return allocator->ImportHostBuffer(params, data, size,
                                       [keep_alive]() mutable { keep_alive = nullptr; });
  };
  StatusOr<Ref<rt::Buffer>> buffer = import();
  if (!buffer.ok()) {
    if (try_import) return Status::Ok();  // result stays null
    return buffer.status();
  }
  results[0] = RefResult(std::move(buffer).value());
  return Status::Ok();
}

// allocator.select(memory_types, usage, flags, [(device, affinity)...]) -> (device, affinity)
// The first candidate wins: every device here serves any memory type a program asks for.
Status AllocatorSelect(ModuleState&, Args args, Results results) {
  size_t index = 3;
  RT_ASSIGN_OR_RETURN(size_t count, SpanCount(args, &index, 2));
  if (count == 0) return base::InvalidArgumentError("allocator.select needs at least one device");
  RT_RETURN_IF_ERROR(RefArg<rt::Device>(args[index], "device").status());
  results[0] = Value::FromRef(args[index].ref().Retain());
  results[1] = Value::I64(args[index + 1].i64());
  return Status::Ok();
}

// buffer.assert(buffer, message, allocator, minimum_length, memory_types, usage)
Status BufferAssert(ModuleState&, Args args, Results) {
  // The message is read only for an error (asserts run for every input of every call).
  const vm::Buffer* message_buffer = args[1].ref().Get<vm::Buffer>();
  if (!message_buffer) return StringArg(args[1], "message").status();
  const auto message = [message_buffer] { return Text(*message_buffer); };
  RT_ASSIGN_OR_RETURN(rt::Buffer * buffer, RefArg<rt::Buffer>(args[0], "buffer"));
  const int64_t minimum_length = args[3].i64();
  if (minimum_length > 0 && buffer->byte_length() < static_cast<uint64_t>(minimum_length)) {
    return base::InvalidArgumentError(Prefix(message()), "buffer has ", buffer->byte_length(),
                                      " bytes but at least ", minimum_length, " are required");
  }
  const auto memory_types = static_cast<rt::MemoryTypeBits>(args[4].i32());
  if ((buffer->memory_type() & memory_types) != memory_types) {
    return base::MakeStatus(base::StatusCode::kPermissionDenied, Prefix(message()),
                            "buffer memory type ", rt::MemoryTypeToString(buffer->memory_type()),
                            " lacks required ", rt::MemoryTypeToString(memory_types));
  }
  const auto usage = static_cast<rt::BufferUsageBits>(args[5].i32());
  if ((buffer->allowed_usage() & usage) != usage) {
    return base::MakeStatus(base::StatusCode::kPermissionDenied, Prefix(message()),
                            "buffer usage ", rt::BufferUsageToString(buffer->allowed_usage()),
                            " lacks required ", rt::BufferUsageToString(usage));
  }
  return Status::Ok();
}

Status BufferAllocationPreserve(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::Buffer * buffer, RefArg<rt::Buffer>(args[0], "buffer"));
  buffer->AllocationPreserve();
  return Status::Ok();
}

Status BufferAllocationDiscard(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Buffer * buffer, RefArg<rt::Buffer>(args[0], "buffer"));
  results[0] = Value::I32(buffer->AllocationDiscard() ? 1 : 0);
  return Status::Ok();
}

Status BufferAllocationIsTerminal(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Buffer * buffer, RefArg<rt::Buffer>(args[0], "buffer"));
  results[0] = Value::I32(buffer->AllocationIsTerminal() ? 1 : 0);
  return Status::Ok();
}

// buffer.subspan(buffer, offset, length) -> buffer
Status BufferSubspan(ModuleState&, Args args, Results results) {
  RT_RETURN_IF_ERROR(RefArg<rt::Buffer>(args[0], "buffer").status());
  RT_ASSIGN_OR_RETURN(uint64_t offset, NonNegative(args[1].i64(), "subspan offset"));
  RT_ASSIGN_OR_RETURN(Ref<rt::Buffer> subspan,
                      rt::Buffer::Subspan(RetainArg<rt::Buffer>(args[0]), offset,
                                          static_cast<uint64_t>(args[2].i64())));
  results[0] = RefResult(std::move(subspan));
  return Status::Ok();
}

Status BufferLength(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Buffer * buffer, RefArg<rt::Buffer>(args[0], "buffer"));
  results[0] = Value::I64(static_cast<int64_t>(buffer->byte_length()));
  return Status::Ok();
}

StatusOr<uint32_t> ScalarLength(int32_t length) {
  if (length < 0 || length > 4) {
    return base::InvalidArgumentError("scalar access of ", length, " bytes (1 to 4 allowed)");
  }
  return static_cast<uint32_t>(length);
}

// buffer.load(buffer, offset, length) -> i32: little-endian bytes into a zeroed word.
Status BufferLoad(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Buffer * buffer, RefArg<rt::Buffer>(args[0], "buffer"));
  RT_ASSIGN_OR_RETURN(uint64_t offset, NonNegative(args[1].i64(), "load offset"));
  RT_ASSIGN_OR_RETURN(uint32_t length, ScalarLength(args[2].i32()));
  uint32_t value = 0;
  RT_RETURN_IF_ERROR(buffer->Read(offset, &value, length));
  results[0] = Value::I32(static_cast<int32_t>(value));
  return Status::Ok();
}

// buffer.store(value, buffer, offset, length)
Status BufferStore(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::Buffer * buffer, RefArg<rt::Buffer>(args[1], "buffer"));
  RT_ASSIGN_OR_RETURN(uint64_t offset, NonNegative(args[2].i64(), "store offset"));
  RT_ASSIGN_OR_RETURN(uint32_t length, ScalarLength(args[3].i32()));
  const uint32_t value = static_cast<uint32_t>(args[0].i32());
  return buffer->Write(offset, &value, length);
}

// Reads the i64 shape span at args[*index].
using Shape = base::InlineVector<int64_t, rt::kMaxBufferViewRank>;  // larger ranks are refused later
Status ShapeArgs(Args args, size_t index, Shape* shape) {
  RT_ASSIGN_OR_RETURN(size_t rank, SpanCount(args, &index, 1));
  for (size_t i = 0; i < rank; ++i) shape->push_back(args[index + i].i64());
  return Status::Ok();
}

// buffer_view.create(buffer, offset, length, element_type, encoding, [dims...]) -> buffer_view
Status BufferViewCreate(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Buffer * buffer, RefArg<rt::Buffer>(args[0], "buffer"));
  RT_ASSIGN_OR_RETURN(uint64_t offset, NonNegative(args[1].i64(), "buffer view offset"));
  const uint64_t length = static_cast<uint64_t>(args[2].i64());
  Ref<rt::Buffer> backing = Ref<rt::Buffer>::Retain(buffer);
  if (offset != 0 || (length != rt::kWholeBuffer && length != buffer->byte_length())) {
    RT_ASSIGN_OR_RETURN(backing, rt::Buffer::Subspan(backing, offset, length));
  }
  Shape shape;
  RT_RETURN_IF_ERROR(ShapeArgs(args, 5, &shape));
  RT_ASSIGN_OR_RETURN(Ref<rt::BufferView> view,
                      rt::BufferView::Create(std::move(backing), shape,
                                             static_cast<rt::ElementType>(args[3].i32()),
                                             static_cast<rt::EncodingType>(args[4].i32())));
  results[0] = RefResult(std::move(view));
  return Status::Ok();
}

// Element types are compatible when the view's is opaque, or both are integers of one width
// (signedness is the program's business), or they are equal.
bool ElementTypesCompatible(rt::ElementType actual, rt::ElementType expected) {
  const uint32_t actual_class = rt::ElementNumericalType(actual);
  if (actual_class == rt::NumericalType::kUnknown) return true;
  const bool both_integer = (actual_class & 0xF0) == rt::NumericalType::kInteger &&
                            (rt::ElementNumericalType(expected) & 0xF0) == rt::NumericalType::kInteger;
  if (both_integer && rt::ElementBitCount(actual) == rt::ElementBitCount(expected)) return true;
  return actual == expected;
}

// buffer_view.assert(view, message, element_type, encoding, [dims...])
Status BufferViewAssert(ModuleState&, Args args, Results) {
  // The message, the names and the expected shape are only materialized for an error: this
  // runs for every input of every call.
  const vm::Buffer* message_buffer = args[1].ref().Get<vm::Buffer>();
  if (!message_buffer) return StringArg(args[1], "message").status();
  const std::string_view message = Text(*message_buffer);
  rt::BufferView* view = args[0].ref().Get<rt::BufferView>();
  if (view == nullptr) {
    const std::string what = message.empty() ? "buffer view" : std::string(message);
    return RefArg<rt::BufferView>(args[0], what.c_str()).status();
  }
  size_t index = 4;
  RT_ASSIGN_OR_RETURN(size_t rank, SpanCount(args, &index, 1));
  const Args dims = args.subspan(index, rank);
  const auto element_type = static_cast<rt::ElementType>(args[2].i32());
  const auto encoding = static_cast<rt::EncodingType>(args[3].i32());
  auto mismatch = [&](const char* what) {
    std::vector<int64_t> shape;
    for (const vm::Arg& dim : dims) shape.push_back(dim.i64());
    return base::InvalidArgumentError(Prefix(message), what, " mismatch: expected ",
                                      ShapeText(shape, element_type), " but got ",
                                      ShapeText(view->shape(), view->element_type()));
  };
  if (view->encoding() != rt::Encoding::kOpaque && view->encoding() != encoding) {
    return base::InvalidArgumentError(Prefix(message), "encoding mismatch: expected ", encoding,
                                      " but got ", view->encoding());
  }
  if (!ElementTypesCompatible(view->element_type(), element_type)) return mismatch("element type");
  if (view->rank() != rank) return mismatch("rank");
  for (size_t i = 0; i < rank; ++i) {
    if (view->shape()[i] != dims[i].i64()) return mismatch("shape");
  }
  return Status::Ok();
}

Status BufferViewBuffer(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::BufferView * view, RefArg<rt::BufferView>(args[0], "buffer view"));
  results[0] = RefResult(view->buffer());
  return Status::Ok();
}

Status BufferViewElementType(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::BufferView * view, RefArg<rt::BufferView>(args[0], "buffer view"));
  results[0] = Value::I32(static_cast<int32_t>(view->element_type()));
  return Status::Ok();
}

Status BufferViewEncodingType(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::BufferView * view, RefArg<rt::BufferView>(args[0], "buffer view"));
  results[0] = Value::I32(static_cast<int32_t>(view->encoding()));
  return Status::Ok();
}

Status BufferViewRank(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::BufferView * view, RefArg<rt::BufferView>(args[0], "buffer view"));
  results[0] = Value::I32(static_cast<int32_t>(view->rank()));
  return Status::Ok();
}

// buffer_view.dim(view, index) -> i64, 0 for an index outside the rank. Programs read the dims
// of a dynamically shaped input before buffer_view.assert checks its rank, so trapping here would
// replace the assert's "rank mismatch" with a less helpful error.
Status BufferViewDim(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::BufferView * view, RefArg<rt::BufferView>(args[0], "buffer view"));
  const int32_t index = args[1].i32();
  const bool in_rank = index >= 0 && static_cast<size_t>(index) < view->rank();
  results[0] = Value::I64(in_rank ? view->shape()[index] : 0);
  return Status::Ok();
}

// buffer_view.trace(key, [views...]): a debugging hook; nothing to do without a tracer.
Status BufferViewTrace(ModuleState&, Args, Results) { return Status::Ok(); }

}  // namespace

void AppendBufferExports(ExportDefs* defs) {
  defs->push_back({"allocator.allocate", "0rIiiI_r", AllocatorAllocate, {}});
  defs->push_back({"allocator.import", "0riIiirII_r", AllocatorImport, {}});
  defs->push_back({"allocator.select", "0iiICrID_rI", AllocatorSelect, {}});
  defs->push_back({"buffer.allocation.discard", "0r_i", BufferAllocationDiscard, {}});
  defs->push_back({"buffer.allocation.is_terminal", "0r_i", BufferAllocationIsTerminal, {}});
  defs->push_back({"buffer.allocation.preserve", "0r_v", BufferAllocationPreserve, {}});
  defs->push_back({"buffer.assert", "0rrrIii_v", BufferAssert, {}});
  defs->push_back({"buffer.length", "0r_I", BufferLength, {}});
  defs->push_back({"buffer.load", "0rIi_i", BufferLoad, {}});
  defs->push_back({"buffer.store", "0irIi_v", BufferStore, {}});
  defs->push_back({"buffer.subspan", "0rII_r", BufferSubspan, {}});
  defs->push_back({"buffer_view.assert", "0rriiCID_v", BufferViewAssert, {}});
  defs->push_back({"buffer_view.buffer", "0r_r", BufferViewBuffer, {}});
  defs->push_back({"buffer_view.create", "0rIIiiCID_r", BufferViewCreate, {}});
  defs->push_back({"buffer_view.dim", "0ri_I", BufferViewDim, {}});
  defs->push_back({"buffer_view.element_type", "0r_i", BufferViewElementType, {}});
  defs->push_back({"buffer_view.encoding_type", "0r_i", BufferViewEncodingType, {}});
  defs->push_back({"buffer_view.rank", "0r_i", BufferViewRank, {}});
  defs->push_back({"buffer_view.trace", "0rCrD_v", BufferViewTrace, {}});
}

}  // namespace iree_rt::modules::hal
