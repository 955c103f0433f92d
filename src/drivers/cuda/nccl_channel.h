// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::NcclChannel: a collective channel of CUDA devices through NCCL (nccl_symbols.h).
//
// Rank 0 makes the NCCL unique id and the ranks share it through the channel's rendezvous
// (hal/utils/rendezvous.h: threads of one process, or processes through a file). Communicators
// are created non-blocking, so no call waits on peers without a deadline: initialization, split
// and every enqueue poll NCCL's state until done or until the channel's timeout, when the
// communicator is aborted and the channel fails for good with a status naming the rank and what
// it waited for.
//
// Collectives go onto the stream they are given, each in an NCCL group of its own: the
// dispatch stream in stream mode, or a capture stream while a cuda::Graph is built (NCCL kernels
// captured into the graph, which is what lets graph command buffers hold collectives).
//
// Enqueued work is watched (Watch/health): see there.
//
// Built only where nccl.h is found; elsewhere nccl_unavailable.cc makes every channel
// UNAVAILABLE, saying so. Nothing here includes nccl.h: the communicator lives in State.
//
// Thread-safety: calls on the communicator are serialized by the channel.
#ifndef IREE_RT_DRIVERS_CUDA_NCCL_CHANNEL_H_
#define IREE_RT_DRIVERS_CUDA_NCCL_CHANNEL_H_

#include <cuda.h>

#include <memory>

#include "drivers/cuda/context.h"
#include "hal/channel.h"
#include "hal/utils/deferred_command_buffer.h"

namespace iree_rt::drivers::cuda {

class NcclChannel final : public hal::Channel {
 public:
  static base::StatusOr<base::Ref<NcclChannel>> Create(base::Ref<Context> context,
                                                       const hal::ResolvedChannel& channel);
  ~NcclChannel() override;

  const void* type_tag() const override { return &kTypeTag; }
  static NcclChannel* Cast(hal::Channel* channel) {
    return channel && channel->type_tag() == &kTypeTag ? static_cast<NcclChannel*>(channel) : nullptr;
  }
  // What NCCL cannot run (its type set has no 16-bit integers): refused when recorded.
  static base::Status CheckSupported(const hal::CollectiveOp& op);

  // Enqueues |op| on |stream| with device addresses |send| / |recv| (0 where unused).
  base::Status Enqueue(const hal::CollectiveOp& op, uint32_t param, CUdeviceptr send, CUdeviceptr recv,
                       uint64_t element_count, CUstream stream);

  // Watches the collectives just launched on |stream| (an event recorded there): a watchdog
  // thread aborts the communicator if they have not finished within the channel's timeout (a peer
  // that died, left or runs another collective keeps NCCL's kernels waiting forever) or NCCL
  // reports an error. health() then returns the failure, and submissions that used the channel
  // fail with it instead of signalling garbage.
  base::Status Watch(CUstream stream);
  base::Status health() const;

  struct State;  // the communicator (nccl_channel.cc)

 private:
  static constexpr char kTypeTag = 0;
  NcclChannel(int32_t rank, int32_t count, std::unique_ptr<State> state);
  template <typename T, typename... Args>
  friend base::Ref<T> base::MakeRef(Args&&... args);

  base::StatusOr<base::Ref<hal::Channel>> SplitImpl(int32_t color, int32_t key, uint64_t flags) override;

  std::unique_ptr<State> state_;
};

// A replayed collective (hal::utils::CommandTarget::Collective) onto |stream|: the channel must
// be an NcclChannel, the references are resolved to device addresses.
base::Status EnqueueCollective(hal::Channel& channel, const hal::CollectiveOp& op, uint32_t param,
                               const hal::utils::ResolvedRef* send, const hal::utils::ResolvedRef* recv,
                               uint64_t element_count, CUstream stream);

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_NCCL_CHANNEL_H_
