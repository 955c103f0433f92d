// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// command_buffer.* (hal_abi_facts.md §1.3, "Command buffers"). Recording validation (state,
// categories, ranges, export signatures) lives in hal::CommandBuffer; these handlers decode.
#include <array>
#include <vector>

#include "hal/command_buffer.h"
#include "hal/device.h"
#include "hal/executable.h"
#include "modules/hal/args.h"
#include "modules/hal/exports.h"

namespace iree_rt::modules::hal {
namespace {

using base::Ref;
using base::Status;
using base::StatusOr;
using vm::ModuleState;
using vm::Value;

StatusOr<rt::CommandBuffer*> CommandBufferArg(const vm::Arg& value) {
  return RefArg<rt::CommandBuffer>(value, "command buffer");
}

// command_buffer.create(device, modes, categories, affinity, binding_capacity) -> command buffer
Status Create(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Device * device, RefArg<rt::Device>(args[0], "device"));
  const int32_t binding_capacity = args[4].i32();
  if (binding_capacity < 0) {
    return base::InvalidArgumentError("negative binding capacity ", binding_capacity);
  }
  RT_ASSIGN_OR_RETURN(Ref<rt::CommandBuffer> command_buffer,
                      device->CreateCommandBuffer(static_cast<rt::CommandBufferModeBits>(args[1].i32()),
                                                  static_cast<rt::CommandCategoryBits>(args[2].i32()),
                                                  static_cast<rt::QueueAffinity>(args[3].i64()),
                                                  static_cast<uint32_t>(binding_capacity)));
  results[0] = RefResult(std::move(command_buffer));
  return Status::Ok();
}

Status Finalize(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::CommandBuffer * command_buffer, CommandBufferArg(args[0]));
  return command_buffer->Finalize();
}

// Debug groups and buffer advice are hints with no effect on results.
Status AcceptHint(ModuleState&, Args args, Results) {
  return CommandBufferArg(args[0]).status();
}

// command_buffer.execution_barrier(cb, source_stages, target_stages, flags)
Status ExecutionBarrier(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::CommandBuffer * command_buffer, CommandBufferArg(args[0]));
  return command_buffer->ExecutionBarrier(static_cast<rt::ExecutionStageBits>(args[1].i32()),
                                          static_cast<rt::ExecutionStageBits>(args[2].i32()));
}

// command_buffer.fill_buffer(cb, target, offset, length, slot, pattern, pattern_length, flags)
Status FillBuffer(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::CommandBuffer * command_buffer, CommandBufferArg(args[0]));
  RT_ASSIGN_OR_RETURN(rt::BufferRef target, BufferRefArg(args[1], args[4].i32(), args[2].i64(),
                                                         args[3].i64(), "fill target"));
  return command_buffer->Fill(target, static_cast<uint32_t>(args[5].i64()),
                              static_cast<uint32_t>(args[6].i32()));
}

// command_buffer.update_buffer(cb, source, source_offset, target, target_offset, length, slot,
// flags): the source bytes are copied into the command buffer now.
Status UpdateBuffer(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::CommandBuffer * command_buffer, CommandBufferArg(args[0]));
  RT_ASSIGN_OR_RETURN(vm::Buffer * source, RefArg<vm::Buffer>(args[1], "update source"));
  const int64_t source_offset = args[2].i64();
  const int64_t length = args[5].i64();
  if (source_offset < 0 || length < 0 || static_cast<uint64_t>(source_offset) > source->length() ||
      static_cast<uint64_t>(length) > source->length() - static_cast<uint64_t>(source_offset)) {
    return base::OutOfRangeError("update source range [", source_offset, ", +", length,
                                 ") is outside the ", source->length(), "-byte vm.buffer");
  }
  RT_ASSIGN_OR_RETURN(rt::BufferRef target, BufferRefArg(args[3], args[6].i32(), args[4].i64(),
                                                         length, "update target"));
  return command_buffer->Update(source->bytes().data() + source_offset,
                                static_cast<uint64_t>(length), target);
}

// command_buffer.copy_buffer(cb, source_slot, target_slot, source, source_offset, target,
// target_offset, length, flags)
Status CopyBuffer(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::CommandBuffer * command_buffer, CommandBufferArg(args[0]));
  const int64_t length = args[7].i64();
  RT_ASSIGN_OR_RETURN(rt::BufferRef source, BufferRefArg(args[3], args[1].i32(), args[4].i64(),
                                                         length, "copy source"));
  RT_ASSIGN_OR_RETURN(rt::BufferRef target, BufferRefArg(args[5], args[2].i32(), args[6].i64(),
                                                         length, "copy target"));
  return command_buffer->Copy(source, target, static_cast<uint64_t>(length));
}

// command_buffer.collective(cb, channel, op, param, send_slot, recv_slot, send?, recv?,
// send_offset, send_length, recv_offset, recv_length, element_count)
Status Collective(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::CommandBuffer * command_buffer, CommandBufferArg(args[0]));
  RT_ASSIGN_OR_RETURN(rt::Channel * channel, RefArg<rt::Channel>(args[1], "channel"));
  RT_ASSIGN_OR_RETURN(rt::CollectiveOp op, rt::CollectiveOp::Unpack(static_cast<uint32_t>(args[2].i32())));
  RT_ASSIGN_OR_RETURN(rt::BufferRef send, BufferRefArg(args[6], args[4].i32(), args[8].i64(), args[9].i64(),
                                                       "collective send"));
  RT_ASSIGN_OR_RETURN(rt::BufferRef recv, BufferRefArg(args[7], args[5].i32(), args[10].i64(), args[11].i64(),
                                                       "collective recv"));
  RT_ASSIGN_OR_RETURN(uint64_t element_count, NonNegative(args[12].i64(), "collective element count"));
  return command_buffer->Collective(Ref<rt::Channel>::Retain(channel), op, static_cast<uint32_t>(args[3].i32()),
                                    send, recv, element_count);
}

StatusOr<uint32_t> FunctionId(const rt::Executable& executable, int64_t function_id) {
  if (function_id < 0 || function_id >= executable.export_count()) {
    return base::InvalidArgumentError("function id ", function_id, " is not an export of the "
                                      "executable (", executable.export_count(), " exports)");
  }
  return static_cast<uint32_t>(function_id);
}

// Decodes the two trailing spans of both dispatch forms, starting at args[index]: i32 constants,
// then (reserved i32, slot i32, buffer, offset i64, length i64) bindings.
Status DecodeDispatchSpans(Args args, size_t index, std::vector<uint32_t>* constants,
                           std::vector<rt::BufferRef>* bindings) {
  RT_ASSIGN_OR_RETURN(size_t constant_count, SpanCount(args, &index, 1));
  constants->resize(constant_count);
  for (size_t i = 0; i < constant_count; ++i) {
    (*constants)[i] = static_cast<uint32_t>(args[index++].i32());
  }
  RT_ASSIGN_OR_RETURN(size_t binding_count, SpanCount(args, &index, 5));
  bindings->reserve(binding_count);
  for (size_t i = 0; i < binding_count; ++i, index += 5) {
    RT_ASSIGN_OR_RETURN(rt::BufferRef binding,
                        BufferRefArg(args[index + 2], args[index + 1].i32(), args[index + 3].i64(),
                                     args[index + 4].i64(), "dispatch binding"));
    bindings->push_back(std::move(binding));
  }
  return Status::Ok();
}

// command_buffer.dispatch(cb, executable, function_id, x, y, z, flags, [constants], [bindings])
Status Dispatch(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::CommandBuffer * command_buffer, CommandBufferArg(args[0]));
  RT_ASSIGN_OR_RETURN(rt::Executable * executable, RefArg<rt::Executable>(args[1], "executable"));
  RT_ASSIGN_OR_RETURN(uint32_t ordinal, FunctionId(*executable, args[2].i64()));
  rt::DispatchConfig config;
  for (int i = 0; i < 3; ++i) {
    const int32_t count = args[3 + i].i32();
    if (count < 0) return base::InvalidArgumentError("negative workgroup count ", count);
    config.workgroup_count[i] = static_cast<uint32_t>(count);
  }
  std::vector<uint32_t> constants;
  std::vector<rt::BufferRef> bindings;
  RT_RETURN_IF_ERROR(DecodeDispatchSpans(args, 7, &constants, &bindings));
  return command_buffer->Dispatch(Ref<rt::Executable>::Retain(executable), ordinal, config,
                                  constants, bindings, static_cast<rt::DispatchFlags>(args[6].i64()));
}

// command_buffer.dispatch.indirect(cb, executable, function_id, workgroups_slot,
// workgroups_buffer, workgroups_offset, flags, [constants], [bindings]): the workgroup count is
// read when the dispatch runs unless the program promised it is static.
Status DispatchIndirect(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::CommandBuffer * command_buffer, CommandBufferArg(args[0]));
  RT_ASSIGN_OR_RETURN(rt::Executable * executable, RefArg<rt::Executable>(args[1], "executable"));
  RT_ASSIGN_OR_RETURN(uint32_t ordinal, FunctionId(*executable, args[2].i64()));
  rt::DispatchConfig config;
  RT_ASSIGN_OR_RETURN(config.workgroup_count_ref,
                      BufferRefArg(args[4], args[3].i32(), args[5].i64(), 3 * sizeof(uint32_t),
                                   "workgroup count buffer"));
  auto flags = static_cast<rt::DispatchFlags>(args[6].i64());
  if (!(flags & rt::DispatchFlag::kStaticIndirectParameters)) {
    flags |= rt::DispatchFlag::kDynamicIndirectParameters;
  }
  std::vector<uint32_t> constants;
  std::vector<rt::BufferRef> bindings;
  RT_RETURN_IF_ERROR(DecodeDispatchSpans(args, 7, &constants, &bindings));
  return command_buffer->Dispatch(Ref<rt::Executable>::Retain(executable), ordinal, config,
                                  constants, bindings, flags);
}

}  // namespace

void AppendCommandBufferExports(ExportDefs* defs) {
  defs->push_back({"command_buffer.advise_buffer", "0rrIIIi_v", AcceptHint, {}});
  defs->push_back({"command_buffer.begin_debug_group", "0rr_v", AcceptHint, {}});
  defs->push_back({"command_buffer.collective", "0rriiiirrIIIII_v", Collective, {}});
  defs->push_back({"command_buffer.copy_buffer", "0riirIrIII_v", CopyBuffer, {}});
  defs->push_back({"command_buffer.create", "0riiIi_r", Create, {}});
  defs->push_back({"command_buffer.dispatch", "0rrIiiiICiDCiirIID_v", Dispatch, {}});
  defs->push_back({"command_buffer.dispatch.indirect", "0rrIirIICiDCiirIID_v", DispatchIndirect, {}});
  defs->push_back({"command_buffer.end_debug_group", "0r_v", AcceptHint, {}});
  defs->push_back({"command_buffer.execution_barrier", "0riiI_v", ExecutionBarrier, {}});
  defs->push_back({"command_buffer.fill_buffer", "0rrIIiIiI_v", FillBuffer, {}});
  defs->push_back({"command_buffer.finalize", "0r_v", Finalize, {}});
  defs->push_back({"command_buffer.update_buffer", "0rrIrIIiI_v", UpdateBuffer, {}});
}

}  // namespace iree_rt::modules::hal
