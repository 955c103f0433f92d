// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::Device: one GPU through its primary context.
//
// Queue operations go through a PendingQueue onto the dispatch stream; host calls run on a
// host thread of their own (hal::utils::HostQueue). Command buffers are CUDA graphs or deferred
// recordings replayed onto the stream (DeviceOptions::command_buffer_mode; binding-table command
// buffers are always deferred). Queue transfers always replay (a graph per fill would cost more
// than it saves). With async allocations, device-local queue allocas come from a memory pool
// in stream order and deallocas free in stream order.
#ifndef IREE_RT_DRIVERS_CUDA_DEVICE_H_
#define IREE_RT_DRIVERS_CUDA_DEVICE_H_

#include <memory>

#include "drivers/cuda/context.h"
#include "drivers/cuda/event_pool.h"
#include "drivers/cuda/executable.h"
#include "drivers/cuda/pending_queue.h"
#include "hal/device.h"
#include "hal/utils/host_queue.h"

namespace iree_rt::drivers::cuda {

enum class CommandBufferMode { kGraph, kStream };

struct DeviceOptions {
  // Graphs by default: on the H100 they are as fast or faster on every benchmarked workload
  // (bench/results/cuda.txt); stream mode stays selectable and tested.
  CommandBufferMode command_buffer_mode = CommandBufferMode::kGraph;
  bool async_allocations = true;
  size_t event_pool_capacity = 32;
};

class Device final : public hal::Device {
 public:
  static base::StatusOr<base::Ref<Device>> Create(const DynamicSymbols& syms, CUdevice device,
                                                  const DeviceOptions& options);
  ~Device() override;

  const Context& context() const { return *context_; }
  const DeviceOptions& options() const { return options_; }

 private:
  class HostCallThread;
  Device(base::Ref<Context> context, base::Ref<hal::Allocator> allocator, const DeviceOptions& options,
         const KernelLimits& limits, int cc_major, int cc_minor);
  template <typename T, typename... Args>
  friend base::Ref<T> base::MakeRef(Args&&... args);

  base::StatusOr<int64_t> QueryI64Impl(std::string_view category, std::string_view key) override;
  base::StatusOr<base::Ref<hal::CommandBuffer>> CreateCommandBufferImpl(
      hal::CommandBufferModeBits mode, hal::CommandCategoryBits categories,
      uint32_t binding_capacity) override;
  base::StatusOr<base::Ref<hal::Semaphore>> CreateSemaphoreImpl(uint64_t initial_value) override;
  base::StatusOr<base::Ref<hal::ExecutableCache>> CreateExecutableCacheImpl() override;
  base::Status QueueExecuteImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                const base::Ref<hal::CommandBuffer>& command_buffer,
                                std::span<const hal::BufferBinding> binding_table) override;
  base::Status QueueHostCallImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                 hal::HostCall call) override;
  // NCCL communicators (nccl_channel.h).
  base::StatusOr<base::Ref<hal::Channel>> CreateChannelImpl(const hal::ResolvedChannel& channel) override;
  base::StatusOr<base::Ref<hal::Buffer>> QueueAllocaImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                                         const hal::BufferParams& params, uint64_t size,
                                                         uint64_t flags) override;
  base::Status QueueDeallocaImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                 const base::Ref<hal::Buffer>& buffer, uint64_t flags) override;
  base::Status QueueTransferImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                 const std::function<base::Status(hal::CommandBuffer&)>& record) override;

  const base::Ref<Context> context_;
  const DeviceOptions options_;
  const KernelLimits limits_;
  const int cc_major_;
  const int cc_minor_;
  base::Ref<EventPool> events_;
  std::unique_ptr<HostCallThread> host_thread_;
  std::unique_ptr<hal::utils::HostQueue> host_queue_;
  std::unique_ptr<PendingQueue> queue_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_DEVICE_H_
