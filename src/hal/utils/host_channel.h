// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::utils::HostChannel: collectives over host memory between ranks that are threads of this
// process (rendezvous "local:<name>"), for the CPU drivers.
//
// Ranks meet in a communicator found by name in a process-wide registry. Group collectives run in
// rounds: every rank posts its operands, waits for all, computes its own result from the peers'
// send memory into scratch, waits until every rank has finished reading, then writes its result
// (so in-place operands are safe). Results are reduced in rank order, so every rank of an
// all_reduce gets the same bytes. send/recv pair two ranks through a mailbox without involving
// the others.
//
// Failure is loud and bounded: ranks that disagree on an operation, a wait longer than the
// timeout, or a peer whose channel is destroyed while others wait for it break the communicator,
// and every rank waiting on it (and every later operation) fails with a status naming the
// ranks, the operation and the round. Nothing hangs.
//
// Thread-safety: a channel is used by one rank; ranks run concurrently.
#ifndef IREE_RT_HAL_UTILS_HOST_CHANNEL_H_
#define IREE_RT_HAL_UTILS_HOST_CHANNEL_H_

#include <chrono>
#include <memory>
#include <string>

#include "hal/channel.h"

namespace iree_rt::hal::utils {

class HostChannel final : public Channel {
 public:
  // Joins the communicator |name| (created by the first rank to join) as |rank| of |count|.
  // INVALID_ARGUMENT if another rank created it with another count; ALREADY_EXISTS if |rank|
  // already joined it.
  static base::StatusOr<base::Ref<HostChannel>> Join(const std::string& name, int32_t rank, int32_t count,
                                                     std::chrono::milliseconds timeout);
  ~HostChannel() override;

  const void* type_tag() const override { return &kTypeTag; }
  static HostChannel* Cast(Channel* channel) {
    return channel && channel->type_tag() == &kTypeTag ? static_cast<HostChannel*>(channel) : nullptr;
  }

  // Runs one collective. |send| and |recv| hold the bytes the op reads and writes
  // (CollectiveByteCounts); either is null where the kind does not use it.
  base::Status Run(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                   uint64_t element_count);

  struct Communicator;

 private:
  static constexpr char kTypeTag = 0;
  HostChannel(std::shared_ptr<Communicator> communicator, int32_t rank, int32_t count,
              std::chrono::milliseconds timeout);
  template <typename T, typename... Args>
  friend base::Ref<T> base::MakeRef(Args&&... args);

  base::StatusOr<base::Ref<Channel>> SplitImpl(int32_t color, int32_t key, uint64_t flags) override;
  base::Status RunGroup(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                        uint64_t element_count);
  base::Status RunPointToPoint(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                               uint64_t element_count);

  const std::shared_ptr<Communicator> communicator_;
  const std::chrono::milliseconds timeout_;
  uint32_t splits_ = 0;  // names the communicators split from this one (same sequence on every rank)
};

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_HOST_CHANNEL_H_
