// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// device.*, devices.* and channel.* (hal_abi_facts.md §1.3, "Device, queue and device
// enumeration" and "Channels"). Queue operations validate and enqueue; failures found later
// fail the signal fence.
#include <string>
#include <vector>

#include "base/trace.h"
#include "hal/buffer.h"
#include "hal/command_buffer.h"
#include "hal/device.h"
#include "hal/file.h"
#include "modules/hal/args.h"
#include "modules/hal/exports.h"
#include "modules/hal/module_state.h"

namespace iree_rt::modules::hal {
namespace {

using base::Ref;
using base::Status;
using base::StatusOr;
using vm::ModuleState;
using vm::Value;

// The (device, affinity, wait, signal) prefix every queue operation shares.
struct QueueArgs {
  rt::Device* device = nullptr;
  rt::QueueAffinity affinity = rt::kQueueAffinityAny;
  rt::PointList wait;
  rt::PointList signal;
};

// Fills |queue| in place: queue operations run once per dispatch, so no copies of the lists.
Status DecodeQueueArgs(Args args, QueueArgs* queue) {
  queue->device = args[0].ref().Get<rt::Device>();
  if (!queue->device) return RefArg<rt::Device>(args[0], "device").status();
  queue->affinity = static_cast<rt::QueueAffinity>(args[1].i64());
  RT_RETURN_IF_ERROR(FenceArg(args[2], "wait fence", &queue->wait));
  return FenceArg(args[3], "signal fence", &queue->signal);
}

Status DeviceAllocator(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Device * device, RefArg<rt::Device>(args[0], "device"));
  results[0] = RefResult(Ref<rt::Allocator>::Retain(&device->allocator()));
  return Status::Ok();
}

// device.query.i64(device, category, key) -> (ok, value). Never traps on an unknown key: the
// program treats ok == 0 as "no".
Status DeviceQueryI64(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Device * device, RefArg<rt::Device>(args[0], "device"));
  RT_ASSIGN_OR_RETURN(std::string_view category, StringArg(args[1], "query category"));
  RT_ASSIGN_OR_RETURN(std::string_view key, StringArg(args[2], "query key"));
  StatusOr<int64_t> value = device->QueryI64(category, key);
  if (!value.ok()) {
    if (value.status().code() == base::StatusCode::kNotFound) return Status::Ok();  // (0, 0)
    return value.status();
  }
  results[0] = Value::I32(1);
  results[1] = Value::I64(*value);
  return Status::Ok();
}

// device.queue.alloca(device, affinity, wait, signal, pool, memory_types, usage, size, flags)
Status QueueAlloca(ModuleState& state, Args args, Results results) {
  base::trace::Scope trace_scope("hal", "hal.device.queue.alloca");
  QueueArgs queue;
  RT_RETURN_IF_ERROR(DecodeQueueArgs(args, &queue));
  if (args[4].i64() != 0) {
    return base::UnimplementedError("allocation pool ", args[4].i64(), " (only pool 0 exists)");
  }
  rt::BufferParams params;
  params.type = static_cast<rt::MemoryTypeBits>(args[5].i32());
  params.usage = static_cast<rt::BufferUsageBits>(args[6].i32());
  params.access = rt::MemoryAccess::kAll;
  RT_ASSIGN_OR_RETURN(uint64_t size, NonNegative(args[7].i64(), "allocation size"));
  RT_ASSIGN_OR_RETURN(base::MemoryCharge charge, ChargeAllocation(state, size));
  RT_ASSIGN_OR_RETURN(Ref<rt::Buffer> buffer,
                      queue.device->QueueAlloca(queue.affinity, queue.wait, queue.signal, params,
                                                size, static_cast<uint64_t>(args[8].i64())));
  buffer->AttachCharge(std::move(charge));
  results[0] = RefResult(std::move(buffer));
  return Status::Ok();
}

// device.queue.dealloca(device, affinity, wait, signal, buffer, flags)
Status QueueDealloca(ModuleState&, Args args, Results) {
  base::trace::Scope trace_scope("hal", "hal.device.queue.dealloca");
  QueueArgs queue;
  RT_RETURN_IF_ERROR(DecodeQueueArgs(args, &queue));
  RT_RETURN_IF_ERROR(RefArg<rt::Buffer>(args[4], "buffer").status());
  return queue.device->QueueDealloca(queue.affinity, queue.wait, queue.signal,
                                     RetainArg<rt::Buffer>(args[4]),
                                     static_cast<uint64_t>(args[5].i64()));
}

// device.queue.fill(device, affinity, wait, signal, target, offset, length, pattern,
// pattern_length, flags)
Status QueueFill(ModuleState&, Args args, Results) {
  base::trace::Scope trace_scope("hal", "hal.device.queue.fill");
  QueueArgs queue;
  RT_RETURN_IF_ERROR(DecodeQueueArgs(args, &queue));
  RT_RETURN_IF_ERROR(RefArg<rt::Buffer>(args[4], "fill target").status());
  RT_ASSIGN_OR_RETURN(uint64_t offset, NonNegative(args[5].i64(), "fill offset"));
  return queue.device->QueueFill(queue.affinity, queue.wait, queue.signal,
                                 RetainArg<rt::Buffer>(args[4]), offset,
                                 static_cast<uint64_t>(args[6].i64()),
                                 static_cast<uint32_t>(args[7].i64()),
                                 static_cast<uint32_t>(args[8].i32()));
}

// device.queue.update(device, affinity, wait, signal, source, source_offset, target,
// target_offset, length, flags): the source bytes are captured before this returns.
Status QueueUpdate(ModuleState&, Args args, Results) {
  base::trace::Scope trace_scope("hal", "hal.device.queue.update");
  QueueArgs queue;
  RT_RETURN_IF_ERROR(DecodeQueueArgs(args, &queue));
  RT_ASSIGN_OR_RETURN(vm::Buffer * source, RefArg<vm::Buffer>(args[4], "update source"));
  RT_RETURN_IF_ERROR(RefArg<rt::Buffer>(args[6], "update target").status());
  RT_ASSIGN_OR_RETURN(uint64_t source_offset, NonNegative(args[5].i64(), "update source offset"));
  RT_ASSIGN_OR_RETURN(uint64_t target_offset, NonNegative(args[7].i64(), "update target offset"));
  RT_ASSIGN_OR_RETURN(uint64_t length, NonNegative(args[8].i64(), "update length"));
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, source->ReadRange(source_offset, length));
  return queue.device->QueueUpdate(queue.affinity, queue.wait, queue.signal, bytes.data(), length,
                                   RetainArg<rt::Buffer>(args[6]), target_offset);
}

// device.queue.copy(device, affinity, wait, signal, source, source_offset, target,
// target_offset, length, flags)
Status QueueCopy(ModuleState&, Args args, Results) {
  base::trace::Scope trace_scope("hal", "hal.device.queue.copy");
  QueueArgs queue;
  RT_RETURN_IF_ERROR(DecodeQueueArgs(args, &queue));
  RT_RETURN_IF_ERROR(RefArg<rt::Buffer>(args[4], "copy source").status());
  RT_RETURN_IF_ERROR(RefArg<rt::Buffer>(args[6], "copy target").status());
  RT_ASSIGN_OR_RETURN(uint64_t source_offset, NonNegative(args[5].i64(), "copy source offset"));
  RT_ASSIGN_OR_RETURN(uint64_t target_offset, NonNegative(args[7].i64(), "copy target offset"));
  RT_ASSIGN_OR_RETURN(uint64_t length, NonNegative(args[8].i64(), "copy length"));
  return queue.device->QueueCopy(queue.affinity, queue.wait, queue.signal,
                                 RetainArg<rt::Buffer>(args[4]), source_offset,
                                 RetainArg<rt::Buffer>(args[6]), target_offset, length);
}

// device.queue.read(device, affinity, wait, signal, file, file_offset, target, target_offset,
// length, flags)
Status QueueRead(ModuleState&, Args args, Results) {
  base::trace::Scope trace_scope("hal", "hal.device.queue.read");
  QueueArgs queue;
  RT_RETURN_IF_ERROR(DecodeQueueArgs(args, &queue));
  RT_RETURN_IF_ERROR(RefArg<rt::File>(args[4], "read source file").status());
  RT_RETURN_IF_ERROR(RefArg<rt::Buffer>(args[6], "read target").status());
  RT_ASSIGN_OR_RETURN(uint64_t target_offset, NonNegative(args[7].i64(), "read target offset"));
  RT_ASSIGN_OR_RETURN(uint64_t length, NonNegative(args[8].i64(), "read length"));
  return queue.device->QueueRead(queue.affinity, queue.wait, queue.signal,
                                 RetainArg<rt::File>(args[4]), static_cast<uint64_t>(args[5].i64()),
                                 RetainArg<rt::Buffer>(args[6]), target_offset, length);
}

// device.queue.write(device, affinity, wait, signal, source, source_offset, file, file_offset,
// length, flags)
Status QueueWrite(ModuleState&, Args args, Results) {
  base::trace::Scope trace_scope("hal", "hal.device.queue.write");
  QueueArgs queue;
  RT_RETURN_IF_ERROR(DecodeQueueArgs(args, &queue));
  RT_RETURN_IF_ERROR(RefArg<rt::Buffer>(args[4], "write source").status());
  RT_RETURN_IF_ERROR(RefArg<rt::File>(args[6], "write target file").status());
  RT_ASSIGN_OR_RETURN(uint64_t source_offset, NonNegative(args[5].i64(), "write source offset"));
  RT_ASSIGN_OR_RETURN(uint64_t length, NonNegative(args[8].i64(), "write length"));
  return queue.device->QueueWrite(queue.affinity, queue.wait, queue.signal,
                                  RetainArg<rt::Buffer>(args[4]), source_offset,
                                  RetainArg<rt::File>(args[6]), static_cast<uint64_t>(args[7].i64()),
                                  length);
}

// device.queue.barrier(device, affinity, wait, signal, flags)
Status QueueBarrier(ModuleState&, Args args, Results) {
  base::trace::Scope trace_scope("hal", "hal.device.queue.barrier");
  QueueArgs queue;
  RT_RETURN_IF_ERROR(DecodeQueueArgs(args, &queue));
  return queue.device->QueueBarrier(queue.affinity, queue.wait, queue.signal);
}

// device.queue.execute(device, affinity, wait, signal, command_buffer, flags)
Status QueueExecute(ModuleState&, Args args, Results) {
  base::trace::Scope trace_scope("hal", "hal.device.queue.execute");
  QueueArgs queue;
  RT_RETURN_IF_ERROR(DecodeQueueArgs(args, &queue));
  RT_RETURN_IF_ERROR(RefArg<rt::CommandBuffer>(args[4], "command buffer").status());
  return queue.device->QueueExecute(queue.affinity, queue.wait, queue.signal,
                                    RetainArg<rt::CommandBuffer>(args[4]), {});
}

// device.queue.execute.indirect(device, affinity, wait, signal, command_buffer, flags,
// [(buffer, offset, length)...]): the table is copied and its buffers retained by the queue.
Status QueueExecuteIndirect(ModuleState&, Args args, Results) {
  base::trace::Scope trace_scope("hal", "hal.device.queue.execute.indirect");
  QueueArgs queue;
  RT_RETURN_IF_ERROR(DecodeQueueArgs(args, &queue));
  RT_ASSIGN_OR_RETURN(rt::CommandBuffer * command_buffer, RefArg<rt::CommandBuffer>(args[4], "command buffer"));
  size_t index = 6;
  RT_ASSIGN_OR_RETURN(size_t count, SpanCount(args, &index, 3));
  // The table borrows the buffers from the argument registers, which hold them for the call
  // (the device copies the table, retaining them, if it keeps it past the call).
  base::InlineVector<rt::BufferBinding, 8> table;  // programs bind a handful of buffers
  struct Unborrow {
    base::InlineVector<rt::BufferBinding, 8>& table;
    ~Unborrow() {
      for (rt::BufferBinding& binding : table) binding.buffer.Detach();
    }
  } unborrow{table};
  for (size_t i = 0; i < count; ++i, index += 3) {
    // Checked inline, errors built only on failure: this runs for every binding of every call.
    rt::Buffer* buffer = args[index].ref().Get<rt::Buffer>();
    if (!buffer && !args[index].ref().is_null()) {
      return NullableRefArg<rt::Buffer>(args[index], "binding").status();
    }
    const int64_t offset = args[index + 1].i64();
    if (offset < 0) return NonNegative(offset, "binding offset").status();
    table.push_back(rt::BufferBinding{Ref<rt::Buffer>::Adopt(buffer), static_cast<uint64_t>(offset),
                                      static_cast<uint64_t>(args[index + 2].i64())});
  }
  const base::BorrowedRef<rt::CommandBuffer> borrowed(command_buffer);
  return queue.device->QueueExecute(queue.affinity, queue.wait, queue.signal, borrowed.ref(),
                                    std::span<const rt::BufferBinding>(table));
}

// device.queue.flush(device, affinity): queues here submit eagerly, so there is nothing to push.
Status QueueFlush(ModuleState&, Args args, Results) {
  return RefArg<rt::Device>(args[0], "device").status();
}

Status DevicesCount(ModuleState& state, Args, Results results) {
  RT_ASSIGN_OR_RETURN(HalState * hal_state, GetHalState(state));
  results[0] = Value::I32(static_cast<int32_t>(hal_state->devices().size()));
  return Status::Ok();
}

// devices.get(index) -> device, or null past the end (the program's enumeration loop stops).
Status DevicesGet(ModuleState& state, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(HalState * hal_state, GetHalState(state));
  const int32_t index = args[0].i32();
  if (index >= 0 && static_cast<size_t>(index) < hal_state->devices().size()) {
    results[0] = RefResult(hal_state->devices()[index]);
  }
  return Status::Ok();
}

// channel.create(device, queue_affinity, flags, id?, group?, rank, count) -> channel.
Status ChannelCreate(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Device * device, RefArg<rt::Device>(args[0], "device"));
  rt::ChannelParams params;
  params.flags = static_cast<uint64_t>(args[2].i64());
  if (!args[3].ref().is_null()) {
    RT_ASSIGN_OR_RETURN(std::span<const uint8_t> id, BytesArg(args[3], "channel id"));
    params.id.assign(id.begin(), id.end());
  }
  if (!args[4].ref().is_null()) {
    RT_ASSIGN_OR_RETURN(std::string_view group, StringArg(args[4], "channel group"));
    params.group = group;
  }
  params.rank = args[5].i32();
  params.count = args[6].i32();
  RT_ASSIGN_OR_RETURN(Ref<rt::Channel> channel,
                      device->CreateChannel(static_cast<rt::QueueAffinity>(args[1].i64()), params));
  results[0] = RefResult(std::move(channel));
  return Status::Ok();
}

// channel.split(channel, color, key, flags) -> channel (null for a negative color).
Status ChannelSplit(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Channel * channel, RefArg<rt::Channel>(args[0], "channel"));
  RT_ASSIGN_OR_RETURN(Ref<rt::Channel> split,
                      channel->Split(args[1].i32(), args[2].i32(), static_cast<uint64_t>(args[3].i64())));
  if (split) results[0] = RefResult(std::move(split));
  return Status::Ok();
}

// channel.rank_and_count(channel) -> (rank, count).
Status ChannelRankAndCount(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Channel * channel, RefArg<rt::Channel>(args[0], "channel"));
  results[0] = Value::I32(channel->rank());
  results[1] = Value::I32(channel->count());
  return Status::Ok();
}

}  // namespace

void AppendDeviceExports(ExportDefs* defs) {
  defs->push_back({"channel.create", "0rIIrrii_r", ChannelCreate, {}});
  defs->push_back({"channel.rank_and_count", "0r_ii", ChannelRankAndCount, {}});
  defs->push_back({"channel.split", "0riiI_r", ChannelSplit, {}});
  defs->push_back({"device.allocator", "0r_r", DeviceAllocator, {}});
  defs->push_back({"device.query.i64", "0rrr_iI", DeviceQueryI64, {}});
  defs->push_back({"device.queue.alloca", "0rIrrIiiII_r", QueueAlloca, {}});
  defs->push_back({"device.queue.barrier", "0rIrrI_v", QueueBarrier, {}});
  defs->push_back({"device.queue.copy", "0rIrrrIrIII_v", QueueCopy, {}});
  defs->push_back({"device.queue.dealloca", "0rIrrrI_v", QueueDealloca, {}});
  defs->push_back({"device.queue.execute", "0rIrrrI_v", QueueExecute, {}});
  defs->push_back({"device.queue.execute.indirect", "0rIrrrICrIID_v", QueueExecuteIndirect, {}});
  defs->push_back({"device.queue.fill", "0rIrrrIIIiI_v", QueueFill, {}});
  defs->push_back({"device.queue.flush", "0rI_v", QueueFlush, {}});
  defs->push_back({"device.queue.read", "0rIrrrIrIII_v", QueueRead, {}});
  defs->push_back({"device.queue.update", "0rIrrrIrIII_v", QueueUpdate, {}});
  defs->push_back({"device.queue.write", "0rIrrrIrIII_v", QueueWrite, {}});
  defs->push_back({"devices.count", "0v_i", DevicesCount, {}});
  defs->push_back({"devices.get", "0i_r", DevicesGet, {}});
}

}  // namespace iree_rt::modules::hal
