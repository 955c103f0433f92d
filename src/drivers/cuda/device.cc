// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/device.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "base/trace.h"
#include "drivers/cuda/allocator.h"
#include "drivers/cuda/buffer.h"
#include "drivers/cuda/executable_cache.h"
#include "drivers/cuda/nccl_channel.h"
#include "drivers/cuda/command_buffer.h"
#include "drivers/cuda/semaphore.h"
#include "drivers/cuda/status_util.h"
#include "hal/utils/transient_buffer.h"

namespace iree_rt::drivers::cuda {

using base::Ref;
using base::Status;
using base::StatusOr;

// Runs host calls in order on one thread with the context current (host calls may free CUDA
// memory, e.g. a dealloca's storage).
class Device::HostCallThread {
 public:
  explicit HostCallThread(Ref<Context> context)
      : context_(std::move(context)), thread_([this] { Loop(); }) {}
  ~HostCallThread() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
  void Post(std::function<void()> closure) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closures_.push_back(std::move(closure));
    }
    cv_.notify_one();
  }

 private:
  void Loop() {
    context_->Activate().IgnoreError();
    while (true) {
      std::function<void()> closure;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [&] { return stopping_ || !closures_.empty(); });
        if (closures_.empty()) return;
        closure = std::move(closures_.front());
        closures_.pop_front();
      }
      closure();
    }
  }

  Ref<Context> context_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> closures_;
  bool stopping_ = false;
  std::thread thread_;
};

StatusOr<Ref<Device>> Device::Create(const DynamicSymbols& syms, CUdevice device,
                                     const DeviceOptions& options) {
  ContextOptions context_options;
  context_options.async_allocations = options.async_allocations;
  RT_ASSIGN_OR_RETURN(Ref<Context> context, Context::Create(syms, device, context_options));
  auto attribute = [&](CUdevice_attribute which, const char* what) -> StatusOr<int> {
    int value = 0;
    RT_CUDA_RETURN_IF_ERROR(syms, cuDeviceGetAttribute(&value, which, device), what);
    return value;
  };
  KernelLimits limits;
  RT_ASSIGN_OR_RETURN(int bx, attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, "MAX_BLOCK_DIM_X"));
  RT_ASSIGN_OR_RETURN(int by, attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, "MAX_BLOCK_DIM_Y"));
  RT_ASSIGN_OR_RETURN(int bz, attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, "MAX_BLOCK_DIM_Z"));
  RT_ASSIGN_OR_RETURN(int threads, attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK"));
  RT_ASSIGN_OR_RETURN(int shared, attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                            "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"));
  RT_ASSIGN_OR_RETURN(int major, attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "CC_MAJOR"));
  RT_ASSIGN_OR_RETURN(int minor, attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "CC_MINOR"));
  limits.max_block_dims[0] = bx;
  limits.max_block_dims[1] = by;
  limits.max_block_dims[2] = bz;
  limits.max_threads_per_block = threads;
  limits.max_dynamic_shared_bytes = shared;
  size_t total_memory = 0;
  RT_CUDA_RETURN_IF_ERROR(syms, cuDeviceTotalMem(&total_memory, device), "cuDeviceTotalMem");
  Ref<hal::Allocator> allocator = base::MakeRef<Allocator>(context, total_memory);
  return base::MakeRef<Device>(std::move(context), std::move(allocator), options, limits, major, minor);
}

Device::Device(Ref<Context> context, Ref<hal::Allocator> allocator, const DeviceOptions& options,
               const KernelLimits& limits, int cc_major, int cc_minor)
    : hal::Device("cuda", std::move(allocator)),
      context_(std::move(context)),
      options_(options),
      limits_(limits),
      cc_major_(cc_major),
      cc_minor_(cc_minor) {
  events_ = base::MakeRef<EventPool>(context_, options.event_pool_capacity);
  host_thread_ = std::make_unique<HostCallThread>(context_);
  host_queue_ = std::make_unique<hal::utils::HostQueue>(
      [thread = host_thread_.get()](std::function<void()> closure) { thread->Post(std::move(closure)); });
  queue_ = std::make_unique<PendingQueue>(context_, events_);
}

Device::~Device() {
  // Device work first (it may feed host calls), then host calls, then their thread.
  queue_.reset();
  host_queue_.reset();
  host_thread_.reset();
}

StatusOr<int64_t> Device::QueryI64Impl(std::string_view category, std::string_view key) {
  if (category == "hal.executable.format") return key == kExecutableFormat ? 1 : 0;
  if (category == "hal.device" && key == "concurrency") return 1;
  if (category == "hal.dispatch" && key == "concurrency") return 1;
  if (category == "cuda.device") {
    if (key == "compute_capability_major") return cc_major_;
    if (key == "compute_capability_minor") return cc_minor_;
    if (key == "concurrent_managed_access") return context_->concurrent_managed_access() ? 1 : 0;
  }
  return base::NotFoundError("device '", id(), "' has no query value for ", category, " :: ", key);
}

StatusOr<Ref<hal::CommandBuffer>> Device::CreateCommandBufferImpl(hal::CommandBufferModeBits mode,
                                                                  hal::CommandCategoryBits categories,
                                                                  uint32_t binding_capacity) {
  const CommandBuffer::Execution execution = options_.command_buffer_mode == CommandBufferMode::kGraph
                                                 ? CommandBuffer::Execution::kGraph
                                                 : CommandBuffer::Execution::kStream;
  return Ref<hal::CommandBuffer>(
      base::MakeRef<CommandBuffer>(context_, execution, mode, categories, binding_capacity));
}

StatusOr<Ref<hal::Semaphore>> Device::CreateSemaphoreImpl(uint64_t initial_value) {
  return Ref<hal::Semaphore>(base::MakeRef<Semaphore>(initial_value));
}

StatusOr<Ref<hal::ExecutableCache>> Device::CreateExecutableCacheImpl() {
  return Ref<hal::ExecutableCache>(base::MakeRef<ExecutableCache>(context_, limits_));
}

Status Device::QueueExecuteImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                const Ref<hal::CommandBuffer>& command_buffer,
                                std::span<const hal::BufferBinding> binding_table) {
  if (!command_buffer) {
    queue_->Submit(wait, signal, nullptr);
    return Status::Ok();
  }
  CommandBuffer* cuda_command_buffer = CommandBuffer::Cast(command_buffer.get());
  if (!cuda_command_buffer) return base::InvalidArgumentError("command buffer was not created by a CUDA device");
  // The submission owns the command buffer and a copy of the table until it completes.
  std::vector<hal::BufferBinding> table(binding_table.begin(), binding_table.end());
  std::function<Status()> verify;
  if (cuda_command_buffer->has_collectives()) {
    verify = [cuda_command_buffer] { return cuda_command_buffer->CollectiveHealth(); };
  }
  // When tracing, an arrow from this submission to its device span.
  const uint64_t flow = base::trace::NewFlowId();
  base::trace::FlowStart(flow, flow ? base::trace::NowNs() : 0);
  queue_->Submit(
      wait, signal,
      [cb = command_buffer, cuda_command_buffer, table = std::move(table), flow](CUstream stream) {
        return cuda_command_buffer->Launch(table, stream, flow);
      },
      std::move(verify));
  return Status::Ok();
}

StatusOr<Ref<hal::Channel>> Device::CreateChannelImpl(const hal::ResolvedChannel& channel) {
  RT_ASSIGN_OR_RETURN(Ref<NcclChannel> nccl, NcclChannel::Create(context_, channel));
  return Ref<hal::Channel>(std::move(nccl));
}

Status Device::QueueHostCallImpl(hal::SemaphoreList wait, hal::SemaphoreList signal, hal::HostCall call) {
  host_queue_->Submit(wait, signal, std::move(call));
  return Status::Ok();
}

Status Device::QueueTransferImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                 const std::function<Status(hal::CommandBuffer&)>& record) {
  // Transfers replay onto the stream: a graph would cost more to build than it saves once.
  Ref<hal::CommandBuffer> cb = base::MakeRef<CommandBuffer>(context_, CommandBuffer::Execution::kStream,
                                                            hal::CommandBufferMode::kOneShot,
                                                            hal::CommandCategory::kTransfer, 0);
  RT_RETURN_IF_ERROR(record(*cb));
  RT_RETURN_IF_ERROR(cb->Finalize());
  return QueueExecuteImpl(wait, signal, cb, {});
}

StatusOr<Ref<hal::Buffer>> Device::QueueAllocaImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                                   const hal::BufferParams& params, uint64_t size,
                                                   uint64_t flags) {
  const bool device_only = !(Allocator::Promote(params).type & hal::MemoryType::kHostVisible);
  auto& cuda_allocator = static_cast<Allocator&>(allocator());
  Ref<hal::Buffer> storage;
  bool enqueued = true;  // the allocation (or its zeroing) is on the stream
  if (context_->memory_pool() && device_only) {
    if (size > cuda_allocator.max_allocation_size()) {
      return base::ResourceExhaustedError("queue alloca of ", size, " bytes exceeds the limit of ",
                                          cuda_allocator.max_allocation_size(), " bytes");
    }
    // Allocated now on the dispatch stream: every use is enqueued after it, and the pool may
    // hand back memory whose stream-ordered free is already enqueued.
    RT_ASSIGN_OR_RETURN(storage, cuda_allocator.AllocateFromPool(params, size, &enqueued));
  } else {
    RT_ASSIGN_OR_RETURN(storage, cuda_allocator.AllocateBuffer(params, size));
  }
  Ref<hal::Buffer> buffer = base::MakeRef<hal::utils::TransientBuffer>(std::move(storage), flags);
  // A cached pool block is usable once the stream has passed its earlier uses: the queue then
  // orders the signal, and completes it at once when everything issued has finished. Otherwise
  // the signal follows the enqueued allocation.
  if (enqueued) {
    queue_->Submit(wait, signal, [](CUstream) { return Status::Ok(); });
  } else {
    queue_->Submit(wait, signal, nullptr);
  }
  return buffer;
}

Status Device::QueueDeallocaImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                 const Ref<hal::Buffer>& buffer, uint64_t flags) {
  auto* transient = dynamic_cast<hal::utils::TransientBuffer*>(buffer->allocated_buffer());
  if (!transient || (transient->alloca_flags() & hal::AllocaFlag::kIndeterminateLifetime)) {
    queue_->Submit(wait, signal, nullptr);
    return Status::Ok();
  }
  // Decommitted on the issue thread once the waits are met: a pool buffer's cuMemFreeAsync is
  // then enqueued after every use, in stream order; other storage is freed by its destructor.
  Ref<hal::utils::TransientBuffer> retained = Ref<hal::utils::TransientBuffer>::Retain(transient);
  queue_->Submit(wait, signal, [retained](CUstream) {
    retained->Decommit();
    return Status::Ok();
  });
  return Status::Ok();
}

}  // namespace iree_rt::drivers::cuda
