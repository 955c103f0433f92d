// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/device.h"

#include <vector>

#include "base/trace.h"
#include "drivers/cpu/allocator.h"
#include "drivers/cpu/command_runner.h"
#include "drivers/cpu/executable.h"
#include "drivers/cpu/executable_cache.h"
#include "drivers/cpu/loader/executable_library.h"
#include "drivers/cpu/loader/processor_info.h"
#include "hal/utils/deferred_command_buffer.h"
#include "hal/utils/host_semaphore.h"
#if IREE_RT_COLLECTIVES
#include "hal/utils/host_channel.h"
#include "hal/utils/shm_channel.h"
#endif

namespace iree_rt::drivers::cpu {

using base::Ref;
using base::Status;
using base::StatusOr;

Device::Device(std::string id, const DeviceOptions& options)
    : hal::Device(std::move(id), base::MakeRef<HostAllocator>(options.max_allocation_size)),
      executor_(options.executor) {
  hal::utils::HostQueue::Executor run;
  if (executor_) {
    run = [executor = executor_.get()](std::function<void()> closure) { executor->Post(std::move(closure)); };
  } else {
    run = [](std::function<void()> closure) { hal::utils::HostQueue::RunInline(std::move(closure)); };
  }
  queue_ = std::make_unique<hal::utils::HostQueue>(std::move(run));
}

Device::~Device() {
  // Cancel and drain queue work before the executor it runs on goes away.
  queue_.reset();
}

StatusOr<int64_t> Device::QueryI64Impl(std::string_view category, std::string_view key) {
  if (category == "hal.executable.format") return Executable::SupportsFormat(key) ? 1 : 0;
  if (category == "hal.device" && key == "concurrency") return 1;  // one queue
  if (category == "hal.dispatch" && key == "concurrency") {
    return executor_ ? static_cast<int64_t>(executor_->worker_count()) : 1;
  }
  if (category == "hal.cpu") {
    if (std::optional<bool> present = HostHasCpuFeature(key)) return *present ? 1 : 0;
  }
  return base::NotFoundError("device '", id(), "' has no query value for ", category, " :: ", key);
}

StatusOr<Ref<hal::CommandBuffer>> Device::CreateCommandBufferImpl(hal::CommandBufferModeBits mode,
                                                                  hal::CommandCategoryBits categories,
                                                                  uint32_t binding_capacity) {
  return Ref<hal::CommandBuffer>(
      base::MakeRef<hal::utils::DeferredCommandBuffer>(mode, categories, binding_capacity));
}

StatusOr<Ref<hal::Semaphore>> Device::CreateSemaphoreImpl(uint64_t initial_value) {
  return Ref<hal::Semaphore>(base::MakeRef<hal::utils::HostSemaphore>(initial_value));
}

StatusOr<Ref<hal::ExecutableCache>> Device::CreateExecutableCacheImpl() {
  return Ref<hal::ExecutableCache>(base::MakeRef<ExecutableCache>());
}

Status Device::QueueExecuteImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                const Ref<hal::CommandBuffer>& command_buffer,
                                std::span<const hal::BufferBinding> binding_table) {
  if (!command_buffer) {
    // A barrier: signalling now, when its waits are met, is all there is to do.
    if (queue_->TryRunNow(wait, signal, [] { return Status::Ok(); })) return Status::Ok();
    queue_->Submit(wait, signal, [] { return Status::Ok(); });
    return Status::Ok();
  }
  auto* deferred = hal::utils::DeferredCommandBuffer::Cast(command_buffer.get());
  if (!deferred) return base::InvalidArgumentError("command buffer was not created by a CPU device");
  // local-sync runs everything on the submitting thread anyway. local-task does so for work
  // that costs less than kInlineWorkNs on one thread (by the workgroup costs measured so far):
  // handing it to a worker and waking the caller at the end would cost a sizeable share of it,
  // and a worker's caches hold none of the data the caller just wrote. Larger work goes to
  // the workers, so the caller is free while it runs. The caller's table and command buffer
  // outlive the call.
  const uint32_t track = TraceTrack();
  const uint64_t flow = StartFlow(track);
  if (!executor_ || deferred->single_workgroup() || RunsInline(*deferred)) {
    const bool ran = queue_->TryRunNow(
        wait, signal, [&] { return Run(*deferred, binding_table, executor_.get(), track, flow); });
    if (ran) return Status::Ok();
  }
  // The submission owns the command buffer and a copy of the table until it signals.
  std::vector<hal::BufferBinding> table(binding_table.begin(), binding_table.end());
  queue_->Submit(wait, signal,
                 [this, cb = command_buffer, deferred, table = std::move(table), track, flow]() {
                   return Run(*deferred, table, executor_.get(), track, flow);
                 });
  return Status::Ok();
}

uint32_t Device::TraceTrack() {
  if (!base::trace::Enabled()) return 0;
  uint32_t track = trace_track_.load(std::memory_order_relaxed);
  if (!track) {
    track = base::trace::RegisterTrack(base::StrCat(id(), " queue 0"));
    trace_track_.store(track, std::memory_order_relaxed);
  }
  return track;
}

uint64_t Device::StartFlow(uint32_t track) {
  if (!track) return 0;
  const uint64_t flow = base::trace::NewFlowId();
  base::trace::FlowStart(flow, base::trace::NowNs());
  return flow;
}

Status Device::Run(const hal::utils::DeferredCommandBuffer& command_buffer,
                   std::span<const hal::BufferBinding> binding_table, TaskExecutor* executor,
                   uint32_t track, uint64_t flow) const {
  CommandRunner runner(executor, track, id());
  if (!track) return command_buffer.Replay(binding_table, runner);
  const uint64_t start = base::trace::NowNs();
  base::trace::FlowEnd(track, flow, start);
  Status status = command_buffer.Replay(binding_table, runner);
  base::trace::Complete(track, "queue", "command buffer", start, base::trace::NowNs());
  return status;
}

bool Device::RunsInline(const hal::utils::DeferredCommandBuffer& command_buffer) {
  std::optional<uint64_t> ns = command_buffer.EstimateSerialNs(
      [](const hal::Executable& executable, uint32_t ordinal) -> uint64_t {
        const Executable* cpu_executable = Executable::Cast(executable);
        return cpu_executable ? cpu_executable->tile_cost(ordinal).ns_per_tile() : 0;
      });
  return ns && *ns <= kInlineWorkNs;
}

Status Device::QueueHostCallImpl(hal::SemaphoreList wait, hal::SemaphoreList signal, hal::HostCall call) {
  queue_->Submit(wait, signal, std::move(call));
  return Status::Ok();
}

StatusOr<Ref<hal::Channel>> Device::CreateChannelImpl(const hal::ResolvedChannel& channel) {
#if !IREE_RT_COLLECTIVES
  return base::UnavailableError("device '", id(), "': this build has no collectives (IREE_RT_COLLECTIVES=OFF)");
#else
  if (!channel.rendezvous.starts_with("local:")) {
    // Ranks in other processes of this host: shared memory, its name shared through the rendezvous.
    if (!channel.id.empty()) {
      return base::UnimplementedError("device '", id(), "': a channel id is not supported across processes");
    }
    RT_ASSIGN_OR_RETURN(Ref<hal::utils::ShmChannel> shm,
                        hal::utils::ShmChannel::Join(channel.rendezvous, channel.rank, channel.count, channel.timeout));
    return Ref<hal::Channel>(std::move(shm));
  }
  std::string name = channel.rendezvous;
  if (!channel.id.empty()) {  // an explicit id names its own communicator within the rendezvous
    static constexpr char kHex[] = "0123456789abcdef";
    name += "/id:";
    for (uint8_t byte : channel.id) name += {kHex[byte >> 4], kHex[byte & 15]};
  }
  RT_ASSIGN_OR_RETURN(Ref<hal::utils::HostChannel> host,
                      hal::utils::HostChannel::Join(name, channel.rank, channel.count, channel.timeout));
  return Ref<hal::Channel>(std::move(host));
#endif
}

}  // namespace iree_rt::drivers::cpu
