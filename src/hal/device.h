// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::Device: one device's allocator, object factories and its queue.
//
// Queue operations are asynchronous: each starts once every |wait| timepoint is reached and, when
// its effect is visible, signals every |signal| timepoint. They never block the caller on an
// unsatisfied wait. If a wait fails or the operation fails, every |signal| semaphore is failed with
// that status instead. Validation errors found at call time are returned and nothing is enqueued.
//
// Drivers implement a dozen *Impl methods; transfers, alloca/dealloca and file I/O have defaults
// here built on command buffers and host calls, which drivers override only to go faster.
//
// Thread-safety: every method may be called from any thread.
#ifndef IREE_RT_HAL_DEVICE_H_
#define IREE_RT_HAL_DEVICE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/allocator.h"
#include "hal/buffer.h"
#include "hal/channel.h"
#include "hal/command_buffer.h"
#include "hal/executable_cache.h"
#include "hal/file.h"
#include "hal/semaphore.h"

namespace iree_rt::hal {

// One bit per logical queue; kQueueAffinityAny lets the device choose.
using QueueAffinity = uint64_t;
inline constexpr QueueAffinity kQueueAffinityAny = ~uint64_t{0};

using SemaphoreList = std::span<const SemaphorePoint>;

namespace AllocaFlag {
// The storage lives until the last reference drops; a dealloca only orders.
inline constexpr uint64_t kIndeterminateLifetime = 0x1;
}  // namespace AllocaFlag

// Work a queue runs on the host once its waits are met; its error fails the signals.
using HostCall = std::function<base::Status()>;

// Bytes [source_offset, +length) of |source| into [target_offset, +length) of |target|.
struct FileRead {
  base::Ref<File> source;
  uint64_t source_offset = 0;
  base::Ref<Buffer> target;
  uint64_t target_offset = 0;
  uint64_t length = 0;
};

class StagingPool;

class Device : public base::RefObject {
 public:
  // The device identifier matched by compiled programs ("local-sync", "local-task", "cuda").
  const std::string& id() const { return id_; }
  Allocator& allocator() const { return *allocator_; }

  // Answers a program's or user's query (hal_abi_facts.md §1.5). NOT_FOUND for unknown keys.
  base::StatusOr<int64_t> QueryI64(std::string_view category, std::string_view key);

  base::StatusOr<base::Ref<CommandBuffer>> CreateCommandBuffer(CommandBufferModeBits mode,
                                                               CommandCategoryBits categories,
                                                               QueueAffinity affinity,
                                                               uint32_t binding_capacity);
  base::StatusOr<base::Ref<Semaphore>> CreateSemaphore(uint64_t initial_value);
  base::StatusOr<base::Ref<ExecutableCache>> CreateExecutableCache();

  // Returns the buffer at once; its storage is usable after |signal|. Flags: AllocaFlag.
  base::StatusOr<base::Ref<Buffer>> QueueAlloca(QueueAffinity affinity, SemaphoreList wait,
                                                SemaphoreList signal, const BufferParams& params,
                                                uint64_t size, uint64_t flags);
  // Releases a QueueAlloca'd buffer's storage after |wait|; for other buffers, only orders.
  base::Status QueueDealloca(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                             const base::Ref<Buffer>& buffer, uint64_t flags);
  base::Status QueueFill(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                         const base::Ref<Buffer>& target, uint64_t offset, uint64_t length,
                         uint32_t pattern, uint32_t pattern_length);
  // Captures |source| before returning: the caller may reuse it at once.
  base::Status QueueUpdate(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                           const void* source, uint64_t length, const base::Ref<Buffer>& target,
                           uint64_t target_offset);
  base::Status QueueCopy(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                         const base::Ref<Buffer>& source, uint64_t source_offset,
                         const base::Ref<Buffer>& target, uint64_t target_offset, uint64_t length);
  base::Status QueueRead(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                         const base::Ref<File>& source, uint64_t source_offset,
                         const base::Ref<Buffer>& target, uint64_t target_offset, uint64_t length);
  // Runs every read of |reads| (their targets must not overlap) after |wait|, then signals |signal|.
  // Reads into host-visible memory are split over several host threads; reads into memory the
  // host cannot map (a GPU's) stream through a ring of staging buffers (pinned on CUDA): several
  // threads fill slots while earlier slots are copied to the device.
  base::Status QueueReadMany(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                             std::span<const FileRead> reads);
  base::Status QueueWrite(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                          const base::Ref<Buffer>& source, uint64_t source_offset,
                          const base::Ref<File>& target, uint64_t target_offset, uint64_t length);
  base::Status QueueBarrier(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal);
  // Runs a finalized command buffer with |binding_table| (copied and retained until |signal|).
  base::Status QueueExecute(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                            const base::Ref<CommandBuffer>& command_buffer,
                            std::span<const BufferBinding> binding_table);
  // hal.channel.create. Rank and count -1 (the compiler's default channel) come from
  // channel_config() or an MPI launcher's environment; with neither, FAILED_PRECONDITION.
  // Compiled programs create their channel at every call: channels are kept per device and
  // parameters, so a call joins its peers (or initializes NCCL) once, not every time.
  base::StatusOr<base::Ref<Channel>> CreateChannel(QueueAffinity affinity, const ChannelParams& params);
  const ChannelConfig& channel_config() const { return channel_config_; }
  // Set by Driver::CreateDevice from the rank=, ranks=, rendezvous= and collective_timeout_ms=
  // parameters, before the device is shared.
  void set_channel_config(ChannelConfig config) { channel_config_ = std::move(config); }

  // Runs |call| on a host thread after |wait|; its error fails |signal|.
  base::Status QueueHostCall(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                             HostCall call);

 protected:
  Device(std::string id, base::Ref<Allocator> allocator);
  ~Device() override;

 private:
  base::Status ValidateLists(SemaphoreList wait, SemaphoreList signal) const;
  base::Status QueueHostReads(SemaphoreList wait, SemaphoreList signal, std::vector<FileRead> reads);
  base::Status QueueStagedReads(QueueAffinity affinity, SemaphoreList wait, SemaphoreList signal,
                                std::vector<FileRead> reads);

  virtual base::StatusOr<int64_t> QueryI64Impl(std::string_view category, std::string_view key) = 0;
  virtual base::StatusOr<base::Ref<CommandBuffer>> CreateCommandBufferImpl(
      CommandBufferModeBits mode, CommandCategoryBits categories, uint32_t binding_capacity) = 0;
  virtual base::StatusOr<base::Ref<Semaphore>> CreateSemaphoreImpl(uint64_t initial_value) = 0;
  virtual base::StatusOr<base::Ref<ExecutableCache>> CreateExecutableCacheImpl() = 0;
  // |command_buffer| null means a barrier.
  virtual base::Status QueueExecuteImpl(SemaphoreList wait, SemaphoreList signal,
                                        const base::Ref<CommandBuffer>& command_buffer,
                                        std::span<const BufferBinding> binding_table) = 0;
  virtual base::Status QueueHostCallImpl(SemaphoreList wait, SemaphoreList signal, HostCall call) = 0;
  // Optional: the default has no channels (UNIMPLEMENTED naming the device).
  virtual base::StatusOr<base::Ref<Channel>> CreateChannelImpl(const ResolvedChannel& channel);

  // Optional: defaults allocate at once and release through a host call.
  virtual base::StatusOr<base::Ref<Buffer>> QueueAllocaImpl(SemaphoreList wait, SemaphoreList signal,
                                                            const BufferParams& params, uint64_t size,
                                                            uint64_t flags);
  virtual base::Status QueueDeallocaImpl(SemaphoreList wait, SemaphoreList signal,
                                         const base::Ref<Buffer>& buffer, uint64_t flags);
  // Optional: the default records a one-shot command buffer and executes it.
  virtual base::Status QueueTransferImpl(SemaphoreList wait, SemaphoreList signal,
                                         const std::function<base::Status(CommandBuffer&)>& record);

  const std::string id_;
  const base::Ref<Allocator> allocator_;
  const base::Ref<StagingPool> staging_pool_;  // QueueStagedReads' slots, reused across reads
  ChannelConfig channel_config_;
  std::mutex channels_mutex_;
  std::map<std::string, base::Ref<Channel>> channels_;  // by resolved parameters
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_DEVICE_H_
