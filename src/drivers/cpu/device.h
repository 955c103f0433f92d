// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cpu::Device: the local-sync and local-task devices.
//
// local-sync runs every queue operation on the thread that makes it ready (the submitter, or the
// thread whose signal met the last wait). local-task hands ready operations to a TaskExecutor and
// spreads each dispatch's workgroups over its workers, except command buffers that are ready at
// submission and estimated to cost under kInlineWorkNs: the submitter runs those itself, with
// the workers' help. Neither blocks a submitter on a wait.
#ifndef IREE_RT_DRIVERS_CPU_DEVICE_H_
#define IREE_RT_DRIVERS_CPU_DEVICE_H_

#include <atomic>
#include <memory>

#include "drivers/cpu/task/task_executor.h"
#include "hal/device.h"
#include "hal/utils/deferred_command_buffer.h"
#include "hal/utils/host_queue.h"

namespace iree_rt::drivers::cpu {

struct DeviceOptions {
  // Null for local-sync.
  base::Ref<TaskExecutor> executor;
  uint64_t max_allocation_size = uint64_t{1} << 40;
};

class Device final : public hal::Device {
 public:
  Device(std::string id, const DeviceOptions& options);
  ~Device() override;

  TaskExecutor* executor() const { return executor_.get(); }

  // Serial work below which a ready local-task submission runs on the submitting thread: a
  // handoff (a worker's wake, the caller's wake at the end, cold caches) costs 10-20 us, more
  // than 5% of anything smaller.
  static constexpr uint64_t kInlineWorkNs = 200'000;

 private:
  base::StatusOr<int64_t> QueryI64Impl(std::string_view category, std::string_view key) override;
  base::StatusOr<base::Ref<hal::CommandBuffer>> CreateCommandBufferImpl(
      hal::CommandBufferModeBits mode, hal::CommandCategoryBits categories,
      uint32_t binding_capacity) override;
  base::StatusOr<base::Ref<hal::Semaphore>> CreateSemaphoreImpl(uint64_t initial_value) override;
  base::StatusOr<base::Ref<hal::ExecutableCache>> CreateExecutableCacheImpl() override;
  base::Status QueueExecuteImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                const base::Ref<hal::CommandBuffer>& command_buffer,
                                std::span<const hal::BufferBinding> binding_table) override;
  // Ranks that are threads of this process ("local:<name>" rendezvous): hal::utils::HostChannel;
  // processes of this host (file:, mpi): hal::utils::ShmChannel.
  base::StatusOr<base::Ref<hal::Channel>> CreateChannelImpl(const hal::ResolvedChannel& channel) override;
  base::Status QueueHostCallImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                 hal::HostCall call) override;
  static bool RunsInline(const hal::utils::DeferredCommandBuffer& command_buffer);
  // The base::trace track of the queue ("<id> queue 0"), registered on first use; 0 when
  // tracing is off (one relaxed load then).
  uint32_t TraceTrack();
  // Replays |command_buffer|, recorded on |track| (when not 0) as one span that flow |flow|
  // (from the submitting host span) enters.
  base::Status Run(const hal::utils::DeferredCommandBuffer& command_buffer,
                   std::span<const hal::BufferBinding> binding_table, TaskExecutor* executor, uint32_t track,
                   uint64_t flow) const;
  // A new flow from the calling (submitting) thread when |track| is not 0; 0 otherwise.
  static uint64_t StartFlow(uint32_t track);

  base::Ref<TaskExecutor> executor_;
  std::unique_ptr<hal::utils::HostQueue> queue_;
  std::atomic<uint32_t> trace_track_{0};
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_DEVICE_H_
