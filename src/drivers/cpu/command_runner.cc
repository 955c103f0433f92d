// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/command_runner.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "base/fault_hook.h"
#include "base/inline_vector.h"
#include "base/trace.h"
#include "drivers/cpu/executable.h"
#include "drivers/cpu/task/flush_denormals.h"
#if IREE_RT_COLLECTIVES
#include "hal/utils/host_channel.h"
#include "hal/utils/shm_channel.h"
#endif

namespace iree_rt::drivers::cpu {

using base::Status;
using hal::utils::ResolvedRef;

namespace {

// Per-thread workgroup scratch, grown on demand: workgroups on one thread never overlap.
uint8_t* LocalMemory(uint32_t size) {
  struct Scratch {
    uint8_t* data = nullptr;
    uint32_t size = 0;
    ~Scratch() { std::free(data); }
  };
  thread_local Scratch scratch;
  if (size == 0) return nullptr;
  if (scratch.size < size) {
    std::free(scratch.data);
    scratch.data = base::AllocationFaultInjected()
                       ? nullptr
                       : static_cast<uint8_t*>(std::aligned_alloc(64, (size + 63) / 64 * 64));
    scratch.size = scratch.data ? size : 0;
  }
  return scratch.data;
}

// A dispatch span's args. Built per dispatch while tracing, so plain appends rather than StrCat's
// stream (which cost a tenth of a small dispatch).
std::string DispatchArgs(const std::string& executable, const uint32_t count[3]) {
  std::string args = "\"executable\":\"";
  args.reserve(64 + executable.size());
  args += base::trace::JsonEscape(executable);
  args += "\",\"workgroup_count\":[";
  for (int i = 0; i < 3; ++i) {
    if (i) args += ',';
    args += std::to_string(count[i]);
  }
  args += ']';
  return args;
}

}  // namespace

// Runs a transfer, recorded on |track| (when not 0) as |name| with its byte count.
template <typename F>
Status Timed(uint32_t track, const char* name, uint64_t bytes, F&& transfer) {
  if (!track) return transfer();
  const uint64_t start = base::trace::NowNs();
  Status status = transfer();
  base::trace::Complete(track, "transfer", name, start, base::trace::NowNs(),
                        std::string("\"bytes\":") + std::to_string(bytes));
  return status;
}

Status CommandRunner::Fill(const ResolvedRef& target, uint32_t pattern, uint32_t pattern_length) {
  return Timed(trace_track_, "fill", target.length, [&] {
    return target.buffer->Fill(target.offset, target.length, pattern, pattern_length);
  });
}

Status CommandRunner::Update(const uint8_t* source, const ResolvedRef& target) {
  return Timed(trace_track_, "update", target.length,
               [&] { return target.buffer->Write(target.offset, source, target.length); });
}

Status CommandRunner::Copy(const ResolvedRef& source, const ResolvedRef& target) {
  return Timed(trace_track_, "copy", source.length, [&] {
    return hal::Buffer::Copy(*source.buffer, source.offset, *target.buffer, target.offset,
                             source.length);
  });
}

Status CommandRunner::Dispatch(hal::Executable& executable, uint32_t export_ordinal,
                               const uint32_t workgroup_count[3], const ResolvedRef* indirect_count,
                               std::span<const uint32_t> constants,
                               std::span<const ResolvedRef> bindings) {
  const Executable* cpu_executable = Executable::Cast(executable);
  if (!cpu_executable) return base::InvalidArgumentError("executable was not loaded by a CPU device");
  uint32_t count[3] = {workgroup_count[0], workgroup_count[1], workgroup_count[2]};
  if (indirect_count) {
    RT_RETURN_IF_ERROR(indirect_count->buffer->Read(indirect_count->offset, count, sizeof(count)));
  }
  uint64_t total = uint64_t{count[0]} * count[1] * count[2];
  if (total == 0) return Status::Ok();
  if (total > UINT32_MAX) {
    return base::OutOfRangeError("dispatch of ", count[0], "x", count[1], "x", count[2],
                                 " workgroups exceeds 2^32 workgroups");
  }
  if (!trace_track_) return RunDispatch(*cpu_executable, export_ordinal, count, constants, bindings);
  const uint64_t start = base::trace::NowNs();
  Status status = RunDispatch(*cpu_executable, export_ordinal, count, constants, bindings);
  const DispatchProgram& traced = cpu_executable->program();
  if (export_ordinal < traced.export_count()) {
    base::trace::Complete(
        trace_track_, "dispatch", traced.export_info(export_ordinal).name, start,
        base::trace::NowNs(),
        DispatchArgs(traced.name(), count));
  }
  return status;
}

Status CommandRunner::RunDispatch(const Executable& executable, uint32_t export_ordinal,
                                  const uint32_t count[3], std::span<const uint32_t> constants,
                                  std::span<const ResolvedRef> bindings) {
  const Executable* cpu_executable = &executable;
  const uint64_t total = uint64_t{count[0]} * count[1] * count[2];

  base::InlineVector<void*, 8> binding_ptrs;
  base::InlineVector<size_t, 8> binding_lengths;
  for (size_t i = 0; i < bindings.size(); ++i) {
    // Read access: mapping only checks reachability; the kernel's own layout governs writes.
    RT_ASSIGN_OR_RETURN(uint8_t* ptr, bindings[i].buffer->Map(hal::MemoryAccess::kRead,
                                                              bindings[i].offset, bindings[i].length));
    binding_ptrs.push_back(ptr);
    binding_lengths.push_back(static_cast<size_t>(bindings[i].length));
  }
  const DispatchProgram& program = cpu_executable->program();
  uint32_t concurrency = executor_ ? executor_->worker_count() + 1 : 1;
  alignas(64) DispatchStateV0 state;
  RT_RETURN_IF_ERROR(program.PrepareDispatch(export_ordinal, count, constants,
                                             std::span<void* const>(binding_ptrs),
                                             std::span<const size_t>(binding_lengths), std::min<uint32_t>(concurrency, 255),
                                             &state));
  const uint32_t local_size = cpu_executable->local_memory_size(export_ordinal);
  const uint32_t count_x = count[0], count_xy = count[0] * count[1];
  auto run_tile = [&](uint32_t tile, uint32_t processor_id) -> Status {
    uint8_t* local = LocalMemory(local_size);
    if (local_size && !local) {
      return base::ResourceExhaustedError("cannot allocate ", local_size, " bytes of workgroup memory");
    }
    uint32_t z = tile / count_xy, rem = tile % count_xy;
    return program.RunWorkgroup(export_ordinal, state, rem % count_x, rem / count_x, z, processor_id,
                                local, local_size);
  };
  if (executor_ && trace_track_) {
    const std::string& name = export_ordinal < program.export_count() ? program.export_info(export_ordinal).name
                                                                      : program.name();
    return RunTraced(name, static_cast<uint32_t>(total), run_tile, &cpu_executable->tile_cost(export_ordinal));
  }
  if (executor_) {
    return executor_->ParallelFor(static_cast<uint32_t>(total), run_tile,
                                  &cpu_executable->tile_cost(export_ordinal));
  }
  ScopedFlushDenormals flush;
  for (uint32_t tile = 0; tile < total; ++tile) RT_RETURN_IF_ERROR(run_tile(tile, 0));
  return Status::Ok();
}

uint32_t CommandRunner::WorkerTrack(uint32_t processor_id) {
  if (processor_id >= worker_tracks_.size()) worker_tracks_.resize(processor_id + 1, 0);
  uint32_t& track = worker_tracks_[processor_id];
  if (!track) {
    track = processor_id == executor_->worker_count()
                ? base::trace::RegisterTrack(base::StrCat(trace_device_, " caller"))
                : base::trace::RegisterTrack(base::StrCat(trace_device_, " worker ", processor_id));
  }
  return track;
}

Status CommandRunner::RunTraced(const std::string& name, uint32_t tile_count, const TaskExecutor::TileFn& run_tile,
                                TileCost* cost) {
  // One slot per processor (the caller last), each on its own cache line: a thread writes only
  // its own while the loop runs, and they are read once it has returned.
  struct alignas(64) Slot {
    uint64_t start = 0, end = 0;
    uint32_t tiles = 0;
  };
  std::vector<Slot> slots(executor_->worker_count() + 1);
  const auto timed = [&](uint32_t tile, uint32_t processor_id) -> Status {
    Slot& slot = slots[std::min<size_t>(processor_id, slots.size() - 1)];
    if (!slot.tiles) slot.start = base::trace::NowNs();  // one clock read per workgroup, not two
    Status status = run_tile(tile, processor_id);
    slot.end = base::trace::NowNs();
    ++slot.tiles;
    return status;
  };
  Status status = executor_->ParallelFor(tile_count, timed, cost);
  for (uint32_t id = 0; id < slots.size(); ++id) {
    if (!slots[id].tiles) continue;
    base::trace::Complete(WorkerTrack(id), "workgroups", name, slots[id].start, slots[id].end,
                          std::string("\"workgroups\":") + std::to_string(slots[id].tiles));
  }
  return status;
}

Status CommandRunner::Collective(hal::Channel& channel, const hal::CollectiveOp& op, uint32_t param,
                                 const ResolvedRef* send, const ResolvedRef* recv, uint64_t element_count) {
#if !IREE_RT_COLLECTIVES
  return base::UnavailableError(op.ToString(), ": this build has no collectives (IREE_RT_COLLECTIVES=OFF)");
#else
  hal::utils::HostChannel* host = hal::utils::HostChannel::Cast(&channel);
  hal::utils::ShmChannel* shm = hal::utils::ShmChannel::Cast(&channel);
  if (!host && !shm) return base::InvalidArgumentError(op.ToString(), ": the channel was not created by a CPU device");
  const uint8_t* send_ptr = nullptr;
  uint8_t* recv_ptr = nullptr;
  if (send) {
    RT_ASSIGN_OR_RETURN(uint8_t* ptr, send->buffer->Map(hal::MemoryAccess::kRead, send->offset, send->length));
    send_ptr = ptr;
  }
  if (recv) {
    RT_ASSIGN_OR_RETURN(recv_ptr, recv->buffer->Map(hal::MemoryAccess::kWrite, recv->offset, recv->length));
  }
  return host ? host->Run(op, param, send_ptr, recv_ptr, element_count)
              : shm->Run(op, param, send_ptr, recv_ptr, element_count);
#endif
}

}  // namespace iree_rt::drivers::cpu
